import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, JsonSchema, RouteDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { DECLARATION } from './fixtures/declaration.js';
import { README } from './fixtures/readme.js';
import { BATCH_MAX, createKeywordExtractorService } from './service.js';
import { stopwordLanguages } from './stopwords.js';

const service = createKeywordExtractorService({ now: () => new Date('2026-01-01T00:00:00Z') });
const ctx = (batchLimit = 10): CallContext => ({
  requestId: 'req-1',
  accountId: 'acc-1',
  keyId: 'key-1',
  roles: ['ROLE_USER'],
  plan: 'FREE',
  batchLimit,
  ip: '127.0.0.1',
  now: () => new Date('2026-01-01T00:00:00Z'),
});

const route = (operationId: string): RouteDefinition => {
  const found = service.routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`no route ${operationId}`);
  return found;
};
// biome-ignore lint/suspicious/noExplicitAny: handler results are checked field by field
const call = (operationId: string, body: unknown, batchLimit?: number): Promise<any> =>
  route(operationId).handler({ params: {}, query: {}, body, headers: {} }, ctx(batchLimit));

/** The gateway's body validator (gateway/app.ts): defaults applied, no coercion. */
const gatewayAjv = new Ajv({
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  coerceTypes: false,
});
const validator = (schema: JsonSchema) => gatewayAjv.compile(schema);
const rawSchema = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../schemas/api/keyword-extractor/${name}`, import.meta.url), 'utf8'),
  ) as {
    examples: unknown[];
    properties: Record<string, { enum?: unknown[] }>;
    required: string[];
    additionalProperties: boolean;
  };
const PAIRS = [
  ['keywordExtractorExtract', 'extract-request.json', 'extract-response.json'],
  ['keywordExtractorExtractBatch', 'extract-batch-request.json', 'extract-batch-response.json'],
  ['keywordsExtract', 'v1-extract-request.json', 'v1-extract-response.json'],
] as const;
const SCHEMAS = PAIRS.flatMap(([, req, res]) => [req, res]);

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

describe('the service definition', () => {
  it('declares the S and R routes of SPEC.md 4.2 and 4.4', () => {
    expect(service.slug).toBe('keyword-extractor');
    expect(
      service.routes.map((r) => [r.convention, r.method, r.path, r.operationId, r.auth, r.metered, r.batch]),
    ).toEqual([
      ['S', 'POST', '/api/keyword-extractor/extract', 'keywordExtractorExtract', 'apiKey', true, undefined],
      [
        'S',
        'POST',
        '/api/keyword-extractor/extract/batch',
        'keywordExtractorExtractBatch',
        'apiKey',
        true,
        { field: 'documents', max: 100 },
      ],
      ['R', 'POST', '/api/v1/keywords/extract', 'keywordsExtract', 'apiKey', true, undefined],
    ]);
    for (const r of service.routes) {
      expect(r.summary.length).toBeGreaterThan(10);
      expect(r.description?.length).toBeGreaterThan(200);
      expect(Object.keys(r.schemas.response)).toEqual(['200']);
    }
  });

  it('has schemas that are valid draft 2020-12 and compile with the gateway validator', () => {
    const strict = new Ajv2020({ strict: true });
    for (const name of SCHEMAS) {
      const raw = rawSchema(name);
      expect(strict.validateSchema(raw), name).toBe(true);
      expect(() => strict.compile(raw)).not.toThrow();
      expect(() => validator(apiSchema(`keyword-extractor/${name}`))).not.toThrow();
      expect(raw.additionalProperties, name).toBe(false);
    }
  });

  it('requires every response field SPEC.md names, with its exact name', () => {
    expect(rawSchema('extract-response.json').required).toEqual(['keywords', 'profile', 'wordCount']);
    expect(rawSchema('extract-batch-response.json').required).toEqual(['results']);
    expect(rawSchema('v1-extract-response.json').required).toEqual(['keywords', 'language']);
    expect(Object.keys(rawSchema('v1-extract-request.json').properties)).toEqual([
      'text',
      'maxKeywords',
      'language',
    ]);
    expect(Object.keys(rawSchema('extract-request.json').properties)).toEqual([
      'text',
      'maxKeywords',
      'profile',
    ]);
  });

  it('lists exactly the languages with a stop-word list, and auto', () => {
    expect(rawSchema('v1-extract-request.json').properties.language!.enum).toEqual([
      'auto',
      ...stopwordLanguages(),
    ]);
    expect(stopwordLanguages()).toHaveLength(58);
  });

  it('has examples that pass their schemas and that the handlers reproduce', async () => {
    for (const [operationId, req, res] of PAIRS) {
      const request = structuredClone(rawSchema(req).examples[0]);
      expect(validator(apiSchema(`keyword-extractor/${req}`))(request), req).toBe(true);
      const response = await call(operationId, request);
      expect(validator(apiSchema(`keyword-extractor/${res}`))(response), res).toBe(true);
      expect(response, operationId).toEqual(rawSchema(res).examples[0]);
    }
  });
});

describe('request validation (by the gateway, from the schemas)', () => {
  const extract = validator(apiSchema('keyword-extractor/extract-request.json'));
  const batch = validator(apiSchema('keyword-extractor/extract-batch-request.json'));
  const v1 = validator(apiSchema('keyword-extractor/v1-extract-request.json'));

  it('defaults maxKeywords to 10, profile to GENERAL and language to auto', () => {
    const body: Record<string, unknown> = { text: 'Hello.' };
    expect(extract(body)).toBe(true);
    expect(body).toEqual({ text: 'Hello.', maxKeywords: 10, profile: 'GENERAL' });
    const r: Record<string, unknown> = { text: 'Hello.' };
    expect(v1(r)).toBe(true);
    expect(r).toEqual({ text: 'Hello.', maxKeywords: 10, language: 'auto' });
  });

  it('refuses bad text, maxKeywords outside 1..50 or not an integer, unknown profiles and fields', () => {
    expect(extract({ text: 'a'.repeat(60_000), maxKeywords: 50, profile: 'TECHNICAL' })).toBe(true);
    for (const body of [
      {},
      { text: '' },
      { text: 7 },
      { text: 'a'.repeat(60_001) },
      { text: 'a', maxKeywords: 0 },
      { text: 'a', maxKeywords: 51 },
      { text: 'a', maxKeywords: 2.5 },
      { text: 'a', maxKeywords: '5' },
      { text: 'a', profile: 'technical' },
      { text: 'a', profile: 'LEGAL' },
      { text: 'a', language: 'en' },
    ]) {
      expect(extract(body), JSON.stringify(body).slice(0, 50)).toBe(false);
    }
    expect(v1({ text: 'a', language: 'xx' })).toBe(false);
    expect(v1({ text: 'a', language: 'EN' })).toBe(false);
    expect(v1({ text: 'a', profile: 'GENERAL' })).toBe(false);
  });

  it('bounds batches to 1..100 documents of {id, text}', () => {
    const docs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `d${i}`, text: 'text' }));
    expect(batch({ documents: docs(1) })).toBe(true);
    expect(batch({ documents: docs(BATCH_MAX) })).toBe(true);
    for (const body of [
      { documents: [] },
      { documents: docs(BATCH_MAX + 1) },
      { documents: [{ id: 'a' }] },
      { documents: [{ id: '', text: 'x' }] },
      { documents: [{ id: 1, text: 'x' }] },
      { documents: [{ id: 'a', text: 'x', extra: 1 }] },
    ]) {
      expect(batch(body), JSON.stringify(body).slice(0, 50)).toBe(false);
    }
  });
});

describe('POST /api/keyword-extractor/extract (S)', () => {
  it('returns {keywords, profile, wordCount}; an omitted profile is GENERAL', async () => {
    const data = await call('keywordExtractorExtract', { text: DECLARATION, maxKeywords: 5 });
    expect(Object.keys(data)).toEqual(['keywords', 'profile', 'wordCount']);
    expect(data.profile).toBe('GENERAL');
    expect(data.keywords).toHaveLength(5);
    expect(data.wordCount).toBe(340);
    expect(validator(apiSchema('keyword-extractor/extract-response.json'))(data)).toBe(true);
    expect((await call('keywordExtractorExtract', { text: DECLARATION })).keywords).toHaveLength(10);
  });

  it('TECHNICAL keeps identifiers, versions, acronyms and code tokens', async () => {
    const data = await call('keywordExtractorExtract', {
      text: README,
      maxKeywords: 8,
      profile: 'TECHNICAL',
    });
    expect(data.profile).toBe('TECHNICAL');
    expect(data.keywords.map((k: { term: string }) => k.term)).toEqual(
      expect.arrayContaining(['Node.js', 'v2.3.1', 'HTTP/2', 'getUserById', 'ECONNRESET']),
    );
  });

  it('refuses blank text and text without a word with VALIDATION_ERROR', async () => {
    for (const text of [' ', '\n\t \u00a0\u2028']) {
      expect(await errorOf(call('keywordExtractorExtract', { text }))).toEqual({
        code: 'VALIDATION_ERROR',
        status: 400,
        message: 'text: must not be blank',
      });
    }
    expect(await errorOf(call('keywordExtractorExtract', { text: '!!! … 😀' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'text: must contain at least one word',
    });
  });

  it('checks maxKeywords and profile itself too', async () => {
    expect(await errorOf(call('keywordExtractorExtract', { text: 'x', maxKeywords: 0 }))).toMatchObject({
      message: 'maxKeywords: must be an integer from 1 to 50',
    });
    expect(await errorOf(call('keywordExtractorExtract', { text: 'x', profile: 'LEGAL' }))).toMatchObject({
      message: 'profile: must be one of [GENERAL, TECHNICAL]',
    });
  });
});

describe('POST /api/keyword-extractor/extract/batch (S)', () => {
  it('answers every document in order; a failing one carries its error, the others are unaffected', async () => {
    const data = await call('keywordExtractorExtractBatch', {
      documents: [
        { id: 'dec', text: DECLARATION },
        { id: 'blank', text: '   ' },
        { id: 'dec', text: DECLARATION },
        { id: 'symbols', text: '!!!' },
      ],
      maxKeywords: 3,
    });
    expect(data.results.map((r: { id: string }) => r.id)).toEqual(['dec', 'blank', 'dec', 'symbols']);
    expect(data.results[0].keywords).toHaveLength(3);
    expect(data.results[0]).toEqual(data.results[2]);
    expect(data.results[0]).not.toHaveProperty('error');
    expect(data.results[1]).toEqual({
      id: 'blank',
      keywords: [],
      error: { code: 'VALIDATION_ERROR', message: 'documents[1].text: must not be blank' },
    });
    expect(data.results[3].error.message).toBe('documents[3].text: must contain at least one word');
    expect(validator(apiSchema('keyword-extractor/extract-batch-response.json'))(data)).toBe(true);
  });

  it('applies the profile to every document and matches single extraction', async () => {
    const single = await call('keywordExtractorExtract', {
      text: README,
      maxKeywords: 5,
      profile: 'TECHNICAL',
    });
    const data = await call('keywordExtractorExtractBatch', {
      documents: [{ id: 'readme', text: README }],
      maxKeywords: 5,
      profile: 'TECHNICAL',
    });
    expect(data.results[0].keywords).toEqual(single.keywords);
  });

  it('refuses more documents than the call may carry (ctx.batchLimit)', async () => {
    const documents = Array.from({ length: 4 }, (_, i) => ({ id: `${i}`, text: 'text' }));
    expect(await errorOf(call('keywordExtractorExtractBatch', { documents }, 3))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'documents: must contain at most 3 items',
    });
    expect((await call('keywordExtractorExtractBatch', { documents }, 4)).results).toHaveLength(4);
  });
});

describe('POST /api/v1/keywords/extract (R)', () => {
  it('returns {keywords, language}: detected for auto or an omitted language', async () => {
    const data = await call('keywordsExtract', { text: DECLARATION, maxKeywords: 4 });
    expect(Object.keys(data)).toEqual(['keywords', 'language']);
    expect(data.language).toBe('en');
    expect(data.keywords).toHaveLength(4);
    const es = 'La ciudad de Madrid es la capital de España. Madrid tiene museos famosos.';
    expect((await call('keywordsExtract', { text: es, language: 'auto' })).language).toBe('es');
    expect(validator(apiSchema('keyword-extractor/v1-extract-response.json'))(data)).toBe(true);
  });

  it('uses the language it is given', async () => {
    const es = 'La ciudad de Madrid es la capital de España. Madrid tiene museos famosos.';
    const data = await call('keywordsExtract', { text: es, language: 'en' });
    expect(data.language).toBe('en');
  });

  it('refuses a language without a stop-word list', async () => {
    expect(await errorOf(call('keywordsExtract', { text: 'x', language: 'xx' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^language: must be one of \[auto, af, ar, /),
    });
  });
});
