import { describe, expect, it } from 'vitest';
import type { EventBus } from '../bus/bus.js';
import type { StoredEvent } from '../events/envelope.js';
import { KafkaMeteringSink } from './kafka-metering-sink.js';
import { InvalidServiceCallError, newServiceCall } from './service-call.js';

/**
 * Only publish matters to the sink; the real KafkaBus is exercised in test/metering/*.stack.test.ts. Here a
 * publish takes 5 ms and can be told to fail, to pin down batching and failure semantics deterministically.
 */
class RecordingBus implements EventBus {
  readonly published: StoredEvent[][] = [];
  failNext = false;
  async publish(events: readonly StoredEvent[]): Promise<void> {
    const fail = this.failNext;
    this.failNext = false;
    await new Promise((r) => setTimeout(r, 5));
    if (fail) throw new Error('broker unavailable');
    this.published.push([...events]);
  }
  subscribe(): never {
    throw new Error('not used');
  }
  async health() {
    return {};
  }
  async close() {}
}

const call = (status = 200) =>
  newServiceCall({
    accountId: '0190a1b2-0000-7000-8000-000000000001',
    keyId: 'k1',
    slug: 'captcha',
    operationId: 'createChallenge',
    convention: 'S',
    status,
    latencyMs: 1,
  });

describe('KafkaMeteringSink', () => {
  it('publishes concurrent calls as a few batches of ServiceCalled events, resolving after', async () => {
    const bus = new RecordingBus();
    const sink = new KafkaMeteringSink(bus, { maxBatch: 100 });
    const calls = Array.from({ length: 250 }, (_, i) => call(i % 5 === 0 ? 500 : 200));
    let resolvedBeforePublish = 0;
    await Promise.all(
      calls.map((c) =>
        sink.record(c).then(() => {
          if (!bus.published.flat().some((e) => e.eventId === c.eventId)) resolvedBeforePublish++;
        }),
      ),
    );
    expect(resolvedBeforePublish).toBe(0);
    expect(bus.published.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(
      bus.published
        .flat()
        .map((e) => e.eventId)
        .sort(),
    ).toEqual(calls.map((c) => c.eventId).sort());
    expect(bus.published[0]![0]).toMatchObject({
      type: 'ServiceCalled',
      streamId: `call-${calls[0]!.accountId}`,
    });
    expect(sink.stats()).toMatchObject({ batches: 3, items: 250, largestBatch: 100 });
    await sink.close();
  });

  it('rejects every record of a failed publish, and goes on with the next batch', async () => {
    const bus = new RecordingBus();
    const sink = new KafkaMeteringSink(bus);
    const first = sink.record(call());
    await new Promise((r) => setImmediate(r));
    bus.failNext = true;
    const second = await Promise.allSettled([sink.record(call()), sink.record(call())]);
    await first;
    expect(second.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    await sink.record(call());
    expect(bus.published.map((b) => b.length)).toEqual([1, 1]);
    await sink.close();
  });

  it('refuses a malformed call without publishing it or failing its neighbours', async () => {
    const bus = new RecordingBus();
    const sink = new KafkaMeteringSink(bus);
    const results = await Promise.allSettled([
      sink.record(call()),
      sink.record({ ...call(), slug: 'No Slug' }),
    ]);
    expect(results[0]!.status).toBe('fulfilled');
    expect(results[1]!.status === 'rejected' && results[1].reason).toBeInstanceOf(InvalidServiceCallError);
    expect(bus.published.flat()).toHaveLength(1);
    await sink.close();
    await expect(sink.record(call())).rejects.toThrow(/closed/);
  });
});
