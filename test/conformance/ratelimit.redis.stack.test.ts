import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PLANS } from '../../core/ratelimit/plans.js';
import { RedisRateLimiter } from '../../core/ratelimit/redis-rate-limiter.js';
import { stackEnv, uniqueName } from '../support/stack.js';
import { describeRateLimiterContract } from './ratelimit.contract.js';

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

describeRateLimiterContract('redis', async (options) => {
  const redis = new Redis(stackEnv().redisUrl);
  const prefix = `${uniqueName('tgrl')}:`;
  const limiter = new RedisRateLimiter(redis, { prefix, ...options });
  return {
    limiter,
    cleanup: async () => {
      await limiter.close();
      await deletePrefixed(redis, prefix);
      await redis.quit();
    },
  };
});

describe('RedisRateLimiter specifics', () => {
  const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
  const FREE = DEFAULT_PLANS.FREE!;
  const req = (now = T0) => ({ keyId: 'k1', accountId: 'a1', limits: FREE, now });

  /** A limiter on a fresh prefix for `body`, with its client and prefix; its keys are removed after. */
  async function withLimiter(
    body: (limiter: RedisRateLimiter, redis: Redis, prefix: string) => Promise<void>,
  ): Promise<void> {
    const redis = new Redis(stackEnv().redisUrl);
    const prefix = `${uniqueName('tgrl')}:`;
    try {
      await body(new RedisRateLimiter(redis, { prefix }), redis, prefix);
    } finally {
      await deletePrefixed(redis, prefix);
      await redis.quit();
    }
  }

  it('makes one round trip per consume(), loader-seeded or not', async () => {
    await withLimiter(async (_, redis, prefix) => {
      const limiter = new RedisRateLimiter(redis, { prefix, loadMonthUsed: async () => 3 });
      await limiter.consume(req()); // loads the script into the server's cache
      const sent = vi.spyOn(redis, 'sendCommand');
      try {
        await limiter.consume({ ...req(), accountId: 'a-seeded' }); // first of the month: carries the seed
        await limiter.consume(req(T0 + 1));
        expect(sent.mock.calls.map(([command]) => command.name)).toEqual(['evalsha', 'evalsha']);
        sent.mockClear();
        await limiter.release('a1', T0);
        expect(sent.mock.calls.map(([command]) => command.name)).toEqual(['evalsha']);
      } finally {
        sent.mockRestore();
      }
    });
  });

  it('keeps its keys under the prefix, hash-tagged, with expiries on every one', async () => {
    await withLimiter(async (limiter, redis, prefix) => {
      await limiter.consume(req());
      const keys = (await redis.keys(`${prefix}*`)).sort();
      expect(keys).toEqual([
        `${prefix}q:{a1}:2030-01`,
        `${prefix}rl:{k1}:d`,
        `${prefix}rl:{k1}:di`,
        `${prefix}rl:{k1}:m`,
      ]);
      const ttl = async (key: string) => redis.pttl(`${prefix}${key}`);
      expect(await ttl('rl:{k1}:m')).toBeGreaterThan(60_000);
      expect(await ttl('rl:{k1}:m')).toBeLessThanOrEqual(61_000);
      expect(await ttl('rl:{k1}:d')).toBeGreaterThan(24.9 * 3_600_000);
      expect(await ttl('rl:{k1}:di')).toBeGreaterThan(24.9 * 3_600_000);
      expect(await ttl('q:{a1}:2030-01')).toBeGreaterThan(34.9 * 86_400_000);
      expect(await redis.get(`${prefix}q:{a1}:2030-01`)).toBe('1');
      expect(await redis.zcard(`${prefix}rl:{k1}:m`)).toBe(1);
      expect(await redis.hgetall(`${prefix}rl:{k1}:d`)).toEqual({ [String(T0 / 60_000)]: '1', n: '1' });
    });
  });

  it('prunes the day buckets as they leave the window', async () => {
    await withLimiter(async (limiter, redis, prefix) => {
      const limits = { ...FREE, perMinute: 100, perDay: 100_000, perMonth: 100_000 };
      // One request every 10 minutes over two days: at most 145 buckets are ever held.
      for (let m = 0; m <= 2 * 1_440; m += 10) {
        await limiter.consume({ ...req(T0 + m * 60_000), limits });
      }
      expect(await redis.zcard(`${prefix}rl:{k1}:di`)).toBe(145);
      expect(await redis.hlen(`${prefix}rl:{k1}:d`)).toBe(146);
      expect(await redis.hget(`${prefix}rl:{k1}:d`, 'n')).toBe('145');
    });
  });

  it('is exact across gateways: two clients, one prefix, 50 concurrent requests, 10 allowed', async () => {
    await withLimiter(async (limiter, redis, prefix) => {
      const other = new Redis(stackEnv().redisUrl);
      try {
        const gatewayB = new RedisRateLimiter(other, { prefix });
        const decisions = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? limiter : gatewayB).consume(req())),
        );
        expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
        expect(await redis.zcard(`${prefix}rl:{k1}:m`)).toBe(10);
      } finally {
        await other.quit();
      }
    });
  });

  it('does not overwrite a counter other gateways already hold with a seed', async () => {
    await withLimiter(async (limiter, redis, prefix) => {
      for (let i = 0; i < 4; i++) await limiter.consume(req());
      const seeded = new RedisRateLimiter(redis, { prefix, loadMonthUsed: async () => 900 });
      expect(await seeded.consume({ ...req(), keyId: 'k2' })).toMatchObject({ allowed: true, monthUsed: 5 });
    });
  });

  it('reloads its scripts after the server forgot them', async () => {
    await withLimiter(async (limiter, redis) => {
      expect(await limiter.consume(req())).toMatchObject({ monthUsed: 1 });
      await redis.script('FLUSH');
      expect(await limiter.consume(req())).toMatchObject({ monthUsed: 2 });
      await redis.script('FLUSH');
      await limiter.release('a1', T0);
      expect(await limiter.consume(req())).toMatchObject({ monthUsed: 2 });
    });
  });

  it('leaves a borrowed client connected on close and quits its own', async () => {
    await withLimiter(async (limiter, redis, prefix) => {
      await limiter.close();
      expect(await redis.ping()).toBe('PONG');
      const own = RedisRateLimiter.connect(stackEnv().redisUrl, { prefix });
      await own.consume(req());
      await own.close();
      await expect(own.consume(req())).rejects.toThrow(/closed/i);
    });
  });

  it('refuses an empty prefix', () => {
    const redis = new Redis(stackEnv().redisUrl, { lazyConnect: true });
    expect(() => new RedisRateLimiter(redis, { prefix: '' })).toThrow(/prefix/);
    redis.disconnect();
  });
});
