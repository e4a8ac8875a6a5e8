/**
 * The check route's counting on the cluster store (RedisKvStore on the real Redis of the local stack): two
 * clients stand for two gateways; keys live under a unique prefix and are deleted afterwards.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisKvStore } from '../../core/kv/redis-kv.js';
import type { CallContext, RouteDefinition } from '../../core/service/definition.js';
import { contentHash } from '../../services/deduplication/content-hash.js';
import { entryKey } from '../../services/deduplication/entries.js';
import { createDeduplicationService } from '../../services/deduplication/service.js';
import { stackEnv, uniqueName } from '../support/stack.js';

const prefix = `${uniqueName('tgdedup')}:`;
const clients = [new Redis(stackEnv().redisUrl), new Redis(stackEnv().redisUrl)] as const;
const stores = clients.map((c) => new RedisKvStore(c, { prefix }));

afterAll(async () => {
  const redis = clients[0];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await Promise.all(clients.map((c) => c.quit()));
});

const ctx = (accountId: string): CallContext => ({
  requestId: 'r',
  accountId,
  keyId: 'k',
  roles: ['ROLE_USER'],
  plan: 'PRO',
  batchLimit: 100,
  ip: '127.0.0.1',
  now: () => new Date(),
});

interface Result {
  result: string;
  occurrences: number;
  firstSeen: string;
  expiresAt: string;
}

/** One check route per client: two gateways sharing Redis. */
const routes: RouteDefinition[] = stores.map(
  (kv) => createDeduplicationService({ kv }).routes.find((r) => r.operationId === 'deduplicationCheck')!,
);
const submit = (body: unknown, accountId = 'acc-1', gateway = 0) =>
  routes[gateway]!.handler({ params: {}, query: {}, body, headers: {} }, ctx(accountId)) as Promise<Result>;

describe('check on Redis', () => {
  it('50 concurrent identical submissions through two gateways: one UNIQUE, occurrences 1 to 50 once each', async () => {
    const body = { content: `payload ${prefix}`, namespace: 'events' };
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(body, 'acc-1', i % 2)));
    expect(results.filter((r) => r.result === 'UNIQUE')).toHaveLength(1);
    expect(results.map((r) => r.occurrences).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(new Set(results.map((r) => r.firstSeen)).size).toBe(1);
  });

  it('keeps accounts and namespaces apart', async () => {
    const body = { content: 'isolated', namespace: 'n' };
    expect(await submit(body, 'acc-a')).toMatchObject({ result: 'UNIQUE' });
    expect(await submit(body, 'acc-b', 1)).toMatchObject({ result: 'UNIQUE', occurrences: 1 });
    expect(await submit({ ...body, namespace: 'm' }, 'acc-a')).toMatchObject({ result: 'UNIQUE' });
    expect(await submit(body, 'acc-a', 1)).toMatchObject({ result: 'EXACT_DUPLICATE', occurrences: 2 });
  });

  it('gives the entry the requested lifetime in Redis and its counter a longer one', async () => {
    const result = await submit({ content: 'ttl', namespace: 'n', ttlHours: 3 });
    const key = `${prefix}${entryKey('acc-1', 'n', contentHash('ttl'))}`;
    const entry = JSON.parse((await clients[0].get(key))!) as { generation: string; firstSeen: string };
    expect(entry.firstSeen).toBe(result.firstSeen);
    const entryTtl = await clients[0].pttl(key);
    expect(entryTtl).toBeGreaterThan(3 * 3_600_000 - 60_000);
    expect(entryTtl).toBeLessThanOrEqual(3 * 3_600_000);
    expect(await clients[0].pttl(`${key}:${entry.generation}`)).toBeGreaterThan(entryTtl);
  });

  it('starts over at UNIQUE once Redis expires the entry', async () => {
    const body = { content: 'expiring', namespace: 'n', ttlHours: 1 };
    const first = await submit(body);
    expect((await submit(body)).occurrences).toBe(2);
    const key = `${prefix}${entryKey('acc-1', 'n', contentHash('expiring'))}`;
    await clients[0].pexpire(key, 20);
    await new Promise((r) => setTimeout(r, 60));
    const after = await submit(body, 'acc-1', 1);
    expect(after).toMatchObject({ result: 'UNIQUE', occurrences: 1 });
    expect(Date.parse(after.firstSeen)).toBeGreaterThan(Date.parse(first.firstSeen));
    expect((await submit(body)).occurrences).toBe(2);
  });
});
