import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, JsonSchema, RouteDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { routeOf, testCallContext } from '../../core/service/testing.js';
import { inThreadRunner } from './jobs.js';
import { SchemaCompiler } from './schema-compiler.js';
import { createJsonValidatorService } from './service.js';

const service = createJsonValidatorService({ runner: inThreadRunner(new SchemaCompiler()) });

const ctx: CallContext = testCallContext();

const route = (operationId: string): RouteDefinition => routeOf(service, operationId);
const call = (operationId: string, body?: unknown) =>
  route(operationId).handler({ params: {}, query: {}, body, headers: {} }, ctx) as Promise<
    Record<string, unknown>
  >;

/** The gateway's body validator (gateway/app.ts): draft-07 ajv with formats, defaults, no coercion. */
const gatewayAjv = new Ajv({
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  coerceTypes: false,
});
addFormats.default(gatewayAjv);
const validator = (schema: JsonSchema) => gatewayAjv.compile(schema);

type RawSchema = Record<string, unknown> & {
  examples: Record<string, unknown>[];
  properties: Record<string, Record<string, unknown>>;
  required: string[];
};
const rawSchema = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../schemas/api/json-validator/${name}`, import.meta.url), 'utf8'),
  ) as RawSchema;

const SCHEMAS = [
  'validate-request.json',
  'validate-response.json',
  'validate-document-request.json',
  'validate-document-response.json',
  'syntax-request.json',
  'syntax-response.json',
  'profiles-response.json',
];
const D_FIELDS = ['requestId', 'valid', 'mode', 'issueCount', 'issues'];
const ISSUE_FIELDS = ['severity', 'category', 'path', 'message', 'line', 'column'];

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

describe('json-validator definition', () => {
  it('declares the D and R routes of SPEC.md 4.3 and 4.4', () => {
    expect(service.slug).toBe('json-validator');
    expect(
      service.routes.map((r) => [r.convention, r.method, r.path, r.operationId, r.auth, r.metered]),
    ).toEqual([
      ['D', 'POST', '/api/v1/validate', 'jsonValidatorValidate', 'apiKey', true],
      ['R', 'POST', '/api/v1/validate', 'jsonValidatorValidateDocument', 'apiKey', true],
      ['D', 'GET', '/api/v1/validate/profiles', 'jsonValidatorListProfiles', 'apiKey', true],
      ['R', 'POST', '/api/v1/validate/syntax', 'jsonValidatorCheckSyntax', 'apiKey', true],
    ]);
    for (const r of service.routes) {
      expect(r.summary.length).toBeGreaterThan(10);
      expect(r.description?.length).toBeGreaterThan(100);
      expect(Object.keys(r.schemas.response)).toEqual(['200']);
    }
  });

  it('tells the two operations of the shared path apart by the body ({json} or {document})', () => {
    const [d, r] = [route('jsonValidatorValidate'), route('jsonValidatorValidateDocument')];
    expect([d.match?.({ json: '1', mode: 'SYNTAX' }, {}), r.match?.({ json: '1' }, {})]).toEqual([
      true,
      false,
    ]);
    expect([d.match?.({ document: null }, {}), r.match?.({ document: null }, {})]).toEqual([false, true]);
    expect([d.match?.(['json'], {}), r.match?.('document', {})]).toEqual([false, false]);
  });

  it('has schemas that are valid draft 2020-12 and compile with the gateway validator', () => {
    const strict = new Ajv2020({ strict: true });
    addFormats.default(strict);
    for (const name of SCHEMAS) {
      const raw = rawSchema(name);
      expect(strict.validateSchema(raw), name).toBe(true);
      expect(() => strict.compile(raw)).not.toThrow();
      expect(() => validator(apiSchema(`json-validator/${name}`))).not.toThrow();
    }
  });

  it('requires the response fields named as in SPEC.md, and refuses unknown request fields', () => {
    const fields = (name: string) => {
      const raw = rawSchema(name);
      expect(Object.keys(raw.properties), name).toEqual(
        raw.required.concat(Object.keys(raw.properties).filter((k) => !raw.required.includes(k))),
      );
      return raw.required;
    };
    expect(fields('validate-response.json')).toEqual(D_FIELDS);
    expect(fields('validate-document-response.json')).toEqual([...D_FIELDS, 'processingTimeMs']);
    expect(fields('syntax-response.json')).toEqual(['valid', 'issues']);
    expect(fields('profiles-response.json')).toEqual(['profiles']);
    for (const name of ['validate-response.json', 'validate-document-response.json']) {
      const items = rawSchema(name).properties.issues!.items as RawSchema;
      expect(Object.keys(items.properties), name).toEqual(ISSUE_FIELDS);
      expect(items.required, name).toEqual(['severity', 'category', 'path', 'message']);
    }
    for (const name of SCHEMAS) expect(rawSchema(name).additionalProperties, name).toBe(false);
    expect(rawSchema('validate-request.json').required).toEqual(['json', 'mode']);
    expect(rawSchema('validate-document-request.json').required).toEqual(['document']);
  });

  it('has examples that pass their own schemas', () => {
    for (const name of SCHEMAS) {
      const validate = validator(apiSchema(`json-validator/${name}`));
      for (const example of rawSchema(name).examples) {
        expect(validate(structuredClone(example)), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it('refuses at the gateway what the request schemas refuse', () => {
    const d = validator(apiSchema('json-validator/validate-request.json'));
    for (const body of [
      { json: '', mode: 'FULL' },
      { json: '{}' },
      { json: '{}', mode: 'ALL' },
      { json: {}, mode: 'FULL' },
      { json: '{}', mode: 'FULL', schema: [] },
      { json: '{}', mode: 'FULL', extra: 1 },
    ]) {
      expect(d(body), JSON.stringify(body)).toBe(false);
    }
    const r = validator(apiSchema('json-validator/validate-document-request.json'));
    expect(r({ document: null, schema: true })).toBe(true);
    expect(r({ schema: {} })).toBe(false);
  });
});

describe('POST /api/v1/validate {json} (D)', () => {
  it('returns what its documented example says', async () => {
    const request = rawSchema('validate-request.json').examples[0];
    const { requestId, ...expected } = rawSchema('validate-response.json').examples[0]!;
    expect(await call('jsonValidatorValidate', request)).toEqual({ requestId: 'req-1', ...expected });
    expect(requestId).toBeTypeOf('string');
  });

  it('finds syntax issues with line and column, and answers valid only without issues', async () => {
    expect(await call('jsonValidatorValidate', { json: '{"a": [1, 2,]}', mode: 'SYNTAX' })).toEqual({
      requestId: 'req-1',
      valid: false,
      mode: 'SYNTAX',
      issueCount: 1,
      issues: [
        {
          severity: 'ERROR',
          category: 'SYNTAX',
          path: null,
          message: "Trailing comma before ']' is not allowed",
          line: 1,
          column: 13,
        },
      ],
    });
    expect(await call('jsonValidatorValidate', { json: ' {"a": 1} ', mode: 'SYNTAX' })).toMatchObject({
      valid: true,
      issueCount: 0,
      issues: [],
    });
  });

  it('validates against a profile named in any case', async () => {
    const body = { json: '{"type": "Point", "coordinates": [1]}', mode: 'FULL', profileName: 'GeoJSON' };
    expect(await call('jsonValidatorValidate', body)).toMatchObject({
      valid: false,
      issues: [
        { category: 'SCHEMA', path: '/coordinates', message: '/coordinates must have at least 2 items' },
      ],
    });
  });

  it('refuses an unknown profile with 404 PROFILE_NOT_FOUND, in every mode', async () => {
    for (const mode of ['SYNTAX', 'SCHEMA', 'FULL']) {
      expect(await errorOf(call('jsonValidatorValidate', { json: '{}', mode, profileName: 'nope' }))).toEqual(
        {
          code: 'PROFILE_NOT_FOUND',
          status: 404,
          message: 'profileName: no profile is named "nope"; GET /api/v1/validate/profiles lists them',
        },
      );
    }
  });

  it('needs a schema or a profile (not both) to validate against, and a text that is not blank', async () => {
    expect(await errorOf(call('jsonValidatorValidate', { json: '{}', mode: 'SCHEMA' }))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'schema: must be given (or name a profile in profileName)',
    });
    const both = { json: '{}', mode: 'FULL', schema: {}, profileName: 'geojson' };
    expect(await errorOf(call('jsonValidatorValidate', both))).toMatchObject({
      message: 'profileName: must not be given together with schema',
    });
    expect(await errorOf(call('jsonValidatorValidate', { json: ' \n\t', mode: 'SYNTAX' }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'json: must not be blank',
    });
    expect(await call('jsonValidatorValidate', { json: '1', mode: 'SYNTAX' })).toMatchObject({ valid: true });
  });

  it('answers with the documented response shape', async () => {
    const validate = validator(apiSchema('json-validator/validate-response.json'));
    for (const body of [
      { json: '[1,', mode: 'FULL', schema: {} },
      { json: '{"a": "x"}', mode: 'FULL', schema: { properties: { a: { type: 'integer' } } } },
      { json: '{}', mode: 'SCHEMA', schema: { $ref: 'https://example.com/s.json' } },
    ]) {
      const out = await call('jsonValidatorValidate', body);
      expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

describe('POST /api/v1/validate {document} (R)', () => {
  it('returns what its documented example says, with the D fields of the shared path', async () => {
    const request = rawSchema('validate-document-request.json').examples[0];
    const { requestId, processingTimeMs, ...expected } = rawSchema('validate-document-response.json')
      .examples[0]!;
    const out = await call('jsonValidatorValidateDocument', request);
    expect(out).toEqual({ requestId: 'req-1', ...expected, processingTimeMs: out.processingTimeMs });
    expect(Number.isInteger(out.processingTimeMs)).toBe(true);
    expect([requestId, processingTimeMs]).toBeDefined();
    expect(validator(apiSchema('json-validator/validate-document-response.json'))(out)).toBe(true);
  });

  it('takes the document as the JSON value, including null and strings', async () => {
    expect(
      await call('jsonValidatorValidateDocument', { document: null, schema: { type: 'null' } }),
    ).toMatchObject({
      valid: true,
      mode: 'SCHEMA',
    });
    expect(
      await call('jsonValidatorValidateDocument', { document: '{"a":1}', schema: { type: 'object' } }),
    ).toMatchObject({ valid: false, issues: [{ message: 'The document must be an object, not a string' }] });
  });

  it('accepts a profile instead of a schema, and needs one of them', async () => {
    expect(
      await call('jsonValidatorValidateDocument', {
        document: { name: 'Bad Name' },
        profileName: 'package.json',
      }),
    ).toMatchObject({ valid: false, issues: [{ path: '/name' }] });
    expect(await errorOf(call('jsonValidatorValidateDocument', { document: {} }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'schema: must be given (or name a profile in profileName)',
    });
  });
});

describe('POST /api/v1/validate/syntax (R) and GET /api/v1/validate/profiles (D)', () => {
  it('return what their documented examples say', async () => {
    const request = rawSchema('syntax-request.json').examples[0];
    expect(await call('jsonValidatorCheckSyntax', request)).toEqual(
      rawSchema('syntax-response.json').examples[0],
    );
    expect(await call('jsonValidatorListProfiles')).toEqual(rawSchema('profiles-response.json').examples[0]);
  });

  it('answers a valid text with no issues, and refuses a blank one', async () => {
    expect(await call('jsonValidatorCheckSyntax', { json: '{"a": [true, null]}' })).toEqual({
      valid: true,
      issues: [],
    });
    expect(await errorOf(call('jsonValidatorCheckSyntax', { json: '   ' }))).toMatchObject({
      message: 'json: must not be blank',
    });
  });
});
