import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { burst, call, signUp, TEXT } from './harness.js';

export interface Deployment {
  /** Base URLs of the gateways (one embedded, two in cluster). */
  readonly gateways: readonly string[];
  readonly sink: import('../conformance/mail-sink.js').SmtpSink;
  stop(): Promise<void>;
}

/** The admin every deployment of this suite bootstraps from ADMIN_LOGIN/ADMIN_EMAIL/ADMIN_PASSWORD. */
export const ADMIN = { login: 'root', email: 'root@example.com', password: 'Admin-Pass-2026-x' };
export const ADMIN_ENV = {
  ADMIN_LOGIN: ADMIN.login,
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
};

let serial = 0;
const uniqueLogin = (prefix: string) => `${prefix}${Date.now().toString(36)}${(serial++).toString(36)}`;

/**
 * The whole journey of DESIGN/issue 3 over real HTTP against listening processes with a real SMTP sink:
 * register → the mail arrives → activate → log in → create a key (full key once, never again) → call
 * readability in S and R → usage shows used 2, breakdown {readability: 2} → revoke → 401. Then the exact
 * limits: 50 concurrent calls of a FREE key get exactly 10 × 2xx and 40 × 429.
 */
export function describeJourney(name: string, deploy: () => Promise<Deployment>): void {
  describe(`journey: ${name}`, () => {
    let d: Deployment;
    beforeAll(async () => {
      d = await deploy();
    }, 180_000);
    afterAll(async () => {
      await d?.stop();
    }, 60_000);

    it('registers, activates by mail, logs in, calls S and R, sees usage, and is refused after revoking', async () => {
      const gws = d.gateways;
      const last = gws.at(-1)!;
      const { token, apiKey, keyId } = await signUp(gws, d.sink, uniqueLogin('ada'));
      expect(apiKey).toMatch(/^tg_[A-Za-z0-9]{16}_[A-Za-z0-9]{43}$/);

      const list = await call(last, 'GET', '/api/portal/api-keys', { token });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([expect.objectContaining({ keyId, start: apiKey.slice(0, 11) })]);
      expect(JSON.stringify(list.body)).not.toContain(apiKey.slice(12));

      const s = await call(gws[0]!, 'POST', '/api/readability/score', { apiKey, body: { text: TEXT } });
      expect(s.status).toBe(200);
      expect(s.body.status).toBe('OK');
      expect(s.body.data).toMatchObject({ wordCount: 16, sentenceCount: 2 });
      expect(s.headers.get('x-ratelimit-limit')).toBe('10');
      expect(s.headers.get('x-ratelimit-remaining')).toBe('9');
      const r = await call(last, 'POST', '/api/v1/readability/analyze', {
        apiKey,
        body: { text: TEXT, language: 'en' },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ wordCount: 16, sentenceCount: 2, avgWordsPerSentence: 8 });
      expect(r.headers.get('x-ratelimit-remaining')).toBe('8');

      const usage = await (async () => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const u = await call(gws[0]!, 'GET', '/api/portal/usage', { token });
          if (u.body?.data?.used === 2 || Date.now() > deadline) return u;
          await new Promise((res) => setTimeout(res, 100));
        }
      })();
      expect(usage.status).toBe(200);
      expect(usage.body).toEqual({
        status: 'OK',
        data: {
          plan: 'FREE',
          period: new Date().toISOString().slice(0, 7),
          used: 2,
          limit: 1000,
          remaining: 998,
          breakdown: { readability: 2 },
        },
      });

      const revoked = await call(gws[0]!, 'DELETE', `/api/portal/api-keys/${keyId}`, { token });
      expect(revoked.status).toBe(204);
      const started = Date.now();
      for (const gw of gws) {
        const after = await (async () => {
          for (;;) {
            const res = await call(gw, 'POST', '/api/readability/score', { apiKey, body: { text: TEXT } });
            if (res.status === 401 || Date.now() - started > 3000) return res;
            await new Promise((res2) => setTimeout(res2, 50));
          }
        })();
        expect(after.status).toBe(401);
        expect(after.body.error.code).toBe('UNAUTHORIZED');
      }
      // A revocation reaches every gateway within one second.
      expect(Date.now() - started).toBeLessThan(1500);
      expect((await call(last, 'GET', '/api/portal/api-keys', { token })).body.data).toEqual([]);
    });

    it('serves admin statistics to the bootstrapped admin (token plus key) and refuses everyone else', async () => {
      const [a] = d.gateways as [string];
      const login = await call(a, 'POST', '/api/auth/login', {
        body: { username: ADMIN.login, password: ADMIN.password },
      });
      expect(login.status).toBe(200);
      const token = login.body.id_token as string;
      const key = await call(a, 'POST', '/api/portal/api-keys', {
        token,
        body: { name: 'ops', scopes: ['*'] },
      });
      expect(key.status).toBe(201);
      const apiKey = key.body.data.key as string;
      const stats = await call(d.gateways.at(-1)!, 'GET', '/api/v1/admin/stats', { token, apiKey });
      expect(stats.status).toBe(200);
      expect(stats.body).toMatchObject({
        accounts: expect.any(Number),
        activeKeys: expect.any(Number),
        callsToday: expect.any(Number),
        callsThisMonth: expect.any(Number),
        topServices: expect.any(Array),
        errorRate: expect.any(Number),
      });
      expect(stats.body.accounts).toBeGreaterThanOrEqual(2);
      expect((await call(a, 'GET', '/api/v1/admin/stats', { token })).status).toBe(401);
      const user = await signUp(d.gateways, d.sink, uniqueLogin('nosy'));
      const refused = await call(a, 'GET', '/api/v1/admin/stats', { token: user.token, apiKey: user.apiKey });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ type: '/problems/forbidden', status: 403 });
    });

    it('lets exactly 10 of 50 concurrent FREE calls through, the rest 429 with headers', async () => {
      const { apiKey } = await signUp(d.gateways, d.sink, uniqueLogin('limit'));
      const results = await burst(d.gateways, apiKey, 50);
      const ok = results.filter((r) => r.status === 200);
      const limited = results.filter((r) => r.status === 429);
      expect(ok).toHaveLength(10);
      expect(limited).toHaveLength(40);
      for (const r of limited) {
        expect(r.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(r.headers.get('x-ratelimit-limit')).toBe('10');
        expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      }
      expect(new Set(ok.map((r) => r.headers.get('x-ratelimit-remaining')))).toEqual(
        new Set(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']),
      );
    });
  });
}
