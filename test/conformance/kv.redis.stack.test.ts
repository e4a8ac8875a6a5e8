import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisKvStore } from '../../core/kv/redis-kv.js';
import { stackEnv, uniqueName } from '../support/stack.js';
import { describeKvContract } from './kv.contract.js';

/** Deletes every key under `prefix` (glob characters escaped, though uniqueName never produces them). */
async function deletePrefixed(redis: Redis, prefix: string): Promise<void> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

describeKvContract('redis', async () => {
  const redis = new Redis(stackEnv().redisUrl);
  const prefix = `${uniqueName('tgkv')}:`;
  const store = new RedisKvStore(redis, { prefix });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await deletePrefixed(redis, prefix);
      await redis.quit();
    },
  };
});

describe('RedisKvStore specifics', () => {
  it('namespaces every key under its prefix and leaves a borrowed client connected on close', async () => {
    const redis = new Redis(stackEnv().redisUrl);
    const [p1, p2] = [`${uniqueName('tgkv')}:`, `${uniqueName('tgkv')}:`];
    try {
      const a = new RedisKvStore(redis, { prefix: p1 });
      const b = new RedisKvStore(redis, { prefix: p2 });
      await a.set('shared:key', 'from-a');
      await a.increment('count', 2, 60_000);
      expect(await redis.get(`${p1}shared:key`)).toBe('from-a');
      expect(await redis.get(`${p1}count`)).toBe('2');
      expect(await redis.get('shared:key')).toBeNull();
      expect(await b.get('shared:key')).toBeNull();
      expect(await b.setIfAbsent('shared:key', 'from-b')).toBe(true);
      expect(await a.get('shared:key')).toBe('from-a');
      await a.close();
      expect(await redis.ping()).toBe('PONG');
    } finally {
      await deletePrefixed(redis, p1);
      await deletePrefixed(redis, p2);
      await redis.quit();
    }
  });

  it('quits the client it created itself', async () => {
    const prefix = `${uniqueName('tgkv')}:`;
    const store = RedisKvStore.connect(stackEnv().redisUrl, { prefix });
    await store.set('k', 'v');
    await store.delete('k');
    await store.close();
    await expect(store.get('k')).rejects.toThrow(/closed/i);
  });

  it('reloads the increment script after the server forgot it', async () => {
    const redis = new Redis(stackEnv().redisUrl);
    const prefix = `${uniqueName('tgkv')}:`;
    try {
      const kv = new RedisKvStore(redis, { prefix });
      expect(await kv.increment('n')).toBe(1);
      await redis.script('FLUSH');
      expect(await kv.increment('n', 1, 60_000)).toBe(2);
      expect(await kv.ttl('n')).toBeNull();
    } finally {
      await deletePrefixed(redis, prefix);
      await redis.quit();
    }
  });

  it('refuses an empty prefix', () => {
    const redis = new Redis(stackEnv().redisUrl, { lazyConnect: true });
    expect(() => new RedisKvStore(redis, { prefix: '' })).toThrow(/prefix/);
    redis.disconnect();
  });
});
