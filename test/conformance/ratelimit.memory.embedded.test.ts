import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../core/ratelimit/memory-rate-limiter.js';
import { DEFAULT_PLANS } from '../../core/ratelimit/plans.js';
import { describeRateLimiterContract } from './ratelimit.contract.js';

describeRateLimiterContract('memory', async (options) => {
  const limiter = new MemoryRateLimiter(options);
  return { limiter, cleanup: () => limiter.close() };
});

describe('MemoryRateLimiter specifics', () => {
  const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
  const FREE = DEFAULT_PLANS.FREE!;

  it('drops keys whose windows emptied and quota counters of past months', async () => {
    const limiter = new MemoryRateLimiter({ sweepIntervalMs: 60_000 });
    for (let i = 0; i < 100; i++) {
      await limiter.consume({ keyId: `k${i}`, accountId: `a${i % 10}`, limits: FREE, now: T0 });
    }
    expect(limiter.size).toEqual({ keys: 100, quotas: 10 });
    // A day later the windows still count the T0 requests (the day window is up to a minute stricter).
    await limiter.consume({ keyId: 'other', accountId: 'b', limits: FREE, now: T0 + 86_400_000 });
    expect(limiter.size.keys).toBe(101);
    // Past the day window, one consume sweeps the idle keys; this month's counters stay.
    await limiter.consume({ keyId: 'other', accountId: 'b', limits: FREE, now: T0 + 86_400_000 + 120_000 });
    expect(limiter.size).toEqual({ keys: 1, quotas: 11 });
    // Two months on, January's counters go; February's (none) and March's stay.
    await limiter.consume({ keyId: 'other', accountId: 'b', limits: FREE, now: Date.UTC(2030, 2, 2) });
    expect(limiter.size).toEqual({ keys: 1, quotas: 1 });
    await limiter.close();
  });

  it('refuses calls after close()', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.close();
    await expect(limiter.consume({ keyId: 'k', accountId: 'a', limits: FREE, now: T0 })).rejects.toThrow(
      /closed/,
    );
  });
});
