import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from './plans.js';
import {
  bucketLeavesAt,
  bucketOf,
  checkMonthUsed,
  checkRequest,
  decide,
  monthPeriod,
  nextMonthStart,
  oldestCountedBucket,
  previousPeriod,
  type RateLimitRequest,
} from './rate-limiter.js';

const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
const req = (now = T0, limits = DEFAULT_PLANS.FREE!): RateLimitRequest => ({
  keyId: 'k1',
  accountId: 'a1',
  limits,
  now,
});

describe('rate-limiter helpers', () => {
  it('names months in UTC and finds the next one', () => {
    expect(monthPeriod(Date.UTC(2030, 0, 31, 23, 59, 59, 999))).toBe('2030-01');
    expect(monthPeriod(Date.UTC(2030, 1, 1))).toBe('2030-02');
    expect(monthPeriod(Date.UTC(2030, 11, 5))).toBe('2030-12');
    expect(nextMonthStart(Date.UTC(2030, 11, 31, 23))).toBe(Date.UTC(2031, 0, 1));
    expect(nextMonthStart(Date.UTC(2030, 1, 1))).toBe(Date.UTC(2030, 2, 1));
    expect(previousPeriod('2030-01')).toBe('2029-12');
    expect(previousPeriod('2030-10')).toBe('2030-09');
  });

  it('counts 1,441 one-minute buckets, so a request leaves the day window at most a minute late', () => {
    const t = T0 + 25_000;
    expect(bucketOf(t)).toBe(T0 / 60_000);
    expect(oldestCountedBucket(t)).toBe(T0 / 60_000 - 1_440);
    const leaves = bucketLeavesAt(bucketOf(t));
    expect(leaves).toBeGreaterThanOrEqual(t + 86_400_000);
    expect(leaves - (t + 86_400_000)).toBeLessThanOrEqual(60_000);
    // Just before it leaves, the bucket is still counted; at that instant it is not.
    expect(oldestCountedBucket(leaves - 1)).toBe(bucketOf(t));
    expect(oldestCountedBucket(leaves)).toBe(bucketOf(t) + 1);
  });

  it('turns an allowed step into headers: remaining after it, reset when the oldest slot frees', () => {
    const d = decide(req(T0 + 500), {
      refusedBy: null,
      inMinute: 4,
      oldestInMinute: T0 + 250,
      oldestDayBucket: null,
      monthUsed: 7,
    });
    expect(d).toEqual({
      allowed: true,
      limit: 10,
      remaining: 6,
      resetAt: Math.ceil((T0 + 60_250) / 1000),
      monthUsed: 7,
    });
  });

  it('reports retry-after per refusing counter, rounded up and at least one second', () => {
    const base = { inMinute: 10, oldestInMinute: T0, oldestDayBucket: null, monthUsed: 3 };
    const minute = decide(req(T0 + 59_999), { ...base, refusedBy: 'minute' });
    expect(minute).toMatchObject({
      allowed: false,
      code: 'RATE_LIMIT_EXCEEDED',
      remaining: 0,
      retryAfterSeconds: 1,
    });
    expect(decide(req(T0 + 20_000), { ...base, refusedBy: 'minute' }).retryAfterSeconds).toBe(40);

    const day = decide(req(T0 + 60_000), {
      ...base,
      inMinute: 2,
      refusedBy: 'day',
      oldestDayBucket: bucketOf(T0),
    });
    expect(day).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', remaining: 8, retryAfterSeconds: 86_400 });

    const quota = decide(req(Date.UTC(2030, 0, 31, 23, 59, 59, 1)), {
      ...base,
      inMinute: 0,
      oldestInMinute: null,
      refusedBy: 'quota',
    });
    expect(quota).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      remaining: 10,
      retryAfterSeconds: 1,
      monthUsed: 3,
    });
    expect(quota.resetAt).toBe(Math.ceil(Date.UTC(2030, 0, 31, 23, 59, 59, 1) / 1000));
  });

  it('never reports negative remaining when a lowered limit leaves more entries than it allows', () => {
    const d = decide(req(), {
      refusedBy: 'minute',
      inMinute: 25,
      oldestInMinute: T0,
      oldestDayBucket: null,
      monthUsed: 0,
    });
    expect(d.remaining).toBe(0);
  });

  it('refuses malformed requests and loaded usage', () => {
    expect(() => checkRequest(req())).not.toThrow();
    expect(() => checkRequest({ ...req(), keyId: '' })).toThrow(RangeError);
    expect(() => checkRequest({ ...req(), accountId: '' })).toThrow(/accountId/);
    expect(() => checkRequest({ ...req(), now: Number.NaN })).toThrow(/now/);
    expect(() => checkRequest({ ...req(), now: 1.5 })).toThrow(/now/);
    expect(() => checkRequest(req(T0, { ...DEFAULT_PLANS.FREE!, perMinute: 0 }))).toThrow(/perMinute/);
    expect(() => checkRequest(req(T0, { ...DEFAULT_PLANS.FREE!, perMonth: Infinity }))).toThrow(/perMonth/);
    expect(checkMonthUsed(12, 'a', '2030-01')).toBe(12);
    expect(() => checkMonthUsed(-1, 'a', '2030-01')).toThrow(/loadMonthUsed\(a, 2030-01\) returned -1/);
    expect(() => checkMonthUsed('3', 'a', '2030-01')).toThrow(/not a non-negative integer/);
  });
});
