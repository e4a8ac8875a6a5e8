import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, type PlanLimits } from '../../core/ratelimit/plans.js';
import type {
  LoadMonthUsed,
  RateDecision,
  RateLimiter,
  RateLimitRequest,
} from '../../core/ratelimit/rate-limiter.js';

export interface RateLimiterFixture {
  limiter: RateLimiter;
  cleanup(): Promise<void>;
}

export interface RateLimiterFactoryOptions {
  loadMonthUsed?: LoadMonthUsed;
}

/** A fresh limiter over empty state for each call. */
export type RateLimiterFactory = (options?: RateLimiterFactoryOptions) => Promise<RateLimiterFixture>;

const FREE = DEFAULT_PLANS.FREE!;
/** A whole minute, mid-month: T0's bucket starts at T0, which keeps the day-window arithmetic readable. */
const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
const SECOND = 1_000;
const MINUTE = 60_000;
const DAY = 86_400_000;

const limits = (l: Partial<PlanLimits>): PlanLimits => ({ ...FREE, ...l });
const seconds = (ms: number): number => Math.ceil(ms / 1000);
const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The RateLimiter contract (core/ratelimit/rate-limiter.ts), run against every adapter. The clock is the
 * request's `now`, driven by the tests, so windows and months are crossed without waiting.
 */
export function describeRateLimiterContract(name: string, factory: RateLimiterFactory): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const fixtures: RateLimiterFixture[] = [];

    const make = async (options?: RateLimiterFactoryOptions): Promise<RateLimiter> => {
      const fixture = await factory(options);
      fixtures.push(fixture);
      return fixture.limiter;
    };

    afterEach(async () => {
      for (const fixture of fixtures.splice(0)) await fixture.cleanup();
    });

    /** consume() with defaults: key k1 of account a1 on FREE at T0. */
    const consumer =
      (limiter: RateLimiter) =>
      (r: Partial<RateLimitRequest> = {}): Promise<RateDecision> =>
        limiter.consume({ keyId: 'k1', accountId: 'a1', limits: FREE, now: T0, ...r });

    it('allows exactly perMinute, then refuses with RATE_LIMIT_EXCEEDED and reserves nothing', async () => {
      const consume = consumer(await make());
      for (let i = 0; i < 10; i++) {
        const d = await consume({ now: T0 + i * 100 });
        expect(d).toEqual({
          allowed: true,
          limit: 10,
          remaining: 9 - i,
          resetAt: seconds(T0 + MINUTE),
          monthUsed: i + 1,
        });
      }
      for (const now of [T0 + SECOND, T0 + 30 * SECOND]) {
        const d = await consume({ now });
        expect(d).toMatchObject({ allowed: false, code: 'RATE_LIMIT_EXCEEDED', remaining: 0, monthUsed: 10 });
      }
      // The refused requests took no quota unit: the next allowed one is the 11th.
      expect(await consume({ now: T0 + MINUTE })).toMatchObject({ allowed: true, monthUsed: 11 });
    });

    it('lets exactly 10 of 50 concurrent requests on a FREE key through', async () => {
      const consume = consumer(await make());
      const decisions = await Promise.all(Array.from({ length: 50 }, () => consume()));
      const allowed = decisions.filter((d) => d.allowed);
      const refused = decisions.filter((d) => !d.allowed);
      expect(allowed).toHaveLength(10);
      expect(refused).toHaveLength(40);
      expect(new Set(refused.map((d) => d.code))).toEqual(new Set(['RATE_LIMIT_EXCEEDED']));
      // Each allowed request saw its own step: remaining and month usage are all distinct.
      expect(sorted(allowed.map((d) => d.remaining))).toEqual(range(0, 9));
      expect(sorted(allowed.map((d) => d.monthUsed))).toEqual(range(1, 10));
      expect(refused.every((d) => d.monthUsed === 10 && d.remaining === 0)).toBe(true);
    });

    it('slides: each slot frees exactly 60 s after it was taken, and the headers say when', async () => {
      const consume = consumer(await make());
      const l = limits({ perMinute: 3 });
      const at = (ms: number) => consume({ limits: l, now: T0 + ms });
      const reset0 = seconds(T0 + MINUTE);

      expect(await at(0)).toEqual({ allowed: true, limit: 3, remaining: 2, resetAt: reset0, monthUsed: 1 });
      expect(await at(10 * SECOND)).toMatchObject({ allowed: true, remaining: 1, resetAt: reset0 });
      expect(await at(20 * SECOND)).toMatchObject({ allowed: true, remaining: 0, resetAt: reset0 });
      expect(await at(30 * SECOND)).toEqual({
        allowed: false,
        code: 'RATE_LIMIT_EXCEEDED',
        limit: 3,
        remaining: 0,
        resetAt: reset0,
        retryAfterSeconds: 30,
        monthUsed: 3,
      });
      // One millisecond before the first slot frees: still refused, and Retry-After rounds up to 1.
      expect(await at(MINUTE - 1)).toMatchObject({ allowed: false, retryAfterSeconds: 1, resetAt: reset0 });
      // At exactly 60 s one slot is back (a fixed window would have freed all three).
      expect(await at(MINUTE)).toMatchObject({
        allowed: true,
        remaining: 0,
        resetAt: seconds(T0 + 70 * SECOND),
      });
      expect(await at(MINUTE)).toMatchObject({ allowed: false, retryAfterSeconds: 10 });
      // At 80 s the slots of 10 s and 20 s are free; the one taken at 60 s is still held.
      expect(await at(80 * SECOND)).toMatchObject({
        allowed: true,
        remaining: 1,
        resetAt: seconds(T0 + 120 * SECOND),
      });
      // A slot taken off a whole second frees at a fractional second: Reset rounds up.
      const consumeK2 = (ms: number) => consume({ keyId: 'k2', limits: l, now: T0 + ms });
      expect(await consumeK2(500)).toMatchObject({ allowed: true, resetAt: seconds(T0) + 61 });
    });

    it('lets sustained traffic through at exactly perMinute per minute', async () => {
      const consume = consumer(await make());
      const l = limits({ perMinute: 5, perDay: 10_000, perMonth: 100_000 });
      let allowed = 0;
      // One request a second for an hour: a sliding window admits seconds 0-4 of every minute.
      for (let s = 0; s < 3_600; s++) {
        const d = await consume({ limits: l, now: T0 + s * SECOND });
        if (d.allowed !== s % 60 < 5) throw new Error(`second ${s}: allowed ${d.allowed}`);
        if (d.allowed) allowed += 1;
      }
      expect(allowed).toBe(5 * 60);
    });

    it('gives two keys of one account separate windows but one shared month quota', async () => {
      const consume = consumer(await make());
      const l = limits({ perMinute: 10, perMonth: 15 });
      for (let i = 1; i <= 10; i++) {
        expect(await consume({ keyId: 'kA', limits: l })).toMatchObject({ allowed: true, monthUsed: i });
      }
      expect(await consume({ keyId: 'kA', limits: l })).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
      for (let i = 1; i <= 5; i++) {
        const d = await consume({ keyId: 'kB', limits: l });
        expect(d).toMatchObject({ allowed: true, remaining: 10 - i, monthUsed: 10 + i });
      }
      expect(await consume({ keyId: 'kB', limits: l })).toMatchObject({
        allowed: false,
        code: 'QUOTA_EXCEEDED',
        remaining: 5,
        monthUsed: 15,
      });
      // Another account's quota is its own.
      expect(await consume({ keyId: 'kC', accountId: 'a2', limits: l })).toMatchObject({
        allowed: true,
        monthUsed: 1,
      });
    });

    it('refuses after perDay requests over several minutes, never before 24 h have passed', async () => {
      const consume = consumer(await make());
      const l = limits({ perMinute: 5, perDay: 7, perMonth: 1_000 });
      const at = (ms: number) => consume({ limits: l, now: T0 + ms });
      // Mid-minute, so a scheme that drops a whole bucket too early would show.
      const first = 30 * SECOND;
      for (let i = 0; i < 3; i++) expect(await at(first)).toMatchObject({ allowed: true });
      for (let i = 0; i < 2; i++) expect(await at(2 * MINUTE)).toMatchObject({ allowed: true });
      expect(await at(5 * MINUTE)).toMatchObject({ allowed: true, remaining: 4 });
      expect(await at(5 * MINUTE)).toMatchObject({ allowed: true, remaining: 3, monthUsed: 7 });

      // The minute window is empty again, so this refusal is the day window's.
      const refused = await at(7 * MINUTE);
      expect(refused).toMatchObject({
        allowed: false,
        code: 'RATE_LIMIT_EXCEEDED',
        limit: 5,
        remaining: 5,
        resetAt: seconds(T0 + 7 * MINUTE),
        monthUsed: 7,
      });
      // The first requests leave an exact 24 h window at first + 24 h; the adapter may be up to a minute
      // stricter.
      const exact = (first + DAY - 7 * MINUTE) / 1000;
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(exact);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(exact + 60);

      expect(await at(12 * 3_600_000)).toMatchObject({ allowed: false, code: 'RATE_LIMIT_EXCEEDED' });
      expect(await at(first + DAY - 1)).toMatchObject({ allowed: false, code: 'RATE_LIMIT_EXCEEDED' });
      // A minute past their 24 h the first three slots are back in any scheme; the refused requests held
      // none.
      for (let i = 0; i < 3; i++) expect(await at(first + DAY + MINUTE)).toMatchObject({ allowed: true });
      expect(await at(first + DAY + MINUTE)).toMatchObject({
        allowed: false,
        code: 'RATE_LIMIT_EXCEEDED',
        remaining: 2,
        monthUsed: 10,
      });
    });

    it('reports the first counter that refuses: minute, then day, then quota', async () => {
      const consume = consumer(await make());
      // Minute window and quota both full: the minute window answers, with its own Retry-After.
      const minuteAndQuota = limits({ perMinute: 2, perDay: 10, perMonth: 2 });
      for (let i = 0; i < 2; i++) await consume({ keyId: 'k1', accountId: 'a1', limits: minuteAndQuota });
      expect(await consume({ keyId: 'k1', accountId: 'a1', limits: minuteAndQuota })).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
        retryAfterSeconds: 60,
      });
      // Day window and quota both full, minute window open: the day window answers.
      const dayAndQuota = limits({ perMinute: 5, perDay: 3, perMonth: 3 });
      for (let i = 0; i < 3; i++) await consume({ keyId: 'k2', accountId: 'a2', limits: dayAndQuota });
      const day = await consume({ keyId: 'k2', accountId: 'a2', limits: dayAndQuota, now: T0 + MINUTE });
      expect(day).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', remaining: 5 });
      expect(day.retryAfterSeconds).toBeGreaterThanOrEqual((DAY - MINUTE) / 1000);
    });

    it('refuses over the quota with QUOTA_EXCEEDED, Retry-After until the next UTC month', async () => {
      const consume = consumer(await make());
      const l = limits({ perMinute: 10, perMonth: 3 });
      const now = Date.UTC(2030, 0, 31, 22, 0, 0, 250);
      for (let i = 1; i <= 3; i++) {
        expect(await consume({ limits: l, now })).toMatchObject({ allowed: true, monthUsed: i });
      }
      const refused = await consume({ limits: l, now });
      expect(refused).toEqual({
        allowed: false,
        code: 'QUOTA_EXCEEDED',
        limit: 10,
        remaining: 7,
        resetAt: seconds(now + MINUTE),
        retryAfterSeconds: seconds(Date.UTC(2030, 1, 1) - now),
        monthUsed: 3,
      });
      expect(refused.retryAfterSeconds).toBe(2 * 3_600);
      // Refusals by the quota occupy no window slot either.
      expect(await consume({ limits: l, now: now + 1 })).toMatchObject({
        code: 'QUOTA_EXCEEDED',
        remaining: 7,
      });
    });

    it('release() gives back a quota unit but not the window slot, and never goes below zero', async () => {
      const limiter = await make();
      const consume = consumer(limiter);
      const l = limits({ perMinute: 2, perMonth: 2 });
      expect(await consume({ limits: l })).toMatchObject({ allowed: true, monthUsed: 1 });
      expect(await consume({ limits: l })).toMatchObject({ allowed: true, monthUsed: 2 });
      await limiter.release('a1', T0);
      // The quota has room again, but both window slots are still taken.
      expect(await consume({ limits: l, now: T0 + SECOND })).toMatchObject({
        allowed: false,
        code: 'RATE_LIMIT_EXCEEDED',
        monthUsed: 1,
      });
      expect(await consume({ limits: l, now: T0 + MINUTE })).toMatchObject({
        allowed: true,
        remaining: 1,
        monthUsed: 2,
      });
      expect(await consume({ limits: l, now: T0 + MINUTE })).toMatchObject({
        allowed: false,
        code: 'QUOTA_EXCEEDED',
      });

      for (let i = 0; i < 3; i++) await limiter.release('a1', T0 + MINUTE);
      await limiter.release('a-unused', T0);
      expect(await consume({ limits: l, now: T0 + 2 * MINUTE })).toMatchObject({
        allowed: true,
        monthUsed: 1,
      });
      expect(await consume({ keyId: 'k9', accountId: 'a-unused', now: T0 })).toMatchObject({ monthUsed: 1 });
    });

    it('starts a new quota with the new UTC month; releases go to the month of their request', async () => {
      const limiter = await make();
      const consume = consumer(limiter);
      const l = limits({ perMinute: 10, perMonth: 2 });
      const jan = Date.UTC(2030, 0, 31, 23, 59, 0);
      const feb = Date.UTC(2030, 1, 1);
      expect(await consume({ limits: l, now: jan })).toMatchObject({ allowed: true, monthUsed: 1 });
      expect(await consume({ limits: l, now: jan })).toMatchObject({ allowed: true, monthUsed: 2 });
      expect(await consume({ limits: l, now: feb - 1 })).toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect(await consume({ limits: l, now: feb })).toMatchObject({ allowed: true, monthUsed: 1 });
      // Undoing a January request leaves February's count alone.
      await limiter.release('a1', jan);
      expect(await consume({ limits: l, now: feb + SECOND })).toMatchObject({ allowed: true, monthUsed: 2 });
      expect(await consume({ limits: l, now: feb + SECOND })).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    });

    it('seeds each account and month once from loadMonthUsed; concurrent first calls share it', async () => {
      const calls: string[] = [];
      const loadMonthUsed: LoadMonthUsed = async (accountId, period) => {
        calls.push(`${accountId} ${period}`);
        await sleep(20);
        return accountId === 'a1' && period === '2030-01' ? 997 : 5;
      };
      const consume = consumer(await make({ loadMonthUsed }));

      const first = await Promise.all(Array.from({ length: 5 }, () => consume()));
      expect(calls).toEqual(['a1 2030-01']);
      expect(sorted(first.filter((d) => d.allowed).map((d) => d.monthUsed))).toEqual([998, 999, 1_000]);
      expect(first.filter((d) => d.code === 'QUOTA_EXCEEDED')).toHaveLength(2);

      expect(await consume({ keyId: 'k2', now: T0 + SECOND })).toMatchObject({
        code: 'QUOTA_EXCEEDED',
        monthUsed: 1_000,
      });
      expect(calls).toHaveLength(1);

      expect(await consume({ keyId: 'k3', accountId: 'a2' })).toMatchObject({ allowed: true, monthUsed: 6 });
      expect(await consume({ keyId: 'k3', accountId: 'a2' })).toMatchObject({ allowed: true, monthUsed: 7 });
      expect(await consume({ now: Date.UTC(2030, 1, 3) })).toMatchObject({ allowed: true, monthUsed: 6 });
      expect(calls).toEqual(['a1 2030-01', 'a2 2030-01', 'a1 2030-02']);
    });

    it('lets a consume whose seeding failed fail, and loads again on the next call', async () => {
      let calls = 0;
      const loadMonthUsed: LoadMonthUsed = async () => {
        calls += 1;
        if (calls === 1) throw new Error('usage store unavailable');
        return 40;
      };
      const consume = consumer(await make({ loadMonthUsed }));
      await expect(consume()).rejects.toThrow('usage store unavailable');
      expect(await consume()).toMatchObject({ allowed: true, monthUsed: 41 });
      expect(await consume()).toMatchObject({ allowed: true, monthUsed: 42 });
      expect(calls).toBe(2);
    });

    it('keeps the quota exact under 1,000 concurrent requests from several keys', async () => {
      const consume = consumer(await make());
      const l = limits({ perMinute: 2_000, perDay: 10_000, perMonth: 600 });
      const decisions = await Promise.all(
        Array.from({ length: 1_000 }, (_, i) => consume({ keyId: `k${i % 4}`, limits: l })),
      );
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).toHaveLength(600);
      expect(decisions.filter((d) => d.code === 'QUOTA_EXCEEDED')).toHaveLength(400);
      expect(sorted(allowed.map((d) => d.monthUsed))).toEqual(range(1, 600));
    });

    it('refuses malformed requests instead of treating them as unlimited', async () => {
      const consume = consumer(await make());
      await expect(consume({ limits: limits({ perMinute: 0 }) })).rejects.toThrow(RangeError);
      await expect(consume({ limits: limits({ perMonth: Number.NaN }) })).rejects.toThrow(RangeError);
      await expect(consume({ keyId: '' })).rejects.toThrow(RangeError);
      await expect(consume({ now: Number.NaN })).rejects.toThrow(RangeError);
      expect(await consume()).toMatchObject({ allowed: true, monthUsed: 1 });
    });
  });
}
