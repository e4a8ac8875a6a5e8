import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GroupCommitBacklogError, GroupCommitClosedError, GroupCommitter } from './group-commit.js';

/** A writer whose writes finish only when the test says so. */
function gatedWriter() {
  const writes: number[][] = [];
  const gates: { open: () => void; fail: (err: Error) => void }[] = [];
  const write = (items: readonly number[]) =>
    new Promise<void>((resolve, reject) => {
      writes.push([...items]);
      gates.push({ open: resolve, fail: reject });
    });
  return { writes, gates, write };
}

const settled = async (p: Promise<unknown>) => {
  let state = 'pending';
  p.then(
    () => {
      state = 'resolved';
    },
    () => {
      state = 'rejected';
    },
  );
  await nextTurn();
  return state;
};

describe('GroupCommitter', () => {
  it('writes the first item at once and batches those arriving during a write into the next', async () => {
    const w = gatedWriter();
    const gc = new GroupCommitter(w.write);
    const first = gc.submit(1);
    await nextTurn();
    expect(w.writes).toEqual([[1]]);
    const later = [2, 3, 4].map((n) => gc.submit(n));
    await nextTurn();
    expect(w.writes).toHaveLength(1);
    expect(await settled(first)).toBe('pending');
    w.gates[0]!.open();
    await first;
    await nextTurn();
    await nextTurn();
    expect(w.writes).toEqual([[1], [2, 3, 4]]);
    expect(await settled(later[0]!)).toBe('pending');
    w.gates[1]!.open();
    await Promise.all(later);
    expect(gc.stats()).toEqual({ batches: 2, items: 4, largestBatch: 3, failedBatches: 0, pending: 0 });
  });

  it('splits at maxBatch', async () => {
    const batches: number[] = [];
    const gc = new GroupCommitter<number>((items) => void batches.push(items.length), { maxBatch: 4 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => gc.submit(i)));
    expect(batches).toEqual([4, 4, 2]);
  });

  it('coalesces a synchronous writer across event-loop turns', async () => {
    const batches: number[] = [];
    const gc = new GroupCommitter<number>((items) => {
      batches.push(items.length);
      const until = Date.now() + 2;
      while (Date.now() < until) {} // a blocking write, like better-sqlite3's
    });
    await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        for (let t = 0; t < i % 7; t++) await nextTurn();
        await gc.submit(i);
      }),
    );
    expect(batches.reduce((a, b) => a + b, 0)).toBe(200);
    expect(batches.length).toBeLessThanOrEqual(10);
  });

  it('rejects every item of a failed write, and only those', async () => {
    const w = gatedWriter();
    const gc = new GroupCommitter(w.write);
    const a = gc.submit(1);
    await nextTurn();
    const b = [gc.submit(2), gc.submit(3)];
    w.gates[0]!.open();
    await a;
    await nextTurn();
    await nextTurn();
    const c = gc.submit(4);
    w.gates[1]!.fail(new Error('disk full'));
    await expect(b[0]).rejects.toThrow('disk full');
    await expect(b[1]).rejects.toThrow('disk full');
    await nextTurn();
    await nextTurn();
    expect(w.writes).toEqual([[1], [2, 3], [4]]);
    w.gates[2]!.open();
    await c;
    expect(gc.stats()).toMatchObject({ batches: 2, items: 2, failedBatches: 1 });
  });

  it('refuses at once when too many items wait', async () => {
    const w = gatedWriter();
    const gc = new GroupCommitter(w.write, { maxBatch: 2, maxPending: 3 });
    const accepted = [1, 2, 3].map((n) => gc.submit(n));
    await expect(gc.submit(4)).rejects.toBeInstanceOf(GroupCommitBacklogError);
    await nextTurn();
    w.gates[0]!.open();
    await nextTurn();
    await nextTurn();
    w.gates[1]!.open();
    await Promise.all(accepted);
  });

  it('close() writes what waits, then refuses', async () => {
    const written: number[] = [];
    const gc = new GroupCommitter<number>(async (items) => {
      await new Promise((r) => setTimeout(r, 5));
      written.push(...items);
    });
    const pending = [1, 2, 3].map((n) => gc.submit(n));
    await gc.close();
    expect(written).toEqual([1, 2, 3]);
    await Promise.all(pending);
    await expect(gc.submit(4)).rejects.toBeInstanceOf(GroupCommitClosedError);
  });

  it('refuses nonsensical sizes', () => {
    expect(() => new GroupCommitter(() => {}, { maxBatch: 0 })).toThrow(RangeError);
    expect(() => new GroupCommitter(() => {}, { maxBatch: 10, maxPending: 5 })).toThrow(RangeError);
  });
});
