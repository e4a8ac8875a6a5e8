import { describe, expect, it } from 'vitest';
import { MemoryKvStore } from '../../core/kv/memory-kv.js';
import { LoginThrottle, type LoginThrottleOptions } from './login-throttle.js';

const WINDOW = 15 * 60_000;

function setup(options: LoginThrottleOptions = {}) {
  let clock = 1_700_000_000_000;
  const kv = new MemoryKvStore({ now: () => clock });
  const waits: number[] = [];
  const throttle = new LoginThrottle(kv, {
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return {
    kv,
    throttle,
    waits,
    advance: (ms: number) => {
      clock += ms;
    },
    fail: async (login: string, ip = '203.0.113.7') => (await throttle.begin(login, ip)).failed(),
    succeed: async (login: string, ip = '203.0.113.7') => (await throttle.begin(login, ip)).succeeded(),
  };
}

describe('login throttle', () => {
  it('lets the first attempts through at once, then slows each further one, doubling up to 2 s', async () => {
    const t = setup();
    for (let i = 0; i < 9; i++) await t.fail('ada');
    // Attempts 1-3 follow 0, 1, 2 failures; from the 3rd failure on, each attempt waits.
    expect(t.waits).toEqual([250, 500, 1000, 2000, 2000, 2000]);
    expect(t.throttle.delayAfter(2)).toBe(0);
    expect(t.throttle.delayAfter(3)).toBe(250);
    expect(t.throttle.delayAfter(100)).toBe(2000);
  });

  it('refuses a login after 10 failures in the window, saying when to retry, until the window ends', async () => {
    const t = setup();
    for (let i = 0; i < 10; i++) await t.fail('ada');
    t.advance(60_000);
    const err = await t.throttle.begin('ada', '198.51.100.1').catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      status: 429,
      details: { retryAfterSeconds: (WINDOW - 60_000) / 1000 },
    });
    // Any case, any address: it is the login that is protected.
    await expect(t.throttle.begin('ADA', '192.0.2.1')).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    // Other logins are not affected.
    await expect(t.succeed('grace')).resolves.toBeUndefined();

    t.advance(WINDOW - 60_000);
    await expect(t.succeed('ada')).resolves.toBeUndefined();
  });

  it("forgets a login's failures on success", async () => {
    const t = setup();
    for (let i = 0; i < 9; i++) await t.fail('ada');
    await t.succeed('ada');
    t.waits.length = 0;
    for (let i = 0; i < 3; i++) await t.fail('ada');
    expect(t.waits).toEqual([]);
    for (let i = 0; i < 7; i++) await t.fail('ada');
    await expect(t.throttle.begin('ada', '203.0.113.7')).rejects.toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
    });
  });

  it('refuses an address after 50 failures across logins; other addresses go on', async () => {
    const t = setup();
    for (let i = 0; i < 50; i++) await t.fail(`user${i}`, '203.0.113.9');
    const err = await t.throttle.begin('someone-new', '203.0.113.9').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { retryAfterSeconds: WINDOW / 1000 } });
    await expect(t.succeed('someone-new', '203.0.113.10')).resolves.toBeUndefined();
  });

  it('does not hold successes, or attempts refused for the login, against the address', async () => {
    const t = setup();
    for (let i = 0; i < 60; i++) await t.succeed(`user${i % 5}`, '203.0.113.20');
    for (let i = 0; i < 10; i++) await t.fail('victim', '203.0.113.21');
    for (let i = 0; i < 60; i++) {
      await expect(t.throttle.begin('victim', '203.0.113.21')).rejects.toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
      });
    }
    await expect(t.succeed('someone', '203.0.113.20')).resolves.toBeUndefined();
    await expect(t.succeed('someone', '203.0.113.21')).resolves.toBeUndefined();
  });

  it('lets exactly the allowed number of a burst of parallel guesses through', async () => {
    const t = setup();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => t.throttle.begin('ada', '203.0.113.7')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    }
  });

  it('keeps no login in clear in its keys', async () => {
    const kv = new MemoryKvStore();
    const keys: string[] = [];
    const spy = Object.assign(Object.create(kv) as MemoryKvStore, {
      increment: (key: string, by?: number, ttl?: number) => {
        keys.push(key);
        return kv.increment(key, by, ttl);
      },
    });
    const throttle = new LoginThrottle(spy, { sleep: async () => {} });
    await (await throttle.begin('Ada.Lovelace@example.com', '203.0.113.7')).failed();
    expect(keys.join(' ')).not.toMatch(/ada|lovelace/i);
  });
});
