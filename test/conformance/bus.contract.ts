import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventBus, EventHandler, Subscription } from '../../core/bus/bus.js';
import { contextOfStream } from '../../core/bus/topics.js';
import type { NewEvent, StoredEvent } from '../../core/events/envelope.js';
import { newId } from '../../core/ids.js';

export interface BusFixture {
  readonly bus: EventBus;
  /** Appends `n` events (see testEvents) to a real event store and makes them reach the bus. */
  append(streamId: string, n: number): Promise<StoredEvent[]>;
  cleanup(): Promise<void>;
}

/** The events a fixture appends: payloads with nesting and non-ASCII text, so encoding round trips show. */
export function testEvents(streamId: string, n: number): NewEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    type: 'TestHappened',
    data: { i, note: 'grüße ✓', nested: { list: [1, 'two', null], flag: i % 2 === 0 } },
    accountId: streamId.startsWith('account-') ? streamId.slice('account-'.length) : null,
    metadata: { requestId: `req-${i}`, actor: 'system' },
  }));
}

/** Polls until `condition` holds; bounded, so a lost event fails the test instead of hanging it. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const testStream = () => `test-${newId()}`;
const group = () => `g-${newId()}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** One contract for every EventBus adapter (DESIGN.md section 9). */
export function describeBusContract(name: string, factory: () => Promise<BusFixture>): void {
  describe(`EventBus contract: ${name}`, { timeout: 60_000 }, () => {
    let fx: BusFixture;
    let subscriptions: Subscription[] = [];

    beforeEach(async () => {
      fx = await factory();
    });
    afterEach(async () => {
      await Promise.allSettled(subscriptions.map((s) => s.stop()));
      subscriptions = [];
      await fx.cleanup();
    });

    const subscribe = async (handler: EventHandler, g = group(), contexts?: string[]) => {
      const sub = await fx.bus.subscribe(contexts ? { group: g, contexts } : { group: g }, handler);
      subscriptions.push(sub);
      return sub;
    };

    it('delivers every event, exactly as stored, whether appended before or after subscribing', async () => {
      const [a, b] = [testStream(), testStream()];
      const appended = [...(await fx.append(a, 3)), ...(await fx.append(b, 2))];
      const got = new Map<string, StoredEvent[]>();
      await subscribe(async (e) => {
        got.set(e.eventId, [...(got.get(e.eventId) ?? []), e]);
      });
      appended.push(...(await fx.append(a, 2)), ...(await fx.append(b, 3)));

      await waitFor(() => appended.every((e) => got.has(e.eventId)), 'all 10 events');
      for (const e of appended) expect(got.get(e.eventId)).toEqual([e]);
      expect(got.size).toBe(appended.length);
    });

    it('keeps per-stream order across interleaved appends to several streams', async () => {
      const streams = Array.from({ length: 5 }, testStream);
      const perStream = 40;
      const last = new Map<string, number>();
      const violations: string[] = [];
      await subscribe(async (e) => {
        const expected = (last.get(e.streamId) ?? 0) + 1;
        if (e.streamVersion !== expected)
          violations.push(`${e.streamId}: got v${e.streamVersion}, want v${expected}`);
        last.set(e.streamId, e.streamVersion);
      });

      // Round-robin with batches of 1 to 3 events, so streams interleave within and across publishes.
      const appendedTo = new Map(streams.map((s) => [s, 0]));
      for (let round = 0; [...appendedTo.values()].some((n) => n < perStream); round++) {
        for (const [i, s] of streams.entries()) {
          const n = Math.min(1 + ((round + i) % 3), perStream - appendedTo.get(s)!);
          if (n === 0) continue;
          await fx.append(s, n);
          appendedTo.set(s, appendedTo.get(s)! + n);
        }
      }

      await waitFor(() => streams.every((s) => last.get(s) === perStream), '5 × 40 events');
      expect(violations).toEqual([]);
    });

    it('gives every group every event', async () => {
      const [a, b] = [testStream(), testStream()];
      const seen1 = new Set<string>();
      const seen2 = new Set<string>();
      await subscribe(async (e) => {
        seen1.add(e.eventId);
      });
      await subscribe(async (e) => {
        seen2.add(e.eventId);
      });
      const ids = [...(await fx.append(a, 10)), ...(await fx.append(b, 10))].map((e) => e.eventId);

      await waitFor(
        () => ids.every((id) => seen1.has(id) && seen2.has(id)),
        'both groups to see all 20 events',
      );
      expect([...seen1].sort()).toEqual([...ids].sort());
      expect([...seen2].sort()).toEqual([...ids].sort());
    });

    it('resumes a stopped group where it stopped: nothing lost, nothing handled again', async () => {
      const [a, b] = [testStream(), testStream()];
      const g = group();
      const round1: StoredEvent[] = [];
      await fx.append(a, 10);
      const sub1 = await subscribe(async (e) => {
        round1.push(e);
      }, g);
      await waitFor(() => round1.length >= 10, 'the first 10 events');
      await sub1.stop();

      await fx.append(a, 10);
      await fx.append(b, 5);
      const round2: StoredEvent[] = [];
      await subscribe(async (e) => {
        round2.push(e);
      }, g);
      const versions = (events: StoredEvent[], s: string) =>
        events.filter((e) => e.streamId === s).map((e) => e.streamVersion);
      // a's events arrive in order, so once v20 is here any redelivery of v1–v10 would already show.
      await waitFor(
        () => versions(round2, a).includes(20) && versions(round2, b).includes(5),
        'the events appended while stopped',
      );
      expect(versions(round1, a)).toEqual(range(1, 10));
      expect(versions(round2, a)).toEqual(range(11, 20));
      expect(versions(round2, b)).toEqual(range(1, 5));
    });

    it('delivers again an event whose handler threw, keeping the stream order', async () => {
      const [a, b] = [testStream(), testStream()];
      const attempts: number[] = [];
      const handled = new Map<string, number[]>();
      let thrown = false;
      await subscribe(async (e) => {
        if (e.streamId === a) attempts.push(e.streamVersion);
        if (e.streamId === a && e.streamVersion === 4 && !thrown) {
          thrown = true;
          // A TypeError on purpose: kafkajs treats one escaping eachBatch as fatal and stops the consumer.
          throw new TypeError('transient failure');
        }
        handled.set(e.streamId, [...(handled.get(e.streamId) ?? []), e.streamVersion]);
      });
      for (let i = 0; i < 5; i++) {
        await fx.append(a, 2);
        await fx.append(b, 2);
      }

      await waitFor(
        () => handled.get(a)?.length === 10 && handled.get(b)?.length === 10,
        'both streams to be handled in full',
      );
      expect(thrown).toBe(true);
      expect(attempts).toEqual([1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10]);
      expect(handled.get(a)).toEqual(range(1, 10));
      expect(handled.get(b)).toEqual(range(1, 10));
    });

    it('delivers only the contexts a subscriber asked for', async () => {
      const t = testStream();
      const acc = `account-${newId()}`;
      expect(contextOfStream(acc)).toBe('accounts');
      const accounts: StoredEvent[] = [];
      const tests: StoredEvent[] = [];
      await subscribe(
        async (e) => {
          accounts.push(e);
        },
        group(),
        ['accounts'],
      );
      await subscribe(
        async (e) => {
          tests.push(e);
        },
        group(),
        ['test'],
      );
      await fx.append(t, 5);
      await fx.append(acc, 5);

      await waitFor(() => accounts.length >= 5 && tests.length >= 5, 'both filtered subscribers');
      // Room for a stray delivery to show up before judging.
      await sleep(300);
      expect(accounts.map((e) => e.streamId)).toEqual(Array(5).fill(acc));
      expect(tests.map((e) => e.streamId)).toEqual(Array(5).fill(t));
    });
  });
}
