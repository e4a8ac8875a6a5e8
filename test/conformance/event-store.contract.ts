import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewEvent, StoredEvent } from '../../core/events/envelope.js';
import { ConcurrencyError, InvalidEventError } from '../../core/events/errors.js';
import type { EventStore } from '../../core/events/event-store.js';
import { EventSchemaRegistry } from '../../core/events/schema-registry.js';
import { newId } from '../../core/ids.js';

export interface EventStoreFixture {
  readonly store: EventStore;
  cleanup(): Promise<void>;
}

/** The payload schema the contract's events use; real event types live in schemas/events/. */
export const testEventSchemas = () =>
  new EventSchemaRegistry().register({
    title: 'TestHappened',
    type: 'object',
    required: ['n'],
    properties: { n: { type: 'integer' }, note: { type: 'string' } },
    additionalProperties: false,
  });

const ev = (n: number, extra: Partial<NewEvent> = {}): NewEvent => ({
  type: 'TestHappened',
  data: { n },
  ...extra,
});
const stream = () => `test-${newId()}`;

/** One contract for every EventStore adapter (DESIGN.md section 9). */
export function describeEventStoreContract(name: string, factory: () => Promise<EventStoreFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let fx: EventStoreFixture;
    beforeEach(async () => {
      fx = await factory();
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    it('appends to a new stream with versions from 1 and increasing global positions', async () => {
      const s = stream();
      const result = await fx.store.append(
        s,
        [ev(1, { accountId: 'acc-1', metadata: { requestId: 'req-1', actor: 'acc-1' } }), ev(2)],
        'no_stream',
      );
      expect(result.nextExpectedVersion).toBe(2);
      expect(result.events.map((e) => e.streamVersion)).toEqual([1, 2]);
      const [a, b] = result.events as [StoredEvent, StoredEvent];
      expect(b.globalPosition).toBeGreaterThan(a.globalPosition);
      expect(result.lastGlobalPosition).toBe(b.globalPosition);
      const read = await fx.store.readStream(s);
      expect(read).toEqual(result.events);
      expect(read[0]).toMatchObject({
        type: 'TestHappened',
        streamId: s,
        accountId: 'acc-1',
        data: { n: 1 },
        metadata: { requestId: 'req-1', actor: 'acc-1' },
      });
      expect(read[0]!.eventId).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(new Date(read[0]!.occurredAt).toISOString()).toBe(read[0]!.occurredAt);
      expect(read[1]!.accountId).toBeNull();
    });

    it('refuses a wrong expected version with a typed conflict naming the actual version', async () => {
      const s = stream();
      await fx.store.append(s, [ev(1)], 0);
      const err = await fx.store.append(s, [ev(2)], 0).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConcurrencyError);
      expect(err).toMatchObject({ streamId: s, expected: 0, actual: 1 });
      await expect(fx.store.append(s, [ev(2)], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
      await expect(fx.store.append(s, [ev(2)], 5)).rejects.toBeInstanceOf(ConcurrencyError);
      expect(await fx.store.readStream(s)).toHaveLength(1);
      const ok = await fx.store.append(s, [ev(2)], 1);
      expect(ok.nextExpectedVersion).toBe(2);
      const any = await fx.store.append(s, [ev(3)], 'any');
      expect(any.nextExpectedVersion).toBe(3);
    });

    it('lets exactly one of many concurrent appends with the same expected version win', async () => {
      const s = stream();
      await fx.store.append(s, [ev(0)], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => fx.store.append(s, [ev(i), ev(i + 100)], 1)),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o) => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(11);
      for (const l of lost) expect((l as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
      const read = await fx.store.readStream(s);
      expect(read.map((e) => e.streamVersion)).toEqual([1, 2, 3]);
    });

    it('reads a stream from a version with a limit, and an unknown stream as empty', async () => {
      const s = stream();
      await fx.store.append(
        s,
        Array.from({ length: 10 }, (_, i) => ev(i)),
        'no_stream',
      );
      const page = await fx.store.readStream(s, { fromVersion: 4, limit: 3 });
      expect(page.map((e) => e.streamVersion)).toEqual([4, 5, 6]);
      expect(page.map((e) => (e.data as { n: number }).n)).toEqual([3, 4, 5]);
      expect(await fx.store.readStream(stream())).toEqual([]);
    });

    it('pages through the global log after a position, in order, with the limit', async () => {
      const start = await fx.store.headPosition();
      const s1 = stream();
      const s2 = stream();
      await fx.store.append(s1, [ev(1), ev(2)], 'no_stream');
      await fx.store.append(s2, [ev(3)], 'no_stream');
      await fx.store.append(s1, [ev(4)], 2);
      const first = await fx.store.readAll(start, 2);
      const rest = await fx.store.readAll(first.at(-1)!.globalPosition, 100);
      const all = [...first, ...rest].filter((e) => e.streamId === s1 || e.streamId === s2);
      expect(all.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4]);
      expect(first).toHaveLength(2);
      expect(await fx.store.headPosition()).toBe(all.at(-1)!.globalPosition);
      expect(await fx.store.readAll(await fx.store.headPosition(), 10)).toEqual([]);
    });

    it('never skips or repeats an event in readAll while many writers commit concurrently', async () => {
      const start = await fx.store.headPosition();
      const writers = 8;
      const appendsPerWriter = 30;
      const written = new Set<string>();
      let writing = true;
      const seen: StoredEvent[] = [];
      const reader = (async () => {
        let position = start;
        // Tail with a small page while the writers run, exactly as a projection or the relay does.
        while (writing || seen.length < written.size) {
          const page = await fx.store.readAll(position, 7);
          for (const e of page) seen.push(e);
          if (page.length > 0) position = page.at(-1)!.globalPosition;
          else await new Promise((r) => setTimeout(r, 2));
        }
      })();
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          const s = stream();
          let version = 0;
          for (let i = 0; i < appendsPerWriter; i++) {
            const batch = Array.from({ length: 1 + (i % 3) }, (_, k) => ev(w * 1000 + i * 10 + k));
            const r = await fx.store.append(s, batch, version);
            version = r.nextExpectedVersion;
            for (const e of r.events) written.add(e.eventId);
          }
        }),
      );
      writing = false;
      await reader;
      const ids = seen.map((e) => e.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(written);
      for (let i = 1; i < seen.length; i++) {
        expect(seen[i]!.globalPosition).toBeGreaterThan(seen[i - 1]!.globalPosition);
      }
    });

    it('deletes a stream for retention without reusing positions or versions', async () => {
      const s = stream();
      const keep = stream();
      const before = await fx.store.append(s, [ev(1), ev(2)], 'no_stream');
      await fx.store.append(keep, [ev(3)], 'no_stream');
      expect(await fx.store.deleteStream(s)).toBe(2);
      expect(await fx.store.readStream(s)).toEqual([]);
      const log = await fx.store.readAll(before.events[0]!.globalPosition - 1, 100);
      expect(log.map((e) => e.streamId)).not.toContain(s);
      expect(log.map((e) => e.streamId)).toContain(keep);
      await expect(fx.store.append(s, [ev(9)], 'no_stream')).rejects.toBeInstanceOf(ConcurrencyError);
      const after = await fx.store.append(s, [ev(9)], 2);
      expect(after.events[0]!.streamVersion).toBe(3);
      expect(after.events[0]!.globalPosition).toBeGreaterThan(before.lastGlobalPosition);
      expect(await fx.store.deleteStream(stream())).toBe(0);
    });

    it('checks payloads against schemas/events and appends nothing of a batch with one bad event', async () => {
      const s = stream();
      const err = await fx.store
        .append(s, [ev(1), { type: 'TestHappened', data: { n: 'two' } }], 'no_stream')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidEventError);
      expect((err as InvalidEventError).problems.join()).toContain('/n');
      await expect(
        fx.store.append(s, [{ type: 'NoSuchEvent', data: {} }], 'no_stream'),
      ).rejects.toBeInstanceOf(InvalidEventError);
      expect(await fx.store.readStream(s)).toEqual([]);
    });

    it('refuses a duplicate event id and keeps the stream unchanged', async () => {
      const s = stream();
      const eventId = newId();
      await fx.store.append(s, [ev(1, { eventId })], 'no_stream');
      await expect(fx.store.append(stream(), [ev(2, { eventId })], 'no_stream')).rejects.toThrow();
      expect(await fx.store.readStream(s)).toHaveLength(1);
    });

    it('refuses malformed stream ids', async () => {
      await expect(fx.store.append('NoCategory', [ev(1)], 'any')).rejects.toThrow(/stream id/);
      await expect(fx.store.append('', [ev(1)], 'any')).rejects.toThrow(/stream id/);
    });
  });
}
