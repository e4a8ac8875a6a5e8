/**
 * password-breach through the real gateway of an embedded platform, over a corpus file written by the
 * importer: the range API's exact Have I Been Pwned format line by line, padding, invalid prefixes in
 * convention R's problem+json, checks and batches that never echo a password, batch bounds by plan, scopes,
 * metering, and the generated documents.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import type { BreachCorpus } from '../../services/password-breach/corpus.js';
import { sha1Hex } from '../../services/password-breach/hashes.js';
import { importHashes } from '../../services/password-breach/import.js';
import { openBreachCorpus } from '../../services/password-breach/open-corpus.js';
import { createPasswordBreachService } from '../../services/password-breach/service.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';

const CHECK = '/api/v1/passwords/check';
const BATCH = '/api/v1/passwords/check/batch';
const RANGE = '/api/v1/passwords/range';
const PREFIX_MESSAGE = 'hashPrefix: must be 5 hexadecimal characters';

/** A suffix of 35 hex digits from a number, so the expected lines are easy to state. */
const suffixOf = (n: number, lead = '') => (lead + n.toString(16).toUpperCase()).padStart(35, '0');
const PASSWORD_SUFFIX = sha1Hex('password').slice(5);

/**
 * Prefix ABCDE: 1,200 entries (more than padding ever reaches); 5BAA6: "password" and 3 more; a few others.
 */
const EXPECTED: Record<string, Map<string, number>> = {
  ABCDE: new Map(
    Array.from({ length: 1200 }, (_, i) => [suffixOf(i * 7919 + 1, 'A'), (i * 37) % 5000] as const),
  ),
  '5BAA6': new Map([
    [suffixOf(1), 1],
    [PASSWORD_SUFFIX, 9_659_365],
    ['2648FB0B2EDA4FDFF99BF51E912CD95C023', 0],
    ['FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF', 4_294_967_295],
  ]),
  [sha1Hex('hunter2').slice(0, 5)]: new Map([[sha1Hex('hunter2').slice(5), 17_043]]),
};

let tp: TestPlatform;
let app: FastifyInstance;
let corpus: BreachCorpus;
let dir: string;
const keys = { free: '', enterprise: '', otherScope: '', meter: '' };
let meterToken = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-pw-gateway-'));
  const lines = Object.entries(EXPECTED)
    .flatMap(([prefix, entries]) => [...entries].map(([suffix, count]) => `${prefix}${suffix}:${count}`))
    .sort();
  const input = join(dir, 'dataset.txt');
  writeFileSync(input, `${lines.join('\r\n')}\r\n`);
  await importHashes({ input, output: join(dir, 'corpus.bin') });
  corpus = await openBreachCorpus({ file: join(dir, 'corpus.bin'), dataDir: dir });

  const wide = { perMinute: 100_000, perDay: 1_000_000, perMonth: 1_000_000 };
  tp = await openTestPlatform({ plans: { FREE: wide, ENTERPRISE: wide } });
  app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'password-breach'),
      createPasswordBreachService({ corpus }),
    ],
    ports: tp.platform.ports,
    logger: false,
    plugins: [docsPlugin(tp.config.PUBLIC_URL, 'test')],
  });
  await app.ready();
  const [free, enterprise, meter] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'ENTERPRISE' }),
    tp.createAccount(),
  ]);
  const keyOf = async (token: string, scopes = ['password-breach']) =>
    (await tp.createApiKey(token, { scopes })).key;
  [keys.free, keys.enterprise, keys.otherScope, keys.meter] = await Promise.all([
    keyOf(free.token),
    keyOf(enterprise.token),
    keyOf(free.token, ['readability']),
    keyOf(meter.token),
  ]);
  meterToken = meter.token;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await tp?.close();
  await corpus?.close();
  rmSync(dir, { recursive: true, force: true });
});

const range = (prefix: string, headers: Record<string, string> = {}, key = keys.free) =>
  app.inject({ method: 'GET', url: `${RANGE}/${prefix}`, headers: { 'X-API-Key': key, ...headers } });
const post = (url: string, payload: unknown, key = keys.free) =>
  app.inject({ method: 'POST', url, headers: { 'X-API-Key': key }, payload: payload as object });

/** The line-by-line rules of the HIBP range format; returns the parsed lines. */
function hibpLines(res: LightMyRequestResponse): { suffix: string; count: number }[] {
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain');
  if (res.body === '') return [];
  expect(res.body.endsWith('\r\n'), 'no line break after the last line').toBe(false);
  const lines = res.body.split('\r\n');
  for (const line of lines) {
    // Every line break is CRLF: no bare CR or LF is left inside a line.
    expect(line, JSON.stringify(line)).toMatch(/^[0-9A-F]{35}:(0|[1-9]\d*)$/);
  }
  const parsed = lines.map((l) => ({ suffix: l.slice(0, 35), count: Number(l.slice(36)) }));
  for (let i = 1; i < parsed.length; i++) {
    expect(parsed[i - 1]!.suffix < parsed[i]!.suffix, `line ${i + 1} sorts after line ${i}`).toBe(true);
  }
  return parsed;
}

function expectProblem(res: LightMyRequestResponse, status: number, code: string, detail?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(body.type).toBe(`/problems/${code.toLowerCase().replaceAll('_', '-')}`);
  expect(typeof body.title).toBe('string');
  expect(body.status).toBe(status);
  expect(body).not.toHaveProperty('error');
  if (detail !== undefined) expect(body.detail).toBe(detail);
}

describe('GET /api/v1/passwords/range/{hashPrefix}', () => {
  it('answers in the exact HIBP format: CRLF, 35 upper-case hex digits, sorted, corpus counts', async () => {
    for (const [prefix, entries] of Object.entries(EXPECTED)) {
      const res = await range(prefix);
      const lines = hibpLines(res);
      expect(lines.length, prefix).toBe(entries.size);
      for (const { suffix, count } of lines) expect(count, `${prefix}${suffix}`).toBe(entries.get(suffix));
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(res.headers).toHaveProperty(h);
      }
    }
    const password = hibpLines(await range('5BAA6'));
    expect(password).toContainEqual({ suffix: '1E4C9B93F3F0682250B6CF8331B7EE68FD8', count: 9_659_365 });
    expect(password[0]).toEqual({ suffix: suffixOf(1), count: 1 });
  });

  it('takes the prefix in either case and answers upper case', async () => {
    const upper = await range('ABCDE');
    for (const p of ['abcde', 'AbCdE']) expect((await range(p)).body).toBe(upper.body);
    expect(upper.body).not.toMatch(/[a-f]/);
  });

  it('answers an empty body for a prefix with no hash', async () => {
    const res = await range('00000');
    expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([200, 'text/plain', '']);
  });

  it('pads to 800–1,000 lines with zero counts when Add-Padding: true, real entries unchanged', async () => {
    const sizes = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const lines = hibpLines(await range('5BAA6', { 'Add-Padding': 'true' }));
      sizes.add(lines.length);
      expect(lines.length).toBeGreaterThanOrEqual(800);
      expect(lines.length).toBeLessThanOrEqual(1000);
      const real = lines.filter((l) => EXPECTED['5BAA6']!.has(l.suffix));
      expect(real).toEqual(
        [...EXPECTED['5BAA6']!]
          .map(([suffix, count]) => ({ suffix, count }))
          .sort((a, b) => (a.suffix < b.suffix ? -1 : 1)),
      );
      for (const l of lines.filter((x) => !EXPECTED['5BAA6']!.has(x.suffix))) expect(l.count).toBe(0);
    }
    expect(sizes.size, 'the padded size varies between calls').toBeGreaterThan(1);
    const empty = hibpLines(await range('00000', { 'add-padding': 'TRUE' }));
    expect(empty.length).toBeGreaterThanOrEqual(800);
    expect(empty.every((l) => l.count === 0)).toBe(true);
    // 1,200 real entries already exceed 1,000: nothing is added.
    expect((await range('ABCDE', { 'Add-Padding': 'true' })).body).toBe((await range('ABCDE')).body);
    expect((await range('5BAA6', { 'Add-Padding': 'false' })).body.split('\r\n')).toHaveLength(4);
  });

  it('refuses invalid prefixes with 400 VALIDATION_ERROR in problem+json', async () => {
    for (const prefix of ['5BAA', '5BAA61', '5BAG6', 'zzzzz', '', '%205BAA', '5BAA6%00', '..%2F1']) {
      const res = await range(prefix);
      expectProblem(res, 400, 'VALIDATION_ERROR', PREFIX_MESSAGE);
      expect(res.json().instance).toBe(`${RANGE}/${prefix}`);
    }
  });

  it('serves SHA-1 only: mode=sha1 is accepted, mode=ntlm refused', async () => {
    const sha1 = await app.inject({
      method: 'GET',
      url: `${RANGE}/5BAA6?mode=sha1`,
      headers: { 'X-API-Key': keys.free },
    });
    expect(sha1.body).toBe((await range('5BAA6')).body);
    const ntlm = await app.inject({
      method: 'GET',
      url: `${RANGE}/5BAA6?mode=ntlm`,
      headers: { 'X-API-Key': keys.free },
    });
    expectProblem(ntlm, 400, 'VALIDATION_ERROR', 'mode: must be one of [sha1]');
  });
});

describe('POST /api/v1/passwords/check and /check/batch', () => {
  const unique = () => `Tg-${randomBytes(9).toString('base64url')}`;

  it('checks a password and never echoes it, in the body or a header', async () => {
    const secret = unique();
    const res = await post(CHECK, { password: secret });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      breached: false,
      occurrences: 0,
      message: 'This password does not appear in the breach corpus.',
    });
    const breached = await post(CHECK, { password: 'hunter2' });
    expect(breached.json()).toEqual({
      breached: true,
      occurrences: 17_043,
      message: 'This password appears in the breach corpus (17,043 occurrences): do not use it.',
    });
    for (const [res2, pw] of [
      [res, secret],
      [breached, 'hunter2'],
    ] as const) {
      expect(res2.body).not.toContain(pw);
      expect(JSON.stringify(res2.headers)).not.toContain(pw);
    }
    expect((await post(CHECK, { password: 'password' })).json().occurrences).toBe(9_659_365);
  });

  it('checks a batch by position and echoes none of the passwords', async () => {
    const secrets = [unique(), unique()];
    const res = await post(BATCH, { passwords: ['hunter2', secrets[0], 'password', secrets[1]] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      results: [
        { index: 0, breached: true, occurrences: 17_043 },
        { index: 1, breached: false, occurrences: 0 },
        { index: 2, breached: true, occurrences: 9_659_365 },
        { index: 3, breached: false, occurrences: 0 },
      ],
    });
    for (const pw of ['hunter2', ...secrets]) expect(res.body).not.toContain(pw);
  });

  it('refuses invalid bodies without echoing what was sent', async () => {
    const secret = unique();
    const cases: [string, unknown, string][] = [
      [CHECK, {}, 'password: must not be blank'],
      [CHECK, { password: '' }, 'password: must not be blank'],
      [CHECK, { password: 12_345_678 }, 'password: must be a string'],
      [CHECK, { password: secret.repeat(100).slice(0, 1025) }, 'password: must be at most 1024 characters'],
      [CHECK, { password: secret, echo: secret }, 'echo: is not a known field'],
      [BATCH, { passwords: [] }, 'passwords: must contain at least 1 item'],
      [BATCH, { passwords: [secret, 5] }, 'passwords[1]: must be a string'],
      [BATCH, { passwords: [secret, ''] }, 'passwords[1]: must not be blank'],
    ];
    for (const [url, body, detail] of cases) {
      const res = await post(url, body);
      expectProblem(res, 400, 'VALIDATION_ERROR', detail);
      expect(res.body).not.toContain(secret);
    }
  });

  it('bounds a batch by the plan: 10 items on FREE, 1,000 on ENTERPRISE', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `pw-${i}`);
    expect((await post(BATCH, { passwords: many(10) })).statusCode).toBe(200);
    expectProblem(
      await post(BATCH, { passwords: many(11) }),
      400,
      'VALIDATION_ERROR',
      'passwords: must contain at most 10 items',
    );
    const big = await post(BATCH, { passwords: many(1000) }, keys.enterprise);
    expect(big.statusCode, big.body.slice(0, 200)).toBe(200);
    expect(big.json().results).toHaveLength(1000);
    expectProblem(
      await post(BATCH, { passwords: many(1001) }, keys.enterprise),
      400,
      'VALIDATION_ERROR',
      'passwords: must contain at most 1000 items',
    );
  });
});

describe('access and metering', () => {
  it('needs a key with the password-breach scope on every route', async () => {
    const calls = [
      (key?: string) =>
        app.inject({ method: 'GET', url: `${RANGE}/5BAA6`, headers: key ? { 'X-API-Key': key } : {} }),
      (key?: string) =>
        app.inject({
          method: 'POST',
          url: CHECK,
          headers: key ? { 'X-API-Key': key } : {},
          payload: { password: 'x' },
        }),
      (key?: string) =>
        app.inject({
          method: 'POST',
          url: BATCH,
          headers: key ? { 'X-API-Key': key } : {},
          payload: { passwords: ['x'] },
        }),
    ];
    for (const call of calls) {
      expectProblem(await call(), 401, 'UNAUTHORIZED');
      expectProblem(await call(keys.otherScope), 403, 'INSUFFICIENT_SCOPE');
      expect((await call(keys.free)).statusCode).toBe(200);
    }
  });

  it('counts answered calls under password-breach; a batch is one call, a refused one none', async () => {
    const usage = async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${meterToken}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.breakdown['password-breach'] as number | undefined) ?? 0;
    };
    const before = await usage();
    expect((await range('5BAA6', {}, keys.meter)).statusCode).toBe(200);
    expect((await post(CHECK, { password: 'x' }, keys.meter)).statusCode).toBe(200);
    expect((await post(BATCH, { passwords: ['a', 'b', 'c'] }, keys.meter)).statusCode).toBe(200);
    expect((await range('5BAA', {}, keys.meter)).statusCode).toBe(400);
    expect(await usage()).toBe(before + 3);
  });
});

describe('generated documents', () => {
  it('/openapi.json stays valid and documents the three operations', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(doc.paths[CHECK].post.operationId).toBe('passwordsCheck');
    expect(doc.paths[BATCH].post.operationId).toBe('passwordsCheckBatch');
    const get = doc.paths[`${RANGE}/{hashPrefix}`].get;
    expect(get.operationId).toBe('passwordsRange');
    expect(get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:hashPrefix',
      'query:mode',
    ]);
  });

  it('/api/mcp-tools.json lists one tool per operation under password-breach', async () => {
    const { tools } = (await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json() as {
      tools: { name: string; service: string }[];
    };
    expect(
      tools
        .filter((t) => t.service === 'password-breach')
        .map((t) => t.name)
        .sort(),
    ).toEqual(['passwordsCheck', 'passwordsCheckBatch', 'passwordsRange']);
  });
});
