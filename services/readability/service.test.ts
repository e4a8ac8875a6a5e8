import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, JsonSchema, RouteDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { routeOf, testCallContext } from '../../core/service/testing.js';
import { GRADE_LEVELS } from './formulas.js';
import { readabilityService, SUPPORTED_LANGUAGES } from './service.js';

const ctx: CallContext = testCallContext();

const route = (operationId: string): RouteDefinition => routeOf(readabilityService, operationId);
const call = (operationId: string, body: unknown) =>
  route(operationId).handler({ params: {}, query: {}, body, headers: {} }, ctx);

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
    readFileSync(new URL(`../../schemas/api/readability/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown> & {
    examples: unknown[];
    properties: Record<string, { enum?: unknown[] }>;
    required: string[];
  };

const SCHEMAS = [
  'score-request.json',
  'score-response.json',
  'analyze-request.json',
  'analyze-response.json',
];
const S_FIELDS = ['fleschKincaid', 'fleschReadingEase', 'gradeLevel', 'wordCount', 'sentenceCount'];
const R_FIELDS = [
  'fleschKincaidGrade',
  'fleschReadingEase',
  'gunningFog',
  'colemanLiau',
  'smogGrade',
  'ari',
  'wordCount',
  'sentenceCount',
  'avgWordsPerSentence',
];

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

describe('readabilityService definition', () => {
  it('declares the S and R routes of SPEC.md 4.2 and 4.4', () => {
    expect(readabilityService.slug).toBe('readability');
    expect(
      readabilityService.routes.map((r) => [
        r.convention,
        r.method,
        r.path,
        r.operationId,
        r.auth,
        r.metered,
      ]),
    ).toEqual([
      ['S', 'POST', '/api/readability/score', 'readabilityScore', 'apiKey', true],
      ['R', 'POST', '/api/v1/readability/analyze', 'readabilityAnalyze', 'apiKey', true],
    ]);
    for (const r of readabilityService.routes) {
      expect(r.summary.length).toBeGreaterThan(10);
      expect(r.description?.length).toBeGreaterThan(100);
      expect(r.schemas.body).toBeDefined();
      expect(Object.keys(r.schemas.response)).toEqual(['200']);
    }
  });

  it('has schemas that are valid draft 2020-12 and compile with the gateway validator', () => {
    const strict = new Ajv2020({ strict: true });
    for (const name of SCHEMAS) {
      const raw = rawSchema(name);
      expect(strict.validateSchema(raw), name).toBe(true);
      expect(() => strict.compile(raw)).not.toThrow();
      expect(() => validator(apiSchema(`readability/${name}`))).not.toThrow();
    }
  });

  it('requires every response field, with the exact names of SPEC.md, and nothing else', () => {
    for (const [name, fields] of [
      ['score-response.json', S_FIELDS],
      ['analyze-response.json', R_FIELDS],
    ] as const) {
      const raw = rawSchema(name);
      expect(raw.required, name).toEqual(fields);
      expect(Object.keys(raw.properties), name).toEqual(fields);
      expect(raw.additionalProperties, name).toBe(false);
    }
  });

  it('lists the grade labels and the supported languages as the code has them', () => {
    expect(rawSchema('score-response.json').properties.gradeLevel!.enum).toEqual(
      GRADE_LEVELS.map((l) => l.label),
    );
    expect(rawSchema('analyze-request.json').properties.language!.enum).toEqual([...SUPPORTED_LANGUAGES]);
  });
});

describe('request validation (by the gateway, from the schemas)', () => {
  const score = validator(apiSchema('readability/score-request.json'));
  const analyze = validator(apiSchema('readability/analyze-request.json'));

  it('accepts text, refuses a missing, empty, non-string or oversized text and unknown fields', () => {
    expect(score({ text: 'Hello.' })).toBe(true);
    for (const body of [
      {},
      { text: '' },
      { text: 42 },
      { text: 'a'.repeat(60_001) },
      { text: 'a', extra: 1 },
    ]) {
      expect(score(body), JSON.stringify(body).slice(0, 40)).toBe(false);
    }
    expect(score({ text: 'a'.repeat(60_000) })).toBe(true);
  });

  it('defaults the language to en and refuses any other', () => {
    const body: Record<string, unknown> = { text: 'Hello.' };
    expect(analyze(body)).toBe(true);
    expect(body.language).toBe('en');
    expect(analyze({ text: 'Hello.', language: 'fr' })).toBe(false);
    expect(analyze.errors?.[0]).toMatchObject({ keyword: 'enum', instancePath: '/language' });
  });

  it('has examples that pass their own schemas', () => {
    for (const name of SCHEMAS) {
      const validate = validator(apiSchema(`readability/${name}`));
      for (const example of rawSchema(name).examples)
        expect(validate(structuredClone(example)), name).toBe(true);
    }
  });
});

describe('POST /api/readability/score (S)', () => {
  it('returns the data object of SPEC.md 4.2', async () => {
    const data = await call('readabilityScore', {
      text: 'The Australian platypus is seemingly a hybrid of a mammal and reptilian creature.',
    });
    expect(data).toEqual({
      fleschKincaid: 11.26,
      fleschReadingEase: 37.46,
      gradeLevel: '10th-12th grade',
      wordCount: 13,
      sentenceCount: 1,
    });
    expect(validator(apiSchema('readability/score-response.json'))(data)).toBe(true);
  });

  it('returns what its documented example says', async () => {
    const request = rawSchema('score-request.json').examples[0];
    expect(await call('readabilityScore', request)).toEqual(rawSchema('score-response.json').examples[0]);
  });

  it('refuses blank text and text without a word with VALIDATION_ERROR', async () => {
    for (const text of [' ', '\n\t \u00a0\u2028']) {
      expect(await errorOf(call('readabilityScore', { text }))).toEqual({
        code: 'VALIDATION_ERROR',
        status: 400,
        message: 'text: must not be blank',
      });
    }
    expect(await errorOf(call('readabilityScore', { text: '!!! … 😀' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'text: must contain at least one word',
    });
  });
});

describe('POST /api/v1/readability/analyze (R)', () => {
  it('returns the resource of SPEC.md 4.4', async () => {
    const body = await call('readabilityAnalyze', { text: 'The cat sat on the mat.', language: 'en' });
    expect(body).toEqual({
      fleschKincaidGrade: -1.45,
      fleschReadingEase: 116.15,
      gunningFog: 2.4,
      colemanLiau: -4.07,
      smogGrade: 3.13,
      ari: -5.09,
      wordCount: 6,
      sentenceCount: 1,
      avgWordsPerSentence: 6,
    });
    expect(validator(apiSchema('readability/analyze-response.json'))(body)).toBe(true);
  });

  it('returns what its documented example says', async () => {
    const request = rawSchema('analyze-request.json').examples[0];
    expect(await call('readabilityAnalyze', request)).toEqual(rawSchema('analyze-response.json').examples[0]);
  });

  it('treats a missing language as en and refuses other languages', async () => {
    expect(await call('readabilityAnalyze', { text: 'Hello.' })).toMatchObject({ wordCount: 1 });
    expect(await errorOf(call('readabilityAnalyze', { text: 'Bonjour.', language: 'fr' }))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'language: must be one of [en]',
    });
  });

  it('refuses blank text', async () => {
    expect(await errorOf(call('readabilityAnalyze', { text: '   ' }))).toMatchObject({
      message: 'text: must not be blank',
    });
  });

  it('scores the S and R operations identically', async () => {
    const text = 'Readability is measured here. Both conventions use one analysis!';
    const s = (await call('readabilityScore', { text })) as Record<string, unknown>;
    const r = (await call('readabilityAnalyze', { text })) as Record<string, unknown>;
    expect([s.fleschKincaid, s.fleschReadingEase, s.wordCount, s.sentenceCount]).toEqual([
      r.fleschKincaidGrade,
      r.fleschReadingEase,
      r.wordCount,
      r.sentenceCount,
    ]);
  });
});
