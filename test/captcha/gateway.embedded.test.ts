/**
 * captcha through the real gateway of an embedded platform: generate with and without a body, the public image
 * (no key, PNG or SVG, 404 for unknown ids), validate's 200 verdicts and its validation messages in
 * convention R's problem+json, scopes, and metering (generate and validate counted, the image not).
 */
import type { FastifyInstance } from 'fastify';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { createCaptchaService } from '../../services/captcha/service.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';
import { lastAnswer } from './issued-answers.js';

vi.mock('../../services/captcha/answer.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../services/captcha/answer.js')>();
  const { issuedAnswers: record } = await import('./issued-answers.js');
  return {
    ...real,
    randomAnswer: (n: number) => {
      const a = real.randomAnswer(n);
      record.push(a);
      return a;
    },
  };
});

const GENERATE = '/api/v1/captcha/generate';
const VALIDATE = '/api/v1/captcha/validate';

let tp: TestPlatform;
let app: FastifyInstance;
const keys = { captcha: '', other: '', meter: '' };
let meterToken = '';

beforeAll(async () => {
  const wide = { perMinute: 100_000, perDay: 1_000_000, perMonth: 1_000_000 };
  tp = await openTestPlatform({ plans: { FREE: wide } });
  app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'captcha'),
      createCaptchaService({ kv: tp.rt.kv }),
    ],
    ports: tp.platform.ports,
    logger: false,
  });
  await app.ready();
  const [user, meter] = await Promise.all([tp.createAccount(), tp.createAccount()]);
  [keys.captcha, keys.other, keys.meter] = await Promise.all([
    tp.createApiKey(user.token, { scopes: ['captcha'] }).then((k) => k.key),
    tp.createApiKey(user.token, { scopes: ['readability'] }).then((k) => k.key),
    tp.createApiKey(meter.token, { scopes: ['captcha'] }).then((k) => k.key),
  ]);
  meterToken = meter.token;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await tp?.close();
});

const post = (url: string, payload?: unknown, key = keys.captcha) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'X-API-Key': key },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const generate = async (key = keys.captcha) => {
  const res = await post(GENERATE, undefined, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { challengeId: string; imageUrl: string; expiresAt: string };
};

function expectProblem(res: Awaited<ReturnType<typeof post>>, status: number, detail?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  if (detail) expect(res.json().detail).toBe(detail);
}

describe('captcha through the gateway', () => {
  it('generates without a body, with an empty body and with clientIp', async () => {
    const c = await generate();
    expect(Object.keys(c).sort()).toEqual(['challengeId', 'expiresAt', 'imageUrl']);
    expect(c.imageUrl).toBe(`/api/v1/captcha/image/${c.challengeId}`);
    expect(Date.parse(c.expiresAt) - Date.now()).toBeGreaterThan(4 * 60_000);
    expect((await post(GENERATE, {})).statusCode).toBe(200);
    expect((await post(GENERATE, { clientIp: '2001:db8::1' })).statusCode).toBe(200);
  });

  it('refuses unknown fields and bad addresses in generate', async () => {
    expectProblem(await post(GENERATE, { level: 'easy' }), 400, 'level: is not a known field');
    expectProblem(
      await post(GENERATE, { clientIp: '999.1.1.1' }),
      400,
      'clientIp: must be a valid IPv4 or IPv6 address',
    );
  });

  it('serves the image without an API key, as PNG or SVG, never cached and not metered', async () => {
    const c = await generate();
    const res = await app.inject({ method: 'GET', url: c.imageUrl });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    const png = PNG.sync.read(res.rawPayload);
    expect([png.width, png.height]).toEqual([200, 70]);
    const svg = await app.inject({ method: 'GET', url: `${c.imageUrl}?format=svg` });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toMatch(/^<svg /);
    const busted = await app.inject({ method: 'GET', url: `${c.imageUrl}?t=1700000000` });
    expect(busted.statusCode, 'cache busters are ignored').toBe(200);
    const bad = await app.inject({ method: 'GET', url: `${c.imageUrl}?format=gif` });
    expectProblem(bad, 400, 'format: must be one of [png, svg]');
  });

  it('answers 404 problem+json for an unknown image id', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'unknown-id-of-another-shape']) {
      const res = await app.inject({ method: 'GET', url: `/api/v1/captcha/image/${id}` });
      expectProblem(res, 404);
      expect(res.json().type).toBe('/problems/not-found');
    }
  });

  it('validates once: valid true, then ALREADY_USED, both 200; the image is gone', async () => {
    const c = await generate();
    const answer = lastAnswer().toLowerCase();
    const first = await post(VALIDATE, { challengeId: c.challengeId, answer });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ valid: true, challengeId: c.challengeId, reason: null });
    const second = await post(VALIDATE, { challengeId: c.challengeId, answer });
    expect(second.json()).toEqual({ valid: false, challengeId: c.challengeId, reason: 'ALREADY_USED' });
    expect((await app.inject({ method: 'GET', url: c.imageUrl })).statusCode).toBe(404);
  });

  it('answers WRONG_ANSWER and NOT_FOUND as 200 verdicts', async () => {
    const c = await generate();
    const wrong = await post(VALIDATE, { challengeId: c.challengeId, answer: 'zzzzzzzz' });
    expect(wrong.json()).toEqual({ valid: false, challengeId: c.challengeId, reason: 'WRONG_ANSWER' });
    const unknown = await post(VALIDATE, { challengeId: 'AAAAAAAAAAAAAAAAAAAAAA', answer: 'ABCDE' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().reason).toBe('NOT_FOUND');
  });

  it('refuses malformed validate bodies with field messages', async () => {
    expectProblem(await post(VALIDATE, { challengeId: 'x' }), 400, 'answer: must not be blank');
    expectProblem(await post(VALIDATE, { answer: 'ABCDE' }), 400, 'challengeId: must not be blank');
    expectProblem(await post(VALIDATE, { challengeId: 'x', answer: '' }), 400, 'answer: must not be blank');
    expectProblem(await post(VALIDATE, { challengeId: 'x', answer: 5 }), 400, 'answer: must be a string');
    expectProblem(
      await post(VALIDATE, { challengeId: 'x', answer: 'a', extra: 1 }),
      400,
      'extra: is not a known field',
    );
  });

  it('needs a key with the captcha scope for generate and validate', async () => {
    expectProblem(await app.inject({ method: 'POST', url: GENERATE }), 401);
    expectProblem(await post(GENERATE, undefined, keys.other), 403);
    expectProblem(await post(VALIDATE, { challengeId: 'x', answer: 'a' }, keys.other), 403);
  });

  it('meters generate and validate, not the image, and counts a failed verdict as a call', async () => {
    const usage = async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${meterToken}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.breakdown.captcha as number | undefined) ?? 0;
    };
    const before = await usage();
    const res = await post(GENERATE, undefined, keys.meter);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const c = res.json() as { challengeId: string; imageUrl: string };
    expect((await app.inject({ method: 'GET', url: c.imageUrl })).statusCode).toBe(200);
    await post(VALIDATE, { challengeId: c.challengeId, answer: 'wrong' }, keys.meter);
    await post(VALIDATE, { challengeId: c.challengeId, answer: 'wrong' }, keys.meter);
    expect((await post(VALIDATE, { challengeId: 'x' }, keys.meter)).statusCode).toBe(400);
    expect(await usage()).toBe(before + 3);
  });
});
