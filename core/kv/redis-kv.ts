import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { checkIncrementBy, checkTtl, type KvStore } from './kv.js';

// EXISTS before INCRBY tells a new key from an old one inside the same atomic script, so only a new key gets
// the TTL: a fixed window must not be stretched by every later increment.
const INCREMENT = `local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created and tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`;
const INCREMENT_SHA = createHash('sha1').update(INCREMENT).digest('hex');

export interface RedisKvOptions {
  /** Prepended to every key (e.g. `toolgate:kv:`), so deployments and test runs can share one Redis. */
  prefix: string;
  /** Quit the client on close(); default false, since a client handed in is usually shared. */
  ownsClient?: boolean;
}

/**
 * Cluster store on Redis. Every operation is one command or one script, hence one round trip and atomic across
 * gateways.
 *
 * Ownership: a client passed to the constructor belongs to the caller unless `ownsClient` says otherwise, and
 * close() leaves it connected; a store made by `connect()` owns its client and quits it on close().
 */
export class RedisKvStore implements KvStore {
  private readonly prefix: string;
  private readonly ownsClient: boolean;

  constructor(
    private readonly redis: Redis,
    options: RedisKvOptions,
  ) {
    if (!options.prefix) throw new Error('RedisKvStore: a non-empty key prefix is required');
    this.prefix = options.prefix;
    this.ownsClient = options.ownsClient ?? false;
  }

  static connect(url: string, options: RedisKvOptions): RedisKvStore {
    return new RedisKvStore(new Redis(url), { ...options, ownsClient: true });
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.k(key));
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkTtl(ttlMs);
    if (ttlMs === undefined) await this.redis.set(this.k(key), value);
    else await this.redis.set(this.k(key), value, 'PX', ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    checkTtl(ttlMs);
    const reply =
      ttlMs === undefined
        ? await this.redis.set(this.k(key), value, 'NX')
        : await this.redis.set(this.k(key), value, 'PX', ttlMs, 'NX');
    return reply === 'OK';
  }

  async increment(key: string, by = 1, ttlMs?: number): Promise<number> {
    checkIncrementBy(by);
    checkTtl(ttlMs);
    const args = [this.k(key), by, ttlMs ?? 0] as const;
    try {
      return Number(await this.redis.evalsha(INCREMENT_SHA, 1, ...args));
    } catch (err) {
      // First use on this server (or after SCRIPT FLUSH): EVAL runs the script and caches it for next time.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return Number(await this.redis.eval(INCREMENT, 1, ...args));
    }
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.del(this.k(key))) > 0;
  }

  async ttl(key: string): Promise<number | null> {
    const ms = await this.redis.pttl(this.k(key));
    // -2: no such key, -1: no expiry.
    return ms < 0 ? null : ms;
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.redis.quit();
  }

  private k(key: string): string {
    return this.prefix + key;
  }
}
