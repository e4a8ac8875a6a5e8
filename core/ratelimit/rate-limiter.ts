import type { PlanLimits } from './plans.js';

/*
 * The rate-limit port (DESIGN.md sections 4 and 7, "Counting"). Adapters: memory (embedded), Redis (cluster);
 * one contract suite (test/conformance/ratelimit.contract.ts) runs against both.
 *
 * Three counters per call, checked in this order and reported by the first that refuses:
 *
 * - Minute window, per API key: an exact sliding log of the timestamps of allowed requests (at most perMinute
 *   entries per key). A slot taken at t is free again at exactly t + 60 s.
 * - Day window, per API key: an exact log could hold a million entries per key (ENTERPRISE), so requests are
 *   counted in one-minute buckets (bucket = floor(t / 60 s)). At time `now` the window counts the current
 *   bucket and the 1,440 before it, i.e. 1,441 buckets: every request of the last 24 hours is counted, plus
 *   those of up to one minute before that. The window is therefore never lenient and at most one minute
 *   stricter than an exact 24-hour log: a request frees its day slot at the start of the minute after its 24
 *   hours have passed. Memory is bounded by 1,441 counters per key.
 * - Month quota, per account: one counter per calendar month (UTC, `YYYY-MM`). It counts calls answered 2xx,
 *   so consume() reserves a unit and release() gives it back when the call did not end 2xx.
 *
 * A refused request occupies nothing (no window slot, no quota unit). Window slots of allowed requests are
 * never given back: the windows count every request that passed authentication and was allowed.
 *
 * Time is the caller's `now` (ms since the epoch), never the server's, so tests can drive the clock and all
 * gateways agree on what a window holds as long as their clocks do.
 */

export interface RateLimitRequest {
  /** The minute and day windows are per API key. */
  readonly keyId: string;
  /** The monthly quota is per account (calendar month, UTC). */
  readonly accountId: string;
  readonly limits: PlanLimits;
  /** ms since the epoch (injectable clock for tests). */
  readonly now: number;
}

export type RateLimitCode = 'RATE_LIMIT_EXCEEDED' | 'QUOTA_EXCEEDED';

export interface RateDecision {
  readonly allowed: boolean;
  readonly code?: RateLimitCode;
  /** perMinute: X-RateLimit-Limit. */
  readonly limit: number;
  /** Slots left in the minute window after this request: X-RateLimit-Remaining. */
  readonly remaining: number;
  /**
   * Unix seconds (rounded up) when the minute window next frees a slot: X-RateLimit-Reset. With nothing in
   * the window (possible only on a day or quota refusal) there is nothing to wait for, and it is `now`
   * rounded up.
   */
  readonly resetAt: number;
  /**
   * Only when refused: for a window, seconds until a slot frees (at least 1); for the quota, seconds until
   * the next calendar month (UTC) starts. Rounded up, so a client that waits this long is not refused for the
   * same reason.
   */
  readonly retryAfterSeconds?: number;
  /** Quota units used in the month, including this request's reservation when it was allowed. */
  readonly monthUsed: number;
}

export interface RateLimiter {
  /**
   * One atomic step: checks the minute and day sliding windows of the key and the account's month quota; when
   * all allow, occupies a slot in both windows and reserves one quota unit. A refused request occupies
   * nothing.
   */
  consume(req: RateLimitRequest): Promise<RateDecision>;
  /**
   * Gives back the quota unit of an allowed request that did not end 2xx (the quota counts 2xx calls only;
   * window slots are NOT given back). Pass the `now` of the consume() it undoes, so the unit returns to that
   * request's month. Never takes the counter below zero.
   */
  release(accountId: string, now: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads what an account used in a month from durable usage (the metering read model), to seed the quota
 * counter after a restart or when the hot counter was lost. `period` is `YYYY-MM` (UTC).
 */
export type LoadMonthUsed = (accountId: string, period: string) => Promise<number>;

export const MINUTE_MS = 60_000;
/** Day-window bucket width; see the header. */
export const BUCKET_MS = 60_000;
/** Buckets before the current one that the day window still counts (1,441 buckets in all). */
export const DAY_BUCKETS_BACK = 1_440;

/** Index of the day-window bucket holding time `now`. */
export const bucketOf = (now: number): number => Math.floor(now / BUCKET_MS);

/** Lowest bucket the day window counts at time `now`; older buckets are dropped. */
export const oldestCountedBucket = (now: number): number => bucketOf(now) - DAY_BUCKETS_BACK;

/** When the requests counted in `bucket` leave the day window. */
export const bucketLeavesAt = (bucket: number): number => (bucket + DAY_BUCKETS_BACK + 1) * BUCKET_MS;

/** `YYYY-MM` of `now` in UTC: the quota period. */
export function monthPeriod(now: number): string {
  const d = new Date(now);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The `YYYY-MM` before `period`. */
export function previousPeriod(period: string): string {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return monthPeriod(Date.UTC(year, month - 2, 1));
}

/** Start (ms) of the calendar month (UTC) after the one holding `now`. */
export function nextMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Refuses what every adapter must refuse alike: a bad limit could otherwise mean "unlimited" in one. */
export function checkRequest(req: RateLimitRequest): void {
  if (typeof req.keyId !== 'string' || req.keyId === '') throw new RangeError('ratelimit: keyId is required');
  if (typeof req.accountId !== 'string' || req.accountId === '') {
    throw new RangeError('ratelimit: accountId is required');
  }
  checkNow(req.now);
  for (const field of ['perMinute', 'perDay', 'perMonth'] as const) {
    const v = req.limits[field];
    if (!Number.isSafeInteger(v) || v <= 0) {
      throw new RangeError(`ratelimit: limits.${field} must be a positive integer, got ${v}`);
    }
  }
}

export function checkNow(now: number): void {
  if (!Number.isSafeInteger(now) || now < 0) {
    throw new RangeError(`ratelimit: now must be a non-negative integer of ms since the epoch, got ${now}`);
  }
}

/** A loaded month usage must be a count; anything else would corrupt the counter for a whole month. */
export function checkMonthUsed(value: unknown, accountId: string, period: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new Error(
      `ratelimit: loadMonthUsed(${accountId}, ${period}) returned ${String(value)}, ` +
        'not a non-negative integer',
    );
  }
  return value as number;
}

/** What an adapter's atomic step observed; decide() turns it into the decision both adapters return. */
export interface StepOutcome {
  readonly refusedBy: 'minute' | 'day' | 'quota' | null;
  /** Entries in the minute window after the step. */
  readonly inMinute: number;
  /** Timestamp of the oldest entry left in the minute window, null when it is empty. */
  readonly oldestInMinute: number | null;
  /** Lowest non-empty day bucket; needed only when the day window refused. */
  readonly oldestDayBucket: number | null;
  readonly monthUsed: number;
}

const ceilSeconds = (ms: number): number => Math.ceil(ms / 1000);

export function decide(req: RateLimitRequest, step: StepOutcome): RateDecision {
  const { now, limits } = req;
  const limit = limits.perMinute;
  const remaining = Math.max(0, limit - step.inMinute);
  const resetAt = ceilSeconds(step.oldestInMinute === null ? now : step.oldestInMinute + MINUTE_MS);
  const base = { limit, remaining, resetAt, monthUsed: step.monthUsed };
  switch (step.refusedBy) {
    case null:
      return { allowed: true, ...base };
    case 'minute': {
      const freesAt = (step.oldestInMinute ?? now) + MINUTE_MS;
      return refused(base, 'RATE_LIMIT_EXCEEDED', freesAt - now);
    }
    case 'day': {
      const freesAt = step.oldestDayBucket === null ? now : bucketLeavesAt(step.oldestDayBucket);
      return refused(base, 'RATE_LIMIT_EXCEEDED', freesAt - now);
    }
    case 'quota':
      return refused(base, 'QUOTA_EXCEEDED', nextMonthStart(now) - now);
  }
}

function refused(base: Omit<RateDecision, 'allowed'>, code: RateLimitCode, waitMs: number): RateDecision {
  return { allowed: false, code, ...base, retryAfterSeconds: Math.max(1, ceilSeconds(waitMs)) };
}
