import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { MemoryKvStore } from '../../core/kv/memory-kv.js';
import type {
  CallContext,
  JsonSchema,
  RouteDefinition,
  ServiceDefinition,
} from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { STRATEGIES } from './detect.js';
import {
  createDeduplicationService,
  DEFAULT_THRESHOLD,
  DEFAULT_TTL_HOURS,
  DETECT_BODY_LIMIT,
  MAX_RECORDS,
  MAX_TTL_HOURS,
} from './service.js';

const EXAMPLE_NOW = new Date('2026-01-15T09:30:00.000Z');

const ctx = (over: Partial<CallContext> = {}): CallContext => ({
  requestId: 'req-1',
  accountId: 'acc-1',
  keyId: 'key-1',
  roles: ['ROLE_USER'],
  plan: 'FREE',
  batchLimit: 10,
  ip: '127.0.0.1',
  now: () => EXAMPLE_NOW,
  ...over,
});

const route = (service: ServiceDefinition, operationId: string): RouteDefinition => {
  const found = service.routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`no route ${operationId}`);
  return found;
};
const fresh = (now?: () => Date) =>
  createDeduplicationService({ kv: new MemoryKvStore(), ...(now ? { now } : {}) });
const call = (service: ServiceDefinition, operationId: string, body: unknown, context = ctx()) =>
  route(service, operationId).handler({ params: {}, query: {}, body, headers: {} }, context);

/** The gateway's body validator (gateway/app.ts): formats, defaults applied, no coercion. */
const gatewayAjv = new Ajv({
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  coerceTypes: false,
});
addFormats.default(gatewayAjv);
const validator = (schema: JsonSchema) => gatewayAjv.compile(schema);
const rawSchema = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../schemas/api/deduplication/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown> & {
    examples: Record<string, unknown>[];
    properties: Record<string, Record<string, unknown>>;
    required: string[];
  };

const SCHEMAS = ['check-request.json', 'check-response.json', 'detect-request.json', 'detect-response.json'];

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

describe('the deduplication service definition', () => {
  it('declares the S check and the R detect routes of SPEC.md 4.2 and 4.4', () => {
    const service = fresh();
    expect(service.slug).toBe('deduplication');
    expect(
      service.routes.map((r) => [r.convention, r.method, r.path, r.operationId, r.auth, r.metered, r.batch]),
    ).toEqual([
      ['S', 'POST', '/api/deduplication/check', 'deduplicationCheck', 'apiKey', true, undefined],
      ['R', 'POST', '/api/v1/dedup/detect', 'dedupDetect', 'apiKey', true, undefined],
    ]);
    expect(route(service, 'deduplicationCheck').bodyLimit).toBeUndefined();
    expect(route(service, 'dedupDetect').bodyLimit).toBe(DETECT_BODY_LIMIT);
    for (const r of service.routes) {
      expect(r.description?.length).toBeGreaterThan(200);
      expect(Object.keys(r.schemas.response)).toEqual(['200']);
    }
  });

  it('has schemas that are valid draft 2020-12 and compile with the gateway validator', () => {
    const strict = new Ajv2020({ strict: true });
    addFormats.default(strict);
    for (const name of SCHEMAS) {
      const raw = rawSchema(name);
      expect(strict.validateSchema(raw), name).toBe(true);
      expect(() => strict.compile(raw)).not.toThrow();
      expect(() => validator(apiSchema(`deduplication/${name}`))).not.toThrow();
    }
  });

  it('requires every response field SPEC.md names, with its exact name', () => {
    const check = rawSchema('check-response.json');
    expect(check.required).toEqual(['result', 'hash', 'namespace', 'firstSeen', 'occurrences', 'expiresAt']);
    expect(Object.keys(check.properties)).toEqual(check.required);
    expect(check.properties.result!.enum).toEqual(['UNIQUE', 'EXACT_DUPLICATE']);
    const detect = rawSchema('detect-response.json');
    expect(detect.required).toEqual(['duplicateGroups', 'totalRecords', 'duplicatesFound']);
    const group = (detect.properties.duplicateGroups!.items as { required: string[] }).required;
    expect(group).toEqual(['similarity', 'indices', 'scores']);
    for (const raw of [check, detect]) expect(raw.additionalProperties).toBe(false);
  });

  it('states the limits and defaults the code has', () => {
    const check = rawSchema('check-request.json').properties;
    expect(check.ttlHours).toMatchObject({ minimum: 1, maximum: MAX_TTL_HOURS, default: DEFAULT_TTL_HOURS });
    const detect = rawSchema('detect-request.json').properties;
    expect(detect.records).toMatchObject({ maxItems: MAX_RECORDS });
    expect(detect.strategy).toMatchObject({ enum: [...STRATEGIES], default: 'FUZZY' });
    expect(detect.threshold).toMatchObject({ default: DEFAULT_THRESHOLD, maximum: 1, exclusiveMinimum: 0 });
  });
});

describe('request validation (by the gateway, from the schemas)', () => {
  const check = validator(apiSchema('deduplication/check-request.json'));
  const detect = validator(apiSchema('deduplication/detect-request.json'));

  it('check: needs content and namespace, refuses bad namespaces, ttlHours out of range and unknown fields', () => {
    for (const ok of [
      { content: '', namespace: 'a' },
      { content: 'x', namespace: 'A-z_0.9', ttlHours: 1 },
      { content: 'x', namespace: 'n'.repeat(100), ttlHours: 8760 },
    ]) {
      expect(check(ok), JSON.stringify(ok)).toBe(true);
    }
    for (const bad of [
      { namespace: 'a' },
      { content: 'x' },
      { content: 1, namespace: 'a' },
      { content: 'x', namespace: '' },
      { content: 'x', namespace: 'a:b' },
      { content: 'x', namespace: 'a b' },
      { content: 'x', namespace: 'é' },
      { content: 'x', namespace: 'n'.repeat(101) },
      { content: 'x', namespace: 'a', ttlHours: 0 },
      { content: 'x', namespace: 'a', ttlHours: 8761 },
      { content: 'x', namespace: 'a', ttlHours: 1.5 },
      { content: 'x', namespace: 'a', extra: true },
    ]) {
      expect(check(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('check: fills in the default ttlHours', () => {
    const body: Record<string, unknown> = { content: 'x', namespace: 'a' };
    expect(check(body)).toBe(true);
    expect(body.ttlHours).toBe(DEFAULT_TTL_HOURS);
  });

  it('detect: needs object records (1 to 10,000) and 1 to 10 distinct match fields', () => {
    const records = [{ a: 1 }];
    expect(detect({ records, matchFields: ['a'] })).toBe(true);
    expect(detect({ records: Array.from({ length: MAX_RECORDS }, () => ({})), matchFields: ['a'] })).toBe(
      true,
    );
    for (const bad of [
      { records: [], matchFields: ['a'] },
      { records: Array.from({ length: MAX_RECORDS + 1 }, () => ({})), matchFields: ['a'] },
      { records: [[1]], matchFields: ['a'] },
      { records: ['x'], matchFields: ['a'] },
      { records, matchFields: [] },
      { records, matchFields: ['a', 'a'] },
      { records, matchFields: [''] },
      { records, matchFields: Array.from({ length: 11 }, (_, i) => `f${i}`) },
      { records, matchFields: ['a'], strategy: 'PHONETIC' },
      { records, matchFields: ['a'], threshold: 0 },
      { records, matchFields: ['a'], threshold: 1.01 },
      { records, matchFields: ['a'], extra: 1 },
      { matchFields: ['a'] },
      { records },
    ]) {
      expect(detect(bad), JSON.stringify(bad).slice(0, 60)).toBe(false);
    }
  });

  it('has examples that pass their own schemas', () => {
    for (const name of SCHEMAS) {
      const validate = validator(apiSchema(`deduplication/${name}`));
      for (const example of rawSchema(name).examples)
        expect(validate(structuredClone(example)), name).toBe(true);
    }
  });
});

describe('POST /api/deduplication/check (S)', () => {
  it('returns what its documented example says', async () => {
    const service = fresh();
    expect(await call(service, 'deduplicationCheck', rawSchema('check-request.json').examples[0])).toEqual(
      rawSchema('check-response.json').examples[0],
    );
  });

  it('counts repeats, uses the default ttlHours, and takes the clock of deps over the gateway’s', async () => {
    const later = new Date('2026-06-01T00:00:00.000Z');
    const service = fresh(() => later);
    const first = await call(service, 'deduplicationCheck', { content: 'x', namespace: 'n' });
    expect(first).toMatchObject({
      result: 'UNIQUE',
      firstSeen: later.toISOString(),
      expiresAt: new Date(later.getTime() + DEFAULT_TTL_HOURS * 3_600_000).toISOString(),
    });
    expect(await call(service, 'deduplicationCheck', { content: 'x', namespace: 'n' })).toMatchObject({
      result: 'EXACT_DUPLICATE',
      occurrences: 2,
    });
    const response = validator(apiSchema('deduplication/check-response.json'));
    expect(response(first)).toBe(true);
  });

  it('keeps accounts apart by the key’s account, not by anything in the request', async () => {
    const service = fresh();
    await call(service, 'deduplicationCheck', { content: 'x', namespace: 'n' }, ctx({ accountId: 'a' }));
    expect(
      await call(service, 'deduplicationCheck', { content: 'x', namespace: 'n' }, ctx({ accountId: 'b' })),
    ).toMatchObject({ result: 'UNIQUE' });
  });

  it('refuses ill-formed Unicode, a bad namespace or ttlHours, and a call without an account', async () => {
    const service = fresh();
    expect(
      await errorOf(call(service, 'deduplicationCheck', { content: 'a\ud800', namespace: 'n' })),
    ).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'content: must be well-formed Unicode (no unpaired surrogates)',
    });
    expect(
      await errorOf(call(service, 'deduplicationCheck', { content: 'x', namespace: 'a:b' })),
    ).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: "namespace: must be 1 to 100 characters of letters, digits, '.', '_' or '-'",
    });
    expect(
      await errorOf(call(service, 'deduplicationCheck', { content: 'x', namespace: 'n', ttlHours: 9000 })),
    ).toMatchObject({ message: 'ttlHours: must be an integer from 1 to 8760' });
    expect(
      await errorOf(
        call(service, 'deduplicationCheck', { content: 'x', namespace: 'n' }, ctx({ accountId: null })),
      ),
    ).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('POST /api/v1/dedup/detect (R)', () => {
  it('returns what its documented example says', async () => {
    expect(await call(fresh(), 'dedupDetect', rawSchema('detect-request.json').examples[0])).toEqual(
      rawSchema('detect-response.json').examples[0],
    );
  });

  it('defaults to FUZZY at 0.85, and EXACT ignores the threshold', async () => {
    const records = [{ name: 'John Smith' }, { name: 'Jon Smith' }, { name: 'John Smith' }];
    const fuzzy = (await call(fresh(), 'dedupDetect', { records, matchFields: ['name'] })) as Record<
      string,
      unknown
    >;
    expect(fuzzy).toMatchObject({ totalRecords: 3, duplicatesFound: 2 });
    expect(Object.keys(fuzzy)).toEqual(['duplicateGroups', 'totalRecords', 'duplicatesFound']);
    expect(
      await call(fresh(), 'dedupDetect', {
        records,
        matchFields: ['name'],
        strategy: 'EXACT',
        threshold: 0.1,
      }),
    ).toEqual({
      duplicateGroups: [{ similarity: 1, indices: [0, 2], scores: { name: 1 } }],
      totalRecords: 3,
      duplicatesFound: 1,
    });
    expect(validator(apiSchema('deduplication/detect-response.json'))(fuzzy)).toBe(true);
  });

  it('refuses a match field that no record has, naming it', async () => {
    const body = { records: [{ name: 'a' }, { email: null }], matchFields: ['name', 'email', 'emial'] };
    expect(await errorOf(call(fresh(), 'dedupDetect', body))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'matchFields[2]: no record has the field "emial"',
    });
  });
});
