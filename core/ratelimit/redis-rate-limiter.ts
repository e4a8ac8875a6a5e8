import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  bucketOf,
  checkMonthUsed,
  checkNow,
  checkRequest,
  decide,
  type LoadMonthUsed,
  MINUTE_MS,
  monthPeriod,
  oldestCountedBucket,
  previousPeriod,
  type RateDecision,
  type RateLimiter,
  type RateLimitRequest,
  type StepOutcome,
} from './rate-limiter.js';

/*
 * Keys (one API key's windows share the hash tag {keyId}):
 *   <prefix>rl:{<keyId>}:m    ZSET   minute log: one member per allowed request, scored by its timestamp
 *   <prefix>rl:{<keyId>}:d    HASH   day buckets: bucket index -> count, plus `n` -> their total
 *   <prefix>rl:{<keyId>}:di   ZSET   the day buckets present, scored by index (stale and oldest in O(log n))
 *   <prefix>q:{<accountId>}:<YYYY-MM>   STRING   quota units used in that month
 *
 * Every write refreshes its key's expiry, so a key nobody uses disappears once nothing in it can count any
 * more: the minute log 61 s after its newest entry, the day buckets 25 h after theirs (24 h and one minute of
 * window plus slack), the quota 35 days after its last change (past the end of any month).
 *
 * Each script names all its keys in KEYS. The quota key carries the account's hash tag and the windows the
 * key's, so on Redis Cluster (not used by the cluster profile, which runs one Redis behind REDIS_URL) they
 * would have to share one tag for the script to run.
 */

const CONSUME = `-- KEYS: 1 minute log, 2 day buckets, 3 day bucket index, 4 month quota
-- ARGV: 1 now, 2 minute cut (entries at or before it have left), 3 perMinute, 4 bucket of now,
--       5 oldest counted bucket, 6 perDay, 7 perMonth, 8 unique member, 9 seed (-1: none),
--       10 minute ttl ms, 11 day ttl ms, 12 quota ttl ms
if tonumber(ARGV[9]) >= 0 then redis.call('SET', KEYS[4], ARGV[9], 'NX', 'PX', ARGV[12]) end
local used = tonumber(redis.call('GET', KEYS[4]) or '0')

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local inMinute = redis.call('ZCARD', KEYS[1])

local stale = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[5])
if #stale > 0 then
  local counts = redis.call('HMGET', KEYS[2], unpack(stale))
  local gone = 0
  for i = 1, #counts do gone = gone + (tonumber(counts[i]) or 0) end
  redis.call('HDEL', KEYS[2], unpack(stale))
  redis.call('HINCRBY', KEYS[2], 'n', -gone)
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. ARGV[5])
end
local inDay = tonumber(redis.call('HGET', KEYS[2], 'n') or '0')

local refused = 0
if inMinute >= tonumber(ARGV[3]) then refused = 1
elseif inDay >= tonumber(ARGV[6]) then refused = 2
elseif used >= tonumber(ARGV[7]) then refused = 3
else
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[8])
  redis.call('PEXPIRE', KEYS[1], ARGV[10])
  redis.call('HINCRBY', KEYS[2], ARGV[4], 1)
  redis.call('HINCRBY', KEYS[2], 'n', 1)
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[4])
  redis.call('PEXPIRE', KEYS[2], ARGV[11])
  redis.call('PEXPIRE', KEYS[3], ARGV[11])
  used = redis.call('INCR', KEYS[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[12])
  inMinute = inMinute + 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or '-1'
local firstBucket = '-1'
if refused == 2 then firstBucket = redis.call('ZRANGE', KEYS[3], 0, 0)[1] or '-1' end
return {refused, inMinute, oldest, firstBucket, used}`;

// DECR keeps the key's expiry; an absent or zero counter stays as it is (nothing was reserved there).
const RELEASE = `local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

interface LuaScript {
  readonly source: string;
  readonly sha: string;
}
const lua = (source: string): LuaScript => ({ source, sha: createHash('sha1').update(source).digest('hex') });
const CONSUME_SCRIPT = lua(CONSUME);
const RELEASE_SCRIPT = lua(RELEASE);

const MINUTE_TTL_MS = MINUTE_MS + 1_000;
const DAY_TTL_MS = 25 * 3_600_000;
const QUOTA_TTL_MS = 35 * 86_400_000;
const REFUSED_BY = [null, 'minute', 'day', 'quota'] as const;

export interface RedisRateLimiterOptions {
  /** Prepended to every key (e.g. `toolgate:`), so deployments and test runs can share one Redis. */
  prefix: string;
  /** Seeds an account's quota counter from durable usage before this process's first consume of a month. */
  loadMonthUsed?: LoadMonthUsed;
  /** Quit the client on close(); default false, since a client handed in is usually shared. */
  ownsClient?: boolean;
}

/**
 * Cluster rate limiter on Redis (semantics: rate-limiter.ts). consume() is one script, hence one round trip,
 * and atomic across gateways: the windows and the quota are checked and occupied together, with the caller's
 * clock. release() is another script.
 *
 * Seeding: before this process's first consume of a month for an account, loadMonthUsed (if given) is read
 * once (concurrent first calls share the read) and handed to the consume script, which stores it only if the
 * counter does not exist yet (SET NX), so it never overwrites what other gateways have already counted.
 *
 * Ownership: a client passed to the constructor belongs to the caller unless `ownsClient` says otherwise; a
 * limiter made by `connect()` owns its client and quits it on close().
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;
  private readonly ownsClient: boolean;
  private readonly loadMonthUsed: LoadMonthUsed | undefined;
  /** Period → accountId → the pending load, or true once the seed reached Redis. */
  private readonly seeds = new Map<string, Map<string, Promise<number> | true>>();
  /** Makes minute-log members unique across gateways and across requests with the same timestamp. */
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;

  constructor(
    private readonly redis: Redis,
    options: RedisRateLimiterOptions,
  ) {
    if (!options.prefix) throw new Error('RedisRateLimiter: a non-empty key prefix is required');
    this.prefix = options.prefix;
    this.ownsClient = options.ownsClient ?? false;
    this.loadMonthUsed = options.loadMonthUsed;
  }

  static connect(url: string, options: RedisRateLimiterOptions): RedisRateLimiter {
    return new RedisRateLimiter(new Redis(url), { ...options, ownsClient: true });
  }

  async consume(req: RateLimitRequest): Promise<RateDecision> {
    checkRequest(req);
    const { now, limits } = req;
    const period = monthPeriod(now);
    const seed = await this.seedFor(req.accountId, period);
    const member = `${now}:${this.instance}:${++this.sequence}`;
    const windowKey = `${this.prefix}rl:{${req.keyId}}:`;
    const reply = (await this.run(
      CONSUME_SCRIPT,
      [`${windowKey}m`, `${windowKey}d`, `${windowKey}di`, this.quotaKey(req.accountId, period)],
      [
        now,
        now - MINUTE_MS,
        limits.perMinute,
        bucketOf(now),
        oldestCountedBucket(now),
        limits.perDay,
        limits.perMonth,
        member,
        seed ?? -1,
        MINUTE_TTL_MS,
        DAY_TTL_MS,
        QUOTA_TTL_MS,
      ],
    )) as [number, number, string, string, number];
    if (seed !== undefined) this.seeds.get(period)?.set(req.accountId, true);

    const [refused, inMinute, oldest, firstBucket, used] = reply;
    const step: StepOutcome = {
      refusedBy: REFUSED_BY[refused] ?? null,
      inMinute: Number(inMinute),
      oldestInMinute: oldest === '-1' ? null : Number(oldest),
      oldestDayBucket: firstBucket === '-1' ? null : Number(firstBucket),
      monthUsed: Number(used),
    };
    return decide(req, step);
  }

  async release(accountId: string, now: number): Promise<void> {
    checkNow(now);
    await this.run(RELEASE_SCRIPT, [this.quotaKey(accountId, monthPeriod(now))], []);
  }

  async close(): Promise<void> {
    this.seeds.clear();
    if (this.ownsClient) await this.redis.quit();
  }

  private quotaKey(accountId: string, period: string): string {
    return `${this.prefix}q:{${accountId}}:${period}`;
  }

  /** The usage to seed this month's counter with; undefined when seeded already or nothing seeds. */
  private async seedFor(accountId: string, period: string): Promise<number | undefined> {
    const load = this.loadMonthUsed;
    if (!load) return undefined;
    let accounts = this.seeds.get(period);
    if (!accounts) {
      accounts = new Map();
      this.seeds.set(period, accounts);
      // Only months still in use are remembered: this one and the one before (requests near midnight).
      for (const p of this.seeds.keys()) if (p < period && p !== previousPeriod(period)) this.seeds.delete(p);
    }
    let state = accounts.get(accountId);
    if (state === true) return undefined;
    if (!state) {
      const pending = load(accountId, period).then((used) => checkMonthUsed(used, accountId, period));
      state = pending;
      accounts.set(accountId, pending);
      // A failed load is forgotten, so the next consume tries again instead of repeating the error all month.
      pending.catch(() => {
        if (accounts.get(accountId) === pending) accounts.delete(accountId);
      });
    }
    return state;
  }

  private async run(script: LuaScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (err) {
      // First use on this server (or after SCRIPT FLUSH): EVAL runs the script and caches it for next time.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.redis.eval(script.source, keys.length, ...keys, ...args);
    }
  }
}
