import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { EventBus, Subscription } from '../../core/bus/bus.js';
import type { StoredEvent } from '../../core/events/envelope.js';
import {
  CALLS_CONTEXT,
  fromEvent,
  isCounted,
  periodOf,
  type ServiceCall,
} from '../../core/metering/service-call.js';

/** The hash field holding the month's total next to the per-slug fields (slugs never start with `_`). */
export const TOTAL_FIELD = '__total';

/** 45 days: longer than a month, so a call redelivered any time within its own month is still recognised. */
export const DEFAULT_SEEN_TTL_SECONDS = 45 * 24 * 3600;
/** About 13 months after the last call of a month, so last year's same month stays readable. */
export const DEFAULT_USAGE_TTL_SECONDS = 400 * 24 * 3600;

/**
 * `<prefix>usage:{<accountId>}:<YYYY-MM>`: slug → 2xx calls, plus `__total`. The braces are a Redis Cluster
 * hash tag: all keys of one account share a slot, which the script below needs.
 */
export const usageKey = (prefix: string, accountId: string, period: string): string =>
  `${prefix}usage:{${accountId}}:${period}`;

/** `<prefix>seen:{<accountId>}:<eventId>`: in the account's slot, so one script may touch it and the hash. */
export const seenKey = (prefix: string, accountId: string, eventId: string): string =>
  `${prefix}seen:{${accountId}}:${eventId}`;

// One round trip, atomic: the dedupe mark and the increments are applied together or not at all, so a crash
// between them cannot lose a call (marked, not counted) or count it twice (counted, not marked).
const COUNT_CALL = `if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
if ARGV[2] == '1' then
  redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
  redis.call('HINCRBY', KEYS[2], '${TOTAL_FIELD}', 1)
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
return 1`;
const COUNT_CALL_SHA = createHash('sha1').update(COUNT_CALL).digest('hex');

export interface RedisUsageProjectorOptions {
  /** Prepended to every key (e.g. `toolgate:`), so deployments and test runs can share one Redis. */
  readonly prefix: string;
  readonly seenTtlSeconds?: number;
  readonly usageTtlSeconds?: number;
  /** A ServiceCalled event that is not a valid call: skipped (redelivering it would never succeed). */
  readonly onSkip?: (event: StoredEvent, reason: string) => void;
}

/**
 * The cluster's usage counters: consumer group `usage` on the `calls` context. Each event is one Lua script
 * that marks its event id seen (SET NX) and, only if it was new and answered 2xx, adds one to the account's
 * month hash for the slug and the total. Redeliveries (at-least-once bus) therefore count nothing;
 * ClusterUsageReader reads the hashes.
 */
export class RedisUsageProjector {
  private readonly prefix: string;
  private readonly seenTtl: number;
  private readonly usageTtl: number;
  private readonly onSkip: (event: StoredEvent, reason: string) => void;
  private readonly counts = { fresh: 0, repeats: 0, skipped: 0 };

  constructor(
    private readonly redis: Redis,
    options: RedisUsageProjectorOptions,
  ) {
    if (!options.prefix) throw new Error('RedisUsageProjector: a non-empty key prefix is required');
    this.prefix = options.prefix;
    this.seenTtl = positiveSeconds(options.seenTtlSeconds ?? DEFAULT_SEEN_TTL_SECONDS, 'seenTtlSeconds');
    this.usageTtl = positiveSeconds(options.usageTtlSeconds ?? DEFAULT_USAGE_TTL_SECONDS, 'usageTtlSeconds');
    this.onSkip = options.onSkip ?? (() => {});
  }

  /** Subscribes as group `usage` (or `group`) to the `calls` context. */
  subscribe(bus: EventBus, options: { group?: string } = {}): Promise<Subscription> {
    return bus.subscribe({ group: options.group ?? 'usage', contexts: [CALLS_CONTEXT] }, async (e) => {
      await this.apply(e);
    });
  }

  /** True when the event was new (whether or not its status counts); false for a repeat or another type. */
  async apply(event: StoredEvent): Promise<boolean> {
    let call: ServiceCall | null;
    try {
      call = fromEvent(event);
    } catch (err) {
      this.counts.skipped++;
      this.onSkip(event, err instanceof Error ? err.message : 'invalid ServiceCalled');
      return false;
    }
    if (!call) return false;
    const keys = [
      seenKey(this.prefix, call.accountId, call.eventId),
      usageKey(this.prefix, call.accountId, periodOf(call.at)),
    ];
    const args = [this.seenTtl, isCounted(call.status) ? '1' : '0', call.slug, this.usageTtl];
    let reply: unknown;
    try {
      reply = await this.redis.evalsha(COUNT_CALL_SHA, 2, ...keys, ...args);
    } catch (err) {
      // First use on this server (or after SCRIPT FLUSH): EVAL runs the script and caches it for next time.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      reply = await this.redis.eval(COUNT_CALL, 2, ...keys, ...args);
    }
    const fresh = Number(reply) === 1;
    if (fresh) this.counts.fresh++;
    else this.counts.repeats++;
    return fresh;
  }

  /** Calls applied by this instance: new ones, repeats (already seen) and skipped invalid events. */
  stats(): { fresh: number; repeats: number; skipped: number } {
    return { ...this.counts };
  }
}

function positiveSeconds(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer`);
  return value;
}
