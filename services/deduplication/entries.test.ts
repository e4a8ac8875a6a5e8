import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { MemoryKvStore } from '../../core/kv/memory-kv.js';
import { contentHash } from './content-hash.js';
import { entryKey, recordSubmission } from './entries.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

/** One clock for the store and the service, moved by hand. */
function setup() {
  let now = T0;
  const kv = new MemoryKvStore({ now: () => now });
  return {
    kv,
    advance: (ms: number) => {
      now += ms;
    },
    submit: (content: string, over: { accountId?: string; namespace?: string; ttlHours?: number } = {}) =>
      recordSubmission(
        kv,
        {
          accountId: over.accountId ?? 'acc-a',
          namespace: over.namespace ?? 'orders',
          hash: contentHash(content),
          ttlHours: over.ttlHours ?? 24,
        },
        new Date(now),
      ),
  };
}

describe('recordSubmission', () => {
  it('says UNIQUE the first time and EXACT_DUPLICATE after, counting every submission', async () => {
    const { submit, advance } = setup();
    expect(await submit('hello')).toEqual({
      result: 'UNIQUE',
      hash: contentHash('hello'),
      namespace: 'orders',
      firstSeen: '2026-03-01T12:00:00.000Z',
      occurrences: 1,
      expiresAt: '2026-03-02T12:00:00.000Z',
    });
    advance(5_000);
    expect(await submit('hello')).toMatchObject({
      result: 'EXACT_DUPLICATE',
      firstSeen: '2026-03-01T12:00:00.000Z',
      occurrences: 2,
    });
    expect(await submit('hello')).toMatchObject({ result: 'EXACT_DUPLICATE', occurrences: 3 });
    expect(await submit('hello ')).toMatchObject({ result: 'UNIQUE', occurrences: 1 });
  });

  it('keeps namespaces apart, and accounts apart even in a namespace of the same name', async () => {
    const { submit } = setup();
    await submit('x');
    expect(await submit('x', { namespace: 'invoices' })).toMatchObject({ result: 'UNIQUE' });
    expect(await submit('x', { namespace: 'Orders' })).toMatchObject({ result: 'UNIQUE' });
    expect(await submit('x', { accountId: 'acc-b' })).toMatchObject({ result: 'UNIQUE', occurrences: 1 });
    expect(await submit('x', { accountId: 'acc-b' })).toMatchObject({ occurrences: 2 });
    expect(await submit('x')).toMatchObject({ occurrences: 2 });
  });

  it('expires the entry ttlHours after the first submission; later ttlHours change nothing', async () => {
    const { submit, advance } = setup();
    await submit('x', { ttlHours: 2 });
    advance(HOUR);
    expect(await submit('x', { ttlHours: 100 })).toMatchObject({
      occurrences: 2,
      expiresAt: '2026-03-01T14:00:00.000Z',
    });
    advance(HOUR - 1);
    expect(await submit('x')).toMatchObject({ result: 'EXACT_DUPLICATE', occurrences: 3 });
    advance(1);
    expect(await submit('x', { ttlHours: 1 })).toEqual({
      result: 'UNIQUE',
      hash: contentHash('x'),
      namespace: 'orders',
      firstSeen: '2026-03-01T14:00:00.000Z',
      occurrences: 1,
      expiresAt: '2026-03-01T15:00:00.000Z',
    });
  });

  it('stores the entry under dedup:<account>:<namespace>:<hash>, its counter outliving it', async () => {
    const { kv, submit } = setup();
    await submit('x', { ttlHours: 3 });
    const key = entryKey('acc-a', 'orders', contentHash('x'));
    expect(key).toBe(`dedup:acc-a:orders:${contentHash('x')}`);
    const entry = JSON.parse((await kv.get(key))!) as { generation: string };
    expect(await kv.ttl(key)).toBe(3 * HOUR);
    expect(await kv.get(`${key}:${entry.generation}`)).toBe('1');
    expect(await kv.ttl(`${key}:${entry.generation}`)).toBeGreaterThan(3 * HOUR);
  });

  it('counts 50 concurrent identical submissions exactly: one UNIQUE, occurrences 1 to 50 once each', async () => {
    const { submit } = setup();
    const results = await Promise.all(Array.from({ length: 50 }, () => submit('same')));
    expect(results.filter((r) => r.result === 'UNIQUE')).toHaveLength(1);
    expect(results.map((r) => r.occurrences).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(new Set(results.map((r) => r.firstSeen)).size).toBe(1);
  });
});

describe('recordSubmission when another writer gets in between', () => {
  /** A real store in which another submission creates the entry between our read and our setIfAbsent. */
  class RacedKv extends MemoryKvStore {
    raced = 0;
    constructor(
      private readonly rival: () => Promise<void>,
      private readonly times: number,
    ) {
      super({ now: () => T0 });
    }
    override async get(key: string): Promise<string | null> {
      if (this.raced < this.times) {
        this.raced++;
        await this.rival();
        return null;
      }
      return super.get(key);
    }
  }

  const input = { accountId: 'acc', namespace: 'ns', hash: contentHash('x'), ttlHours: 1 };

  it('joins the entry the other writer made: same firstSeen, next occurrence', async () => {
    const kv: RacedKv = new RacedKv(async () => {
      await MemoryKvStore.prototype.set.call(
        kv,
        entryKey('acc', 'ns', input.hash),
        JSON.stringify({
          firstSeen: 'earlier',
          expiresAt: new Date(T0 + 1_000).toISOString(),
          generation: 'g1',
        }),
        1_000,
      );
      await kv.increment(`${entryKey('acc', 'ns', input.hash)}:g1`);
    }, 1);
    const result = await recordSubmission(kv, input, new Date(T0));
    expect(result).toMatchObject({ result: 'EXACT_DUPLICATE', firstSeen: 'earlier', occurrences: 2 });
  });

  it('gives up with SERVICE_UNAVAILABLE when the entry keeps vanishing', async () => {
    const kv: RacedKv = new RacedKv(async () => {
      await MemoryKvStore.prototype.set.call(kv, entryKey('acc', 'ns', input.hash), '{}', 1_000);
    }, 10);
    const error = await recordSubmission(kv, input, new Date(T0)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('SERVICE_UNAVAILABLE');
  });
});
