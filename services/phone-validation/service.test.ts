import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, RouteDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { NUMBER_TYPES, PARSE_STATUSES } from './analysis.js';
import { tableCarrierLookup } from './carriers.js';
import { BATCH_BODY_LIMIT, createPhoneValidationService, MAX_BATCH_ITEMS } from './service.js';
import { ERROR_CODES, OVERALL_DECISIONS, RESULT_CODES, WARNING_CODES } from './verdict.js';

/** Carrier data held in memory: prefixes of the national numbers, as the real files have them. */
const carriers = tableCarrierLookup(
  new Map([
    [44, new Map([['7400', 'Three']])],
    [
      33,
      new Map([
        ['6', 'Mobile Carrier'],
        ['1', 'Fixed Carrier'],
      ]),
    ],
    [1, new Map([['415555', 'Bay Carrier']])],
  ]),
);
const service = createPhoneValidationService({ carriers });

const ctx = (batchLimit = 1000): CallContext => ({
  requestId: 'req-1',
  accountId: 'acc-1',
  keyId: 'key-1',
  roles: ['ROLE_USER'],
  plan: 'ENTERPRISE',
  batchLimit,
  ip: '127.0.0.1',
  now: () => new Date('2026-01-01T00:00:00Z'),
});

const route = (operationId: string): RouteDefinition => {
  const found = service.routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`no route ${operationId}`);
  return found;
};
const post = (operationId: string, body: unknown, batchLimit?: number) =>
  route(operationId).handler({ params: {}, query: {}, body, headers: {} }, ctx(batchLimit)) as Promise<
    Record<string, unknown>
  >;
const get = (query: Record<string, unknown>) =>
  route('phoneValidationValidate').handler(
    { params: {}, query, body: undefined, headers: {} },
    ctx(),
  ) as Promise<Record<string, unknown>>;

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

/** The gateway's body validator (gateway/app.ts): defaults applied, no coercion. */
const gatewayAjv = new Ajv({
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  coerceTypes: false,
});
addFormats.default(gatewayAjv);
const validator = (name: string) => gatewayAjv.compile(apiSchema(`phone-validation/${name}`));
type RawSchema = Record<string, unknown> & {
  examples: unknown[];
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: boolean;
};
const rawSchema = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../schemas/api/phone-validation/${name}`, import.meta.url), 'utf8'),
  ) as RawSchema;

const SCHEMAS = [
  's-validate-query.json',
  's-validate-response.json',
  'validate-request.json',
  'validate-response.json',
  'validate-batch-request.json',
  'validate-batch-response.json',
  'r-validate-request.json',
  'r-validate-response.json',
  'r-validate-batch-request.json',
  'r-validate-batch-response.json',
];
/** SPEC.md 4.3's phone result fields (processingTimeMs is the gateway's), and the original carrier. */
const D_FIELDS = [
  'requestId',
  'originalInput',
  'sanitizedInput',
  'extension',
  'parseStatus',
  'possible',
  'valid',
  'overallDecision',
  'resultCode',
  'resultMessage',
  'countryCode',
  'regionCode',
  'numberType',
  'carrier',
  'e164',
  'internationalFormat',
  'nationalFormat',
  'rfc3966',
  'warnings',
  'errors',
  'metadataVersion',
];

describe('phone-validation definition', () => {
  it('declares the S, D and R routes of SPEC.md 4.2, 4.3 and 4.4', () => {
    expect(service.slug).toBe('phone-validation');
    expect(
      service.routes.map((r) => [r.convention, r.method, r.path, r.operationId, r.auth, r.metered, r.batch]),
    ).toEqual([
      ['S', 'GET', '/api/phone-validation/validate', 'phoneValidationValidate', 'apiKey', true, undefined],
      [
        'D',
        'POST',
        '/api/v1/phone-validation/validate',
        'phoneValidationValidateDetailed',
        'apiKey',
        true,
        undefined,
      ],
      [
        'D',
        'POST',
        '/api/v1/phone-validation/validate-batch',
        'phoneValidationValidateBatch',
        'apiKey',
        true,
        { field: 'items', max: 1000 },
      ],
      ['R', 'POST', '/api/v1/phone/validate', 'phoneValidate', 'apiKey', true, undefined],
      [
        'R',
        'POST',
        '/api/v1/phone/validate/batch',
        'phoneValidateBatch',
        'apiKey',
        true,
        { field: 'phoneNumbers', max: 1000 },
      ],
    ]);
    expect(MAX_BATCH_ITEMS).toBe(1000);
    for (const r of service.routes) {
      expect(r.summary.length).toBeGreaterThan(10);
      expect(r.description?.length).toBeGreaterThan(200);
      expect(Object.keys(r.schemas.response)).toEqual(['200']);
      expect(r.bodyLimit).toBe(r.batch ? BATCH_BODY_LIMIT : undefined);
    }
  });

  it('has schemas that are valid draft 2020-12 and compile with the gateway validator', () => {
    for (const name of SCHEMAS) {
      const strict = new Ajv2020({ strict: true });
      const raw = rawSchema(name);
      expect(strict.validateSchema(raw), name).toBe(true);
      expect(() => strict.compile(raw), name).not.toThrow();
      expect(() => validator(name), name).not.toThrow();
      expect(raw.additionalProperties, name).toBe(false);
    }
  });

  it('requires every response field with SPEC’s exact names, and nothing else', () => {
    const fields: [string, string[]][] = [
      [
        's-validate-response.json',
        ['valid', 'number', 'countryCode', 'carrier', 'lineType', 'nationalFormat'],
      ],
      ['validate-response.json', D_FIELDS],
      [
        'validate-batch-response.json',
        ['requestId', 'totalCount', 'validCount', 'invalidCount', 'warningCount', 'results'],
      ],
      ['r-validate-response.json', ['valid', 'e164', 'countryCode', 'type', 'carrier']],
      ['r-validate-batch-response.json', ['results']],
    ];
    for (const [name, expected] of fields) {
      const raw = rawSchema(name);
      expect(raw.required, name).toEqual(expected);
      expect(Object.keys(raw.properties), name).toEqual(expected);
    }
  });

  it('describes a batch item as the single result plus itemId and processingTimeMs', () => {
    const single = rawSchema('validate-response.json');
    const item = rawSchema('validate-batch-response.json').properties.results!.items as RawSchema;
    expect(item.required).toEqual(['itemId', ...D_FIELDS, 'processingTimeMs']);
    expect(item.additionalProperties).toBe(false);
    for (const field of D_FIELDS) expect(item.properties[field], field).toEqual(single.properties[field]);
    const short = rawSchema('r-validate-response.json');
    const rItem = rawSchema('r-validate-batch-response.json').properties.results!.items as RawSchema;
    expect(rItem.required).toEqual(['phoneNumber', ...short.required]);
    for (const field of short.required)
      expect(rItem.properties[field], field).toEqual(short.properties[field]);
  });

  it('lists the same enum values as the code', () => {
    const d = rawSchema('validate-response.json').properties;
    expect(d.parseStatus!.enum).toEqual([...PARSE_STATUSES]);
    expect(d.overallDecision!.enum).toEqual([...OVERALL_DECISIONS]);
    expect(d.resultCode!.enum).toEqual([...RESULT_CODES]);
    expect(d.numberType!.enum).toEqual([...NUMBER_TYPES]);
    expect((d.warnings!.items as { enum: string[] }).enum).toEqual([...WARNING_CODES]);
    expect((d.errors!.items as { enum: string[] }).enum).toEqual([...ERROR_CODES]);
    expect(rawSchema('s-validate-response.json').properties.lineType!.enum).toEqual([...NUMBER_TYPES]);
    expect(rawSchema('r-validate-response.json').properties.type!.enum).toEqual([...NUMBER_TYPES]);
  });

  it('has examples that pass their own schemas', () => {
    for (const name of SCHEMAS) {
      const validate = validator(name);
      for (const example of rawSchema(name).examples) {
        expect(validate(structuredClone(example)), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it('names the installed libphonenumber-js release as the metadata version', async () => {
    const { version } = createRequire(import.meta.url)('libphonenumber-js/package.json') as {
      version: string;
    };
    const result = await post('phoneValidationValidateDetailed', { rawInput: '+33 6 12 34 56 78' });
    expect(result.metadataVersion).toBe(`libphonenumber-js@${version} (max metadata v4)`);
  });
});

describe('request validation (by the gateway, from the schemas)', () => {
  it('refuses missing, empty, oversized or unknown fields and malformed regions', () => {
    const d = validator('validate-request.json');
    expect(d({ rawInput: '+1 415 555 2671' })).toBe(true);
    expect(d({ rawInput: '0', defaultRegion: 'gb' })).toBe(true);
    expect(d({ rawInput: 'x'.repeat(250) })).toBe(true);
    for (const body of [
      {},
      { rawInput: '' },
      { rawInput: 4155552671 },
      { rawInput: 'x'.repeat(251) },
      { rawInput: '1', extra: true },
      { rawInput: '1', defaultRegion: 'USA' },
      { rawInput: '1', defaultRegion: 'U1' },
      { rawInput: '1', defaultRegion: null },
    ]) {
      expect(d(body), JSON.stringify(body).slice(0, 60)).toBe(false);
    }
  });

  it('bounds batches at 1,000 items with an id each', () => {
    const d = validator('validate-batch-request.json');
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ rawInput: '1', itemId: `i${i}` }));
    expect(d({ items: items(1000) })).toBe(true);
    expect(d({ items: items(1001) })).toBe(false);
    expect(d({ items: [] })).toBe(false);
    expect(d({ items: [{ rawInput: '1' }] })).toBe(false);
    expect(d({ items: [{ rawInput: '1', itemId: '' }] })).toBe(false);
    expect(d({ items: [{ rawInput: '1', itemId: 7 }] })).toBe(false);
    const r = validator('r-validate-batch-request.json');
    expect(r({ phoneNumbers: Array(1000).fill('1') })).toBe(true);
    expect(r({ phoneNumbers: Array(1001).fill('1') })).toBe(false);
    expect(r({ phoneNumbers: [''] })).toBe(false);
  });
});

describe('GET /api/phone-validation/validate (S)', () => {
  it('returns SPEC.md 4.2’s data: region as countryCode, the number type as lineType', async () => {
    expect(await get({ number: '+447400123456' })).toEqual({
      valid: true,
      number: '+447400123456',
      countryCode: 'GB',
      carrier: 'Three',
      lineType: 'MOBILE',
      nationalFormat: '07400 123456',
    });
  });

  it('reads a leading space as the + an unencoded query string turned into one', async () => {
    expect(await get({ number: ' 33612345678' })).toMatchObject({ valid: true, number: '+33612345678' });
    expect(await get({ number: '  33612345678' })).toMatchObject({ valid: true, countryCode: 'FR' });
  });

  it('answers input that is not a valid number with valid false, not an error', async () => {
    expect(await get({ number: 'not a number' })).toEqual({
      valid: false,
      number: 'not a number',
      countryCode: null,
      carrier: null,
      lineType: 'UNKNOWN',
      nationalFormat: null,
    });
    expect(await get({ number: '4155552671' })).toMatchObject({ valid: false, countryCode: null });
    expect(await get({ number: '+1 555 555 5555' })).toEqual({
      valid: false,
      number: '+15555555555',
      countryCode: null,
      carrier: null,
      lineType: 'UNKNOWN',
      nationalFormat: '(555) 555-5555',
    });
  });

  it('refuses a blank number', async () => {
    expect(await errorOf(get({ number: '   ' }))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'number: must not be blank',
    });
  });
});

describe('POST /api/v1/phone-validation/validate (D)', () => {
  it('returns every field of the phone result, for a mobile with an extension', async () => {
    expect(
      await post('phoneValidationValidateDetailed', {
        rawInput: '07400 123456 ext. 12',
        defaultRegion: 'gb',
      }),
    ).toEqual({
      requestId: 'req-1',
      originalInput: '07400 123456 ext. 12',
      sanitizedInput: '07400123456',
      extension: '12',
      parseStatus: 'SUCCESS',
      possible: true,
      valid: true,
      overallDecision: 'ACCEPTED_WITH_WARNINGS',
      resultCode: 'VALID',
      resultMessage: 'Valid mobile number for GB.',
      countryCode: 44,
      regionCode: 'GB',
      numberType: 'MOBILE',
      carrier: 'Three',
      e164: '+447400123456',
      internationalFormat: '+44 7400 123456 x12',
      nationalFormat: '07400 123456 x12',
      rfc3966: 'tel:+447400123456;ext=12',
      warnings: ['EXTENSION_PRESENT'],
      errors: [],
      metadataVersion: expect.stringMatching(/^libphonenumber-js@/),
    });
  });

  it('answers unparseable text with 200 and SPEC’s rejected result', async () => {
    expect(
      await post('phoneValidationValidateDetailed', { rawInput: 'call me', defaultRegion: 'US' }),
    ).toMatchObject({
      parseStatus: 'NOT_A_NUMBER',
      possible: false,
      valid: false,
      overallDecision: 'REJECTED',
      resultCode: 'PARSE_FAILURE',
      errors: ['NOT_A_NUMBER'],
      e164: null,
      carrier: null,
    });
  });

  it('names a carrier only for valid numbers of a mobile kind (Google’s getNameForNumber)', async () => {
    const carrierOf = async (rawInput: string) =>
      (await post('phoneValidationValidateDetailed', { rawInput, defaultRegion: 'FR' })).carrier;
    expect(await carrierOf('06 12 34 56 78')).toBe('Mobile Carrier');
    expect(await carrierOf('01 23 45 67 89')).toBeNull(); // fixed line, although a prefix matches
    expect(await carrierOf('06 12 34 56 789')).toBeNull(); // too long
    expect(await carrierOf('+1 415 555 2671')).toBe('Bay Carrier'); // FIXED_LINE_OR_MOBILE
  });

  it('refuses a blank input and a region without metadata', async () => {
    expect(await errorOf(post('phoneValidationValidateDetailed', { rawInput: ' \t ' }))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'rawInput: must not be blank',
    });
    for (const defaultRegion of ['UK', 'XX', 'ZZ']) {
      expect(
        await errorOf(post('phoneValidationValidateDetailed', { rawInput: '1', defaultRegion })),
      ).toEqual({
        code: 'VALIDATION_ERROR',
        status: 400,
        message: 'defaultRegion: must be a supported ISO 3166-1 alpha-2 region code',
      });
    }
  });
});

describe('POST /api/v1/phone-validation/validate-batch (D)', () => {
  it('returns one full result per item in order, with its itemId and time, and the counts', async () => {
    const body = await post('phoneValidationValidateBatch', {
      defaultRegion: 'US',
      items: [
        { rawInput: '(415) 555-2671', itemId: 'a' },
        { rawInput: '06 12 34 56 78', defaultRegion: 'FR', itemId: 'b' },
        { rawInput: '+44 7400 123456 x1', itemId: 'c' },
        { rawInput: 'nope', itemId: 'd' },
        { rawInput: '555 555 5555', itemId: 'e' },
      ],
    });
    const results = body.results as Record<string, unknown>[];
    expect(results.map((r) => [r.itemId, r.valid, r.overallDecision, r.regionCode, r.warnings])).toEqual([
      ['a', true, 'ACCEPTED', 'US', []],
      ['b', true, 'ACCEPTED', 'FR', []],
      ['c', true, 'ACCEPTED_WITH_WARNINGS', 'GB', ['REGION_MISMATCH', 'EXTENSION_PRESENT']],
      ['d', false, 'REJECTED', null, []],
      ['e', false, 'REVIEW', 'US', []],
    ]);
    expect(body).toMatchObject({
      requestId: 'req-1',
      totalCount: 5,
      validCount: 3,
      invalidCount: 2,
      warningCount: 1,
    });
    for (const r of results) {
      expect(Object.keys(r)).toEqual(['itemId', ...D_FIELDS, 'processingTimeMs']);
      expect(r.requestId).toBe('req-1');
      expect(Number.isInteger(r.processingTimeMs)).toBe(true);
    }
    expect(validator('validate-batch-response.json')(body)).toBe(true);
  });

  it('gives each item the same result as the single validation', async () => {
    const inputs = ['+49 30 123456', '0800 123 4567', '12', '+800 1234 5678'];
    const batch = await post('phoneValidationValidateBatch', {
      defaultRegion: 'GB',
      items: inputs.map((rawInput, i) => ({ rawInput, itemId: String(i) })),
    });
    for (const [i, rawInput] of inputs.entries()) {
      const single = await post('phoneValidationValidateDetailed', { rawInput, defaultRegion: 'GB' });
      const { itemId, processingTimeMs, ...item } = (batch.results as Record<string, unknown>[])[i]!;
      expect([itemId, typeof processingTimeMs]).toEqual([String(i), 'number']);
      expect(item).toEqual(single);
    }
  });

  it('refuses more items than the call may carry, a blank item and a bad region', async () => {
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ rawInput: '+1 415 555 2671', itemId: `${i}` }));
    expect(await post('phoneValidationValidateBatch', { items: items(10) }, 10)).toMatchObject({
      totalCount: 10,
    });
    expect(await errorOf(post('phoneValidationValidateBatch', { items: items(11) }, 10))).toMatchObject({
      message: 'items: must contain at most 10 items',
    });
    const blank = [...items(2), { rawInput: ' ', itemId: 'x' }];
    expect(await errorOf(post('phoneValidationValidateBatch', { items: blank }))).toMatchObject({
      message: 'items[2].rawInput: must not be blank',
    });
    const region = [...items(1), { rawInput: '1', itemId: 'x', defaultRegion: 'EU' }];
    expect(await errorOf(post('phoneValidationValidateBatch', { items: region }))).toMatchObject({
      message: 'items[1].defaultRegion: must be a supported ISO 3166-1 alpha-2 region code',
    });
    expect(
      await errorOf(post('phoneValidationValidateBatch', { defaultRegion: 'UK', items: items(1) })),
    ).toMatchObject({
      message: 'defaultRegion: must be a supported ISO 3166-1 alpha-2 region code',
    });
  });

  it('validates 1,000 numbers in well under three seconds, even on a busy machine', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      rawInput: `+1 415 555 ${String(i).padStart(4, '0')}`,
      itemId: `${i}`,
    }));
    const started = performance.now();
    const body = await post('phoneValidationValidateBatch', { items });
    expect(body.totalCount).toBe(1000);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('POST /api/v1/phone/validate and /batch (R)', () => {
  it('returns SPEC.md 4.4’s resource: the region as countryCode', async () => {
    expect(await post('phoneValidate', { phoneNumber: '06 12 34 56 78', defaultCountry: 'FR' })).toEqual({
      valid: true,
      e164: '+33612345678',
      countryCode: 'FR',
      type: 'MOBILE',
      carrier: 'Mobile Carrier',
    });
    expect(await post('phoneValidate', { phoneNumber: '+44 7400 123456' })).toMatchObject({
      countryCode: 'GB',
    });
    expect(await post('phoneValidate', { phoneNumber: 'nope', defaultCountry: 'FR' })).toEqual({
      valid: false,
      e164: null,
      countryCode: null,
      type: 'UNKNOWN',
      carrier: null,
    });
  });

  it('refuses a blank number and an unknown country', async () => {
    expect(await errorOf(post('phoneValidate', { phoneNumber: '' }))).toMatchObject({
      message: 'phoneNumber: must not be blank',
    });
    expect(await errorOf(post('phoneValidate', { phoneNumber: '1', defaultCountry: 'XX' }))).toMatchObject({
      message: 'defaultCountry: must be a supported ISO 3166-1 alpha-2 region code',
    });
  });

  it('validates a batch in order, each result with its input', async () => {
    const body = await post('phoneValidateBatch', {
      phoneNumbers: ['+33 6 12 34 56 78', '(415) 555-2671', 'x'],
      defaultCountry: 'US',
    });
    expect(body).toEqual({
      results: [
        {
          phoneNumber: '+33 6 12 34 56 78',
          valid: true,
          e164: '+33612345678',
          countryCode: 'FR',
          type: 'MOBILE',
          carrier: 'Mobile Carrier',
        },
        {
          phoneNumber: '(415) 555-2671',
          valid: true,
          e164: '+14155552671',
          countryCode: 'US',
          type: 'FIXED_LINE_OR_MOBILE',
          carrier: 'Bay Carrier',
        },
        { phoneNumber: 'x', valid: false, e164: null, countryCode: null, type: 'UNKNOWN', carrier: null },
      ],
    });
    expect(validator('r-validate-batch-response.json')(body)).toBe(true);
    expect(await errorOf(post('phoneValidateBatch', { phoneNumbers: ['1', '2', '3'] }, 2))).toMatchObject({
      message: 'phoneNumbers: must contain at most 2 items',
    });
    expect(await errorOf(post('phoneValidateBatch', { phoneNumbers: ['1', '  '] }))).toMatchObject({
      message: 'phoneNumbers[1]: must not be blank',
    });
  });
});

describe('responses match their schemas', () => {
  const cases: [string, string, unknown][] = [
    ['phoneValidationValidateDetailed', 'validate-response.json', { rawInput: '+1 555 555 5555' }],
    ['phoneValidationValidateDetailed', 'validate-response.json', { rawInput: '+800 1234 5678' }],
    ['phoneValidationValidateDetailed', 'validate-response.json', { rawInput: 'x' }],
    ['phoneValidate', 'r-validate-response.json', { phoneNumber: '+1 2' }],
  ];
  it.each(cases)('%s %s %j', async (operationId, schema, body) => {
    const validate = validator(schema);
    expect(validate(await post(operationId, body)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('S data', async () => {
    const validate = validator('s-validate-response.json');
    for (const number of ['+447400123456', 'abc', '+800 1234 5678'])
      expect(validate(await get({ number }))).toBe(true);
  });

  it('a response schema refuses what SPEC does not allow (the check can fail)', () => {
    expect(
      validator('r-validate-response.json')({
        valid: true,
        e164: null,
        countryCode: 44,
        type: 'MOBILE',
        carrier: null,
      }),
    ).toBe(false);
  });
});
