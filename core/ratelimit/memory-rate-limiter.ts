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

/** The windows of one API key. All arrays ascend. */
interface KeyWindows {
  /** Timestamps of the allowed requests of the last minute (at most perMinute of them). */
  readonly minute: number[];
  /** Non-empty day buckets and their counts (parallel arrays, at most 1,441 entries). */
  readonly buckets: number[];
  readonly counts: number[];
  dayTotal: number;
}

export interface MemoryRateLimiterOptions {
  /** Seeds an account's quota counter once per month from durable usage (see LoadMonthUsed). */
  loadMonthUsed?: LoadMonthUsed;
  /** How often, at most (in request time), a consume() scans for keys and months nobody uses any more. */
  sweepIntervalMs?: number;
}

/**
 * Single-process rate limiter for the embedded profile and tests (semantics: rate-limiter.ts).
 *
 * Atomicity: the check-and-occupy step of consume() is synchronous, and JavaScript runs one step at a time,
 * so concurrent calls cannot interleave inside it. The only await (seeding the quota from loadMonthUsed)
 * comes before the step, and all calls for one account and month share one load.
 *
 * Memory: each step prunes its key's windows; a sweep, due at most once per interval, drops keys whose
 * windows are empty and quota counters of past months, so memory is bounded by the keys active in the last
 * day plus the accounts active this month and the month before.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, KeyWindows>();
  /** `YYYY-MM` + accountId (the period has a fixed length, so the key is unambiguous) → units used. */
  private readonly quota = new Map<string, number>();
  private readonly loads = new Map<string, Promise<void>>();
  private readonly loadMonthUsed: LoadMonthUsed | undefined;
  private readonly sweepIntervalMs: number;
  private lastSweep = Number.NEGATIVE_INFINITY;
  private closed = false;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.loadMonthUsed = options.loadMonthUsed;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  }

  /** Keys with window state and quota counters held, for tests and metrics. */
  get size(): { keys: number; quotas: number } {
    return { keys: this.windows.size, quotas: this.quota.size };
  }

  async consume(req: RateLimitRequest): Promise<RateDecision> {
    this.checkOpen();
    checkRequest(req);
    const period = monthPeriod(req.now);
    const quotaKey = period + req.accountId;
    if (this.loadMonthUsed && !this.quota.has(quotaKey)) {
      await this.seed(req.accountId, period, quotaKey, this.loadMonthUsed);
      this.checkOpen();
    }
    // From here to the return, nothing awaits: this is the atomic step.
    this.sweepIfDue(req.now, period);
    return decide(req, this.step(req, quotaKey));
  }

  async release(accountId: string, now: number): Promise<void> {
    this.checkOpen();
    checkNow(now);
    const quotaKey = monthPeriod(now) + accountId;
    const used = this.quota.get(quotaKey);
    // Absent: nothing was reserved this month (or the month was swept); never below zero.
    if (used !== undefined && used > 0) this.quota.set(quotaKey, used - 1);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.windows.clear();
    this.quota.clear();
    this.loads.clear();
  }

  private step(req: RateLimitRequest, quotaKey: string): StepOutcome {
    const { now, limits } = req;
    const w = this.windowsOf(req.keyId, now);
    const used = this.quota.get(quotaKey) ?? 0;
    const observed = (refusedBy: StepOutcome['refusedBy'], monthUsed: number): StepOutcome => ({
      refusedBy,
      inMinute: w.minute.length,
      oldestInMinute: w.minute[0] ?? null,
      oldestDayBucket: w.buckets[0] ?? null,
      monthUsed,
    });

    if (w.minute.length >= limits.perMinute) return observed('minute', used);
    if (w.dayTotal >= limits.perDay) return observed('day', used);
    if (used >= limits.perMonth) return observed('quota', used);

    insertSorted(w.minute, now);
    const bucket = bucketOf(now);
    const at = lowerBound(w.buckets, bucket);
    if (w.buckets[at] === bucket) w.counts[at]! += 1;
    else {
      w.buckets.splice(at, 0, bucket);
      w.counts.splice(at, 0, 1);
    }
    w.dayTotal += 1;
    this.quota.set(quotaKey, used + 1);
    return observed(null, used + 1);
  }

  /** The key's windows with everything that left them by `now` removed. */
  private windowsOf(keyId: string, now: number): KeyWindows {
    let w = this.windows.get(keyId);
    if (!w) {
      w = { minute: [], buckets: [], counts: [], dayTotal: 0 };
      this.windows.set(keyId, w);
      return w;
    }
    prune(w, now);
    return w;
  }

  private seed(accountId: string, period: string, quotaKey: string, load: LoadMonthUsed): Promise<void> {
    let pending = this.loads.get(quotaKey);
    if (!pending) {
      pending = (async () => {
        const used = checkMonthUsed(await load(accountId, period), accountId, period);
        if (!this.quota.has(quotaKey)) this.quota.set(quotaKey, used);
      })().finally(() => {
        // Settled: success leaves the counter in place; a failure lets the next call try the load again.
        this.loads.delete(quotaKey);
      });
      this.loads.set(quotaKey, pending);
    }
    return pending;
  }

  private sweepIfDue(now: number, period: string): void {
    if (now - this.lastSweep < this.sweepIntervalMs) return;
    this.lastSweep = now;
    for (const [keyId, w] of this.windows) {
      prune(w, now);
      if (w.minute.length === 0 && w.dayTotal === 0) this.windows.delete(keyId);
    }
    // The previous month is kept, so a request stamped just before midnight but stepped just after still
    // finds its month's counter. Periods are `YYYY-MM`: string order is month order.
    const keepFrom = previousPeriod(period);
    for (const quotaKey of this.quota.keys()) {
      if (quotaKey.slice(0, period.length) < keepFrom) this.quota.delete(quotaKey);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('ratelimit: the limiter is closed');
  }
}

function prune(w: KeyWindows, now: number): void {
  // A slot taken at t is counted while t > now - 60 s, i.e. it is free again at exactly t + 60 s.
  const minuteCut = upperBound(w.minute, now - MINUTE_MS);
  if (minuteCut > 0) w.minute.splice(0, minuteCut);
  const dayCut = lowerBound(w.buckets, oldestCountedBucket(now));
  if (dayCut > 0) {
    for (let i = 0; i < dayCut; i++) w.dayTotal -= w.counts[i]!;
    w.buckets.splice(0, dayCut);
    w.counts.splice(0, dayCut);
  }
}

/** Inserts keeping ascending order; appending is the common case (clocks move forward). */
function insertSorted(xs: number[], x: number): void {
  const last = xs[xs.length - 1];
  if (last === undefined || x >= last) xs.push(x);
  else xs.splice(upperBound(xs, x), 0, x);
}

/** First index whose value is >= x. */
function lowerBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > x. */
function upperBound(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
