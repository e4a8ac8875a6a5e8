/**
 * keyword-extractor through the real gateway of an embedded platform: routing, the S envelope and the R body,
 * request validation and its messages in each convention's error body, batch bounds by plan, the body limit,
 * scopes, metering, and the generated documents (OpenAPI, MCP manifest).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { GUXIANG } from '../../services/keyword-extractor/fixtures/chinese.js';
import { README } from '../../services/keyword-extractor/fixtures/readme.js';
import { SHERLOCK } from '../../services/keyword-extractor/fixtures/sherlock.js';
import { createKeywordExtractorService } from '../../services/keyword-extractor/service.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';

const S_PATH = '/api/keyword-extractor/extract';
const BATCH_PATH = '/api/keyword-extractor/extract/batch';
const R_PATH = '/api/v1/keywords/extract';

let tp: TestPlatform;
let app: FastifyInstance;
const keys: Record<'FREE' | 'BASIC' | 'PRO' | 'ENTERPRISE', string> = {
  FREE: '',
  BASIC: '',
  PRO: '',
  ENTERPRISE: '',
};
let otherScopeKey: string;
let meterKey: string;
let meterToken: string;

beforeAll(async () => {
  // The plans' batch sizes as shipped; rate windows wide enough for the many calls of this file.
  const wide = { perMinute: 100_000, perDay: 1_000_000, perMonth: 1_000_000 };
  tp = await openTestPlatform({ plans: { FREE: wide, BASIC: wide, PRO: wide, ENTERPRISE: wide } });
  app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'keyword-extractor'),
      createKeywordExtractorService(),
    ],
    ports: tp.platform.ports,
    logger: false,
    plugins: [docsPlugin(tp.config.PUBLIC_URL, 'test')],
  });
  await app.ready();
  const [free, basic, pro, enterprise, meter] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'BASIC' }),
    tp.createAccount({ plan: 'PRO' }),
    tp.createAccount({ plan: 'ENTERPRISE' }),
    tp.createAccount({ plan: 'PRO' }),
  ]);
  const keyOf = async (token: string, scopes = ['keyword-extractor']) =>
    (await tp.createApiKey(token, { scopes })).key;
  [keys.FREE, keys.BASIC, keys.PRO, keys.ENTERPRISE, otherScopeKey, meterKey] = await Promise.all([
    keyOf(free.token),
    keyOf(basic.token),
    keyOf(pro.token),
    keyOf(enterprise.token),
    keyOf(free.token, ['readability']),
    keyOf(meter.token),
  ]);
  meterToken = meter.token;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await tp?.close();
});

const post = (url: string, payload: unknown, key = keys.FREE, headerName = 'x-api-key') =>
  app.inject({ method: 'POST', url, headers: { [headerName]: key }, payload: payload as object });

function expectS(res: LightMyRequestResponse, status: number, code: string, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'status']);
  expect(body.status).toBe('ERROR');
  expect(body.error.code).toBe(code);
  if (message !== undefined) expect(body.error.message).toBe(message);
}

function expectProblem(res: LightMyRequestResponse, status: number, code: string, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
  expect(body).toMatchObject({
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    status,
    instance: R_PATH,
  });
  if (message !== undefined) expect(body.detail).toBe(message);
}

const docs = (n: number, text = 'Keyword extraction finds the topics of a text.') =>
  Array.from({ length: n }, (_, i) => ({ id: `doc-${i}`, text }));

describe('results through the gateway', () => {
  it('S extract: {status: OK, data: {keywords, profile, wordCount}} with rate-limit headers', async () => {
    const res = await post(S_PATH, { text: SHERLOCK, maxKeywords: 3 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.status).toBe('OK');
    expect(Object.keys(body.data)).toEqual(['keywords', 'profile', 'wordCount']);
    expect(body.data.profile).toBe('GENERAL');
    expect(body.data.wordCount).toBe(344);
    expect(body.data.keywords.map((k: { term: string }) => k.term).slice(0, 2)).toEqual([
      'Sherlock Holmes',
      'Irene Adler',
    ]);
    expect(body.data.keywords[0].score).toBe(1);
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
    expect(body.data).not.toHaveProperty('processingTimeMs');
  });

  it('S extract, TECHNICAL: code tokens as written', async () => {
    const res = await post(S_PATH, { text: README, maxKeywords: 8, profile: 'TECHNICAL' });
    expect(res.statusCode, res.body).toBe(200);
    const terms = res.json().data.keywords.map((k: { term: string }) => k.term);
    expect(terms).toEqual(
      expect.arrayContaining(['Node.js', 'v2.3.1', 'HTTP/2', 'getUserById', 'ECONNRESET']),
    );
  });

  it('S batch: {status: OK, data: {results}} in request order, a blank document failing alone', async () => {
    const res = await post(BATCH_PATH, {
      documents: [
        { id: 'holmes', text: SHERLOCK },
        { id: 'blank', text: ' ' },
        { id: 'guxiang', text: GUXIANG },
      ],
      maxKeywords: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json().data;
    expect(results.map((r: { id: string }) => r.id)).toEqual(['holmes', 'blank', 'guxiang']);
    expect(results[0].keywords).toHaveLength(3);
    expect(results[1]).toEqual({
      id: 'blank',
      keywords: [],
      error: { code: 'VALIDATION_ERROR', message: 'documents[1].text: must not be blank' },
    });
    expect(results[2].keywords.map((k: { term: string }) => k.term)).toContain('故乡');
  });

  it('R extract: {keywords, language} bare, no envelope, no processingTimeMs; X-API-Key spelling', async () => {
    const res = await post(R_PATH, { text: GUXIANG, maxKeywords: 3 }, keys.FREE, 'X-API-Key');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['keywords', 'language']);
    expect(body.language).toBe('zh');
    expect(body.keywords.map((k: { term: string }) => k.term)).toContain('故乡');
    const given = await post(R_PATH, { text: SHERLOCK, maxKeywords: 3, language: 'en' });
    expect(given.json().language).toBe('en');
  });
});

describe('request validation', () => {
  const cases: [string, unknown, string][] = [
    ['no text', {}, 'text: must not be blank'],
    ['an empty text', { text: '' }, 'text: must not be blank'],
    ['white space only', { text: ' \n\t ' }, 'text: must not be blank'],
    ['no word at all', { text: '!!! … 😀' }, 'text: must contain at least one word'],
    ['a number for text', { text: 5 }, 'text: must be a string'],
    ['text over 60,000 characters', { text: 'a'.repeat(60_001) }, 'text: must be at most 60000 characters'],
    ['maxKeywords 0', { text: 'a text', maxKeywords: 0 }, 'maxKeywords: must be at least 1'],
    ['maxKeywords 51', { text: 'a text', maxKeywords: 51 }, 'maxKeywords: must be at most 50'],
    ['a fractional maxKeywords', { text: 'a text', maxKeywords: 2.5 }, 'maxKeywords: must be an integer'],
    ['maxKeywords as a string', { text: 'a text', maxKeywords: '5' }, 'maxKeywords: must be an integer'],
    ['an unknown field', { text: 'a text', mode: 'fast' }, 'mode: is not a known field'],
  ];

  it.each(cases)('S: %s → 400 VALIDATION_ERROR', async (_what, body, message) => {
    expectS(await post(S_PATH, body), 400, 'VALIDATION_ERROR', message);
  });

  it.each(cases)('R: %s → 400 problem', async (_what, body, message) => {
    expectProblem(await post(R_PATH, body), 400, 'VALIDATION_ERROR', message);
  });

  it('S: an unknown or lower-case profile; R: a profile is no R field, an unknown language is refused', async () => {
    for (const profile of ['LEGAL', 'technical']) {
      expectS(
        await post(S_PATH, { text: 'a text', profile }),
        400,
        'VALIDATION_ERROR',
        'profile: must be one of [GENERAL, TECHNICAL]',
      );
    }
    expectProblem(
      await post(R_PATH, { text: 'a text', profile: 'GENERAL' }),
      400,
      'VALIDATION_ERROR',
      'profile: is not a known field',
    );
    const res = await post(R_PATH, { text: 'a text', language: 'xx' });
    expectProblem(res, 400, 'VALIDATION_ERROR');
    expect(res.json().detail).toMatch(/^language: must be one of \[auto, af, ar, .*, zh, zu\]$/);
  });

  it('S batch: no documents, a document without text or with a bad id → 400', async () => {
    expectS(
      await post(BATCH_PATH, { documents: [] }),
      400,
      'VALIDATION_ERROR',
      'documents: must contain at least 1 item',
    );
    expectS(
      await post(BATCH_PATH, { documents: [{ id: 'a', text: 'x' }, { id: 'b' }] }),
      400,
      'VALIDATION_ERROR',
      'documents[1].text: must not be blank',
    );
    expectS(
      await post(BATCH_PATH, { documents: [{ id: 7, text: 'x' }] }),
      400,
      'VALIDATION_ERROR',
      'documents[0].id: must be a string',
    );
  });

  it('a body over 64 KiB → 413 in the S error body', async () => {
    const res = await post(S_PATH, { text: '界'.repeat(30_000) });
    expectS(res, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('batch bounds: the smaller of the plan’s batch size and 100', () => {
  it.each([
    ['FREE', 10],
    ['BASIC', 50],
    ['PRO', 100],
    ['ENTERPRISE', 100],
  ] as const)('%s: %i documents pass, one more → 400', async (plan, bound) => {
    const ok = await post(BATCH_PATH, { documents: docs(bound), maxKeywords: 1 }, keys[plan]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.results).toHaveLength(bound);
    expectS(
      await post(BATCH_PATH, { documents: docs(bound + 1), maxKeywords: 1 }, keys[plan]),
      400,
      'VALIDATION_ERROR',
      `documents: must contain at most ${bound} items`,
    );
  });
});

describe('credentials', () => {
  it('no key → 401; a key for another service → 403 INSUFFICIENT_SCOPE', async () => {
    const none = await app.inject({ method: 'POST', url: S_PATH, payload: { text: 'a text' } });
    expectS(none, 401, 'UNAUTHORIZED');
    expectS(await post(S_PATH, { text: 'a text' }, otherScopeKey), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await post(R_PATH, { text: 'a text' }, otherScopeKey), 403, 'INSUFFICIENT_SCOPE');
  });
});

describe('metering', () => {
  it('counts answered 2xx calls under the keyword-extractor slug; a batch is one call', async () => {
    const usage = async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${meterToken}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.breakdown['keyword-extractor'] as number | undefined) ?? 0;
    };
    const before = await usage();
    expect((await post(S_PATH, { text: SHERLOCK }, meterKey)).statusCode).toBe(200);
    expect((await post(BATCH_PATH, { documents: docs(5) }, meterKey)).statusCode).toBe(200);
    expect((await post(R_PATH, { text: SHERLOCK }, meterKey)).statusCode).toBe(200);
    expect((await post(S_PATH, { text: ' ' }, meterKey)).statusCode).toBe(400);
    expect(await usage()).toBe(before + 3);
  });
});

describe('generated documents', () => {
  it('/openapi.json stays valid OpenAPI 3.1 and documents the three operations with their schemas', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(doc.paths[S_PATH].post.operationId).toBe('keywordExtractorExtract');
    expect(doc.paths[BATCH_PATH].post.operationId).toBe('keywordExtractorExtractBatch');
    expect(doc.paths[R_PATH].post.operationId).toBe('keywordsExtract');
    expect(JSON.stringify(doc.paths[R_PATH].post)).toContain('"auto"');
  });

  it('/api/mcp-tools.json has one tool per operation, under the keyword-extractor service', async () => {
    const { tools } = (await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json() as {
      tools: { name: string; service: string }[];
    };
    const ours = tools.filter((t) => t.service === 'keyword-extractor').map((t) => t.name);
    expect(ours.sort()).toEqual([
      'keywordExtractorExtract',
      'keywordExtractorExtractBatch',
      'keywordsExtract',
    ]);
  });
});
