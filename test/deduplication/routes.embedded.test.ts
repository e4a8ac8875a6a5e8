/**
 * The deduplication routes through the real gateway of an embedded platform (SQLite kv, real keys and limits):
 * the S envelope and the R body, concurrency and account isolation of the check, validation messages in each
 * convention's error body, the body limits, credentials and scopes, rate limits, metering and the documents.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { createDeduplicationService, DETECT_BODY_LIMIT } from '../../services/deduplication/service.js';
import { openTestPlatform, type TestAccount, type TestKey } from '../support/platform.js';

const S_PATH = '/api/deduplication/check';
const R_PATH = '/api/v1/dedup/detect';

/** Two calls a minute: for the rate-limit case only. */
const TINY = { perMinute: 2, perDay: 1_000, perMonth: 1_000, batchSize: 10 };
const tp = await openTestPlatform({ plans: { TINY } });
// The composition root may already list the service (cli/platform.ts); the test must not declare it twice.
const services = tp.platform.services.some((s) => s.slug === 'deduplication')
  ? tp.platform.services
  : [...tp.platform.services, createDeduplicationService({ kv: tp.rt.kv })];
const app = await buildApp({
  config: tp.config,
  health: () => tp.rt.health(),
  services,
  ports: tp.platform.ports,
  logger: false,
  plugins: [docsPlugin(tp.config.PUBLIC_URL, 'test')],
});
await app.ready();
afterAll(async () => {
  await app.close();
  await tp.close();
});

let big: TestAccount;
let enterprise: TestKey;
let free: TestKey;
let otherScope: TestKey;
let revoked: TestKey;
let tiny: TestKey;

beforeAll(async () => {
  const [a, b, c] = await Promise.all([
    tp.createAccount({ plan: 'ENTERPRISE' }),
    tp.createAccount(),
    tp.createAccount({ plan: 'TINY' }),
  ]);
  big = a;
  [enterprise, free, otherScope, revoked, tiny] = await Promise.all([
    tp.createApiKey(a.token, { scopes: ['deduplication'] }),
    tp.createApiKey(b.token, { scopes: ['*'] }),
    tp.createApiKey(a.token, { scopes: ['readability'] }),
    tp.createApiKey(a.token, { scopes: ['deduplication'] }),
    tp.createApiKey(c.token, { scopes: ['deduplication'] }),
  ]);
  await tp.revokeApiKey(a.token, revoked.keyId);
}, 60_000);

const post = (url: string, payload: unknown, key: TestKey | null = enterprise) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...(key ? { 'x-api-key': key.key } : {}), 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

function expectS(res: LightMyRequestResponse, status: number, code: string, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'status']);
  expect(body.status).toBe('ERROR');
  expect(body.error.code).toBe(code);
  if (message !== undefined) expect(body.error.message).toBe(message);
}

function expectProblem(res: LightMyRequestResponse, status: number, code: string, detail?: string): void {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
  expect(body).toMatchObject({
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    status,
    instance: R_PATH,
  });
  if (detail !== undefined) expect(body.detail).toBe(detail);
}

const unique = () => `content ${Math.random()} ${Date.now()}`;

describe('POST /api/deduplication/check (S)', () => {
  it('answers {status: OK, data} with the entry, then counts the repeat', async () => {
    const content = unique();
    const first = await post(S_PATH, { content, namespace: 'orders', ttlHours: 24 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBeDefined();
    const body = first.json();
    expect(body.status).toBe('OK');
    expect(Object.keys(body.data)).toEqual([
      'result',
      'hash',
      'namespace',
      'firstSeen',
      'occurrences',
      'expiresAt',
    ]);
    expect(body.data).toMatchObject({ result: 'UNIQUE', namespace: 'orders', occurrences: 1 });
    expect(body.data.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(body.data.expiresAt) - Date.parse(body.data.firstSeen)).toBe(24 * 3_600_000);
    expect(body.data).not.toHaveProperty('processingTimeMs');
    const again = (await post(S_PATH, { content, namespace: 'orders' })).json();
    expect(again.data).toMatchObject({
      result: 'EXACT_DUPLICATE',
      hash: body.data.hash,
      firstSeen: body.data.firstSeen,
      occurrences: 2,
      expiresAt: body.data.expiresAt,
    });
  });

  it('50 concurrent identical submissions: exactly one UNIQUE, occurrences 1 to 50 once each', async () => {
    const payload = { content: unique(), namespace: 'race' };
    const responses = await Promise.all(Array.from({ length: 50 }, () => post(S_PATH, payload)));
    const data = responses.map((r) => {
      expect(r.statusCode, r.body).toBe(200);
      return r.json().data as { result: string; occurrences: number };
    });
    expect(data.filter((d) => d.result === 'UNIQUE')).toHaveLength(1);
    expect(data.map((d) => d.occurrences).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });

  it("never shows one account another account's hashes, even in a namespace of the same name", async () => {
    const payload = { content: unique(), namespace: 'shared-name' };
    expect((await post(S_PATH, payload)).json().data.result).toBe('UNIQUE');
    expect((await post(S_PATH, payload)).json().data.occurrences).toBe(2);
    const other = (await post(S_PATH, payload, free)).json().data;
    expect(other).toMatchObject({ result: 'UNIQUE', occurrences: 1 });
    expect((await post(S_PATH, payload)).json().data.occurrences).toBe(3);
  });

  it('hashes the exact bytes: the same text with a trailing space or another case is new', async () => {
    const content = unique();
    await post(S_PATH, { content, namespace: 'exact' });
    for (const variant of [`${content} `, content.toUpperCase(), `${content}\n`]) {
      expect((await post(S_PATH, { content: variant, namespace: 'exact' })).json().data.result).toBe(
        'UNIQUE',
      );
    }
  });

  it('refuses bad input with the S error body and `<field>: <constraint>` messages', async () => {
    expectS(await post(S_PATH, { content: 'x' }), 400, 'VALIDATION_ERROR', 'namespace: must not be blank');
    expectS(await post(S_PATH, { namespace: 'n' }), 400, 'VALIDATION_ERROR', 'content: must not be blank');
    expectS(
      await post(S_PATH, { content: 'x', namespace: 'a:b' }),
      400,
      'VALIDATION_ERROR',
      'namespace: has an invalid format',
    );
    expectS(
      await post(S_PATH, { content: 'x', namespace: 'n', ttlHours: 0 }),
      400,
      'VALIDATION_ERROR',
      'ttlHours: must be at least 1',
    );
    expectS(
      await post(S_PATH, { content: 'x', namespace: 'n', ttlHours: 8761 }),
      400,
      'VALIDATION_ERROR',
      'ttlHours: must be at most 8760',
    );
    expectS(
      await post(S_PATH, { content: 'x', namespace: 'n', extra: 1 }),
      400,
      'VALIDATION_ERROR',
      'extra: is not a known field',
    );
    expectS(
      await post(S_PATH, { content: 7, namespace: 'n' }),
      400,
      'VALIDATION_ERROR',
      'content: must be a string',
    );
    expectS(
      await post(S_PATH, '{"content":"a\\ud800","namespace":"n"}'),
      400,
      'VALIDATION_ERROR',
      'content: must be well-formed Unicode (no unpaired surrogates)',
    );
  });

  it('takes a body up to 64 KiB, and answers a larger one with 413 in the S error body', async () => {
    expect((await post(S_PATH, { content: 'a'.repeat(60_000), namespace: 'big' })).statusCode).toBe(200);
    expectS(await post(S_PATH, { content: 'a'.repeat(70_000), namespace: 'big' }), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('POST /api/v1/dedup/detect (R)', () => {
  const records = [
    { name: 'Jane Doe', email: 'jane.doe@example.com', phone: '+1 415 555 0100' },
    { name: 'Doe, Jane', email: 'janedoe@example.com', phone: '(415) 555-0100' },
    { name: 'Alice Martin', email: 'alice@example.net' },
  ];

  it('answers the bare resource: groups with similarity, indices and scores; no processingTimeMs', async () => {
    const res = await post(R_PATH, { records, strategy: 'FUZZY', matchFields: ['name', 'email', 'phone'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      duplicateGroups: [{ similarity: 1, indices: [0, 1], scores: { name: 1, email: 1, phone: 1 } }],
      totalRecords: 3,
      duplicatesFound: 1,
    });
  });

  it('offers EXACT matching', async () => {
    const res = await post(R_PATH, { records, strategy: 'EXACT', matchFields: ['name'] });
    expect(res.json()).toEqual({ duplicateGroups: [], totalRecords: 3, duplicatesFound: 0 });
  });

  it('refuses bad input with RFC 7807 problems and `<field>: <constraint>` details', async () => {
    expectProblem(
      await post(R_PATH, { records, matchFields: [] }),
      400,
      'VALIDATION_ERROR',
      'matchFields: must contain at least 1 item',
    );
    expectProblem(await post(R_PATH, { records }), 400, 'VALIDATION_ERROR', 'matchFields: must not be blank');
    expectProblem(
      await post(R_PATH, { records, matchFields: ['name'], strategy: 'SOUNDEX' }),
      400,
      'VALIDATION_ERROR',
      'strategy: must be one of [EXACT, FUZZY]',
    );
    expectProblem(
      await post(R_PATH, { records, matchFields: ['name'], threshold: 1.5 }),
      400,
      'VALIDATION_ERROR',
      'threshold: must be at most 1',
    );
    expectProblem(
      await post(R_PATH, { records: [1, 2], matchFields: ['name'] }),
      400,
      'VALIDATION_ERROR',
      'records[0]: must be an object',
    );
    expectProblem(
      await post(R_PATH, { records: Array.from({ length: 10_001 }, () => ({ a: 1 })), matchFields: ['a'] }),
      400,
      'VALIDATION_ERROR',
      'records: must contain at most 10000 items',
    );
    expectProblem(
      await post(R_PATH, { records, matchFields: ['name', 'nmae'] }),
      400,
      'VALIDATION_ERROR',
      'matchFields[1]: no record has the field "nmae"',
    );
  });

  it('takes 10,000 records in a multi-megabyte body on any plan (not a batch route), refuses over 5 MiB', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      name: `Person ${i} ${'x'.repeat(i % 50)}`,
      email: `person${i}@example.com`,
      phone: `+1 415 ${String(1_000_000 + i).slice(-7)}`,
      note: 'n'.repeat(250),
    }));
    many.push({ ...many[42]!, name: many[42]!.name.toUpperCase() });
    const payload = JSON.stringify({
      records: many.slice(0, 10_000),
      matchFields: ['name', 'email', 'phone'],
    });
    expect(payload.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(payload.length).toBeLessThan(DETECT_BODY_LIMIT);
    const res = await post(R_PATH, payload, free);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json()).toMatchObject({ totalRecords: 10_000, duplicatesFound: 0 });
    const withCopy = await post(
      R_PATH,
      { records: many.slice(1), matchFields: ['name', 'email', 'phone'] },
      free,
    );
    expect(withCopy.json().duplicateGroups).toEqual([
      { similarity: 1, indices: [41, 9_999], scores: { name: 1, email: 1, phone: 1 } },
    ]);
    const over = JSON.stringify({ records: [{ pad: 'p'.repeat(DETECT_BODY_LIMIT) }], matchFields: ['pad'] });
    expectProblem(await post(R_PATH, over), 413, 'PAYLOAD_TOO_LARGE');
  }, 60_000);
});

describe('credentials, scopes and limits', () => {
  it('no key or an unknown key → 401; a revoked key → 401; a key for another service → 403', async () => {
    const body = { content: 'x', namespace: 'n' };
    expectS(await post(S_PATH, body, null), 401, 'UNAUTHORIZED');
    expectProblem(await post(R_PATH, { records: [{ a: 1 }], matchFields: ['a'] }, null), 401, 'UNAUTHORIZED');
    expectS(await post(S_PATH, body, { ...enterprise, key: `${enterprise.key}x` }), 401, 'UNAUTHORIZED');
    expectS(await post(S_PATH, body, revoked), 401, 'UNAUTHORIZED');
    expectS(await post(S_PATH, body, otherScope), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(
      await post(R_PATH, { records: [{ a: 1 }], matchFields: ['a'] }, otherScope),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });

  it('is rate limited per key: the third call in a minute on a two-a-minute plan → 429 with Retry-After', async () => {
    const body = { content: unique(), namespace: 'n' };
    expect((await post(S_PATH, body, tiny)).statusCode).toBe(200);
    expect((await post(R_PATH, { records: [{ a: 1 }], matchFields: ['a'] }, tiny)).statusCode).toBe(200);
    const limited = await post(S_PATH, body, tiny);
    expectS(limited, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('meters answered 2xx calls under the deduplication slug', async () => {
    const usage = async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${big.token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.breakdown.deduplication as number | undefined) ?? 0;
    };
    const before = await usage();
    expect((await post(S_PATH, { content: unique(), namespace: 'm' })).statusCode).toBe(200);
    expect((await post(R_PATH, { records: [{ a: 1 }], matchFields: ['a'] })).statusCode).toBe(200);
    expect((await post(S_PATH, { content: 'x' })).statusCode).toBe(400);
    expect(await usage()).toBe(before + 2);
  });
});

describe('generated documents', () => {
  it('/openapi.json stays valid OpenAPI 3.1 and documents both operations with their schemas', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(doc.paths[S_PATH].post.operationId).toBe('deduplicationCheck');
    expect(doc.paths[R_PATH].post.operationId).toBe('dedupDetect');
    expect(JSON.stringify(doc.paths[R_PATH].post)).toContain('matchFields');
  });

  it('/api/mcp-tools.json has one tool per operation, under the deduplication service', async () => {
    const { tools } = (await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json() as {
      tools: { name: string; service: string }[];
    };
    expect(
      tools
        .filter((t) => t.service === 'deduplication')
        .map((t) => t.name)
        .sort(),
    ).toEqual(['dedupDetect', 'deduplicationCheck']);
  });
});
