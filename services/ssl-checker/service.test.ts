import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import type { CallContext, RouteDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { routeOf, testCallContext } from '../../core/service/testing.js';
import { GRADES } from './grading.js';
import { createSslCheckerService } from './service.js';
import { TLS_VERSIONS } from './tls-versions.js';

/** Validation must refuse before any connection: an outbound port that fails the test if it is used. */
const unused = (): never => {
  throw new Error('the outbound client must not be used');
};
const noOutbound: OutboundClient = { fetch: unused, vet: unused, connectTcp: unused, connectTls: unused };
const service = createSslCheckerService({ outbound: noOutbound });

const ctx: CallContext = testCallContext();

const route = (operationId: string): RouteDefinition => routeOf(service, operationId);

/** The gateway's validators (gateway/app.ts): bodies strict, query values coerced. */
const bodyAjv = new Ajv({ allErrors: false, removeAdditional: false, useDefaults: true, coerceTypes: false });
const queryAjv = new Ajv({
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  coerceTypes: 'array',
});
addFormats.default(bodyAjv);
addFormats.default(queryAjv);

type RawSchema = Record<string, unknown> & {
  examples: unknown[];
  required: string[];
  properties: Record<string, Record<string, unknown>>;
  anyOf?: { required: string[] }[];
};
const rawSchema = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../schemas/api/ssl-checker/${name}`, import.meta.url), 'utf8'),
  ) as RawSchema;

const SCHEMAS = [
  's-check-query.json',
  's-check-response.json',
  'check-request.json',
  'check-response.json',
  'check-response-r.json',
  'check-bulk-request.json',
  'check-bulk-response.json',
  'check-batch-request.json',
  'check-batch-response.json',
];

/** SPEC.md 4.3 "SSL result fields", less processingTimeMs (the gateway's). */
const D_FIELDS = [
  'hostname',
  'port',
  'valid',
  'selfSigned',
  'issuer',
  'subject',
  'serialNumber',
  'signatureAlgorithm',
  'notBefore',
  'notAfter',
  'daysUntilExpiry',
  'subjectAlternativeNames',
  'protocol',
  'cipherSuite',
  'chainLength',
  'chainValid',
];
/** SPEC.md 4.4. */
const R_FIELDS = [
  'hostname',
  'grade',
  'issuer',
  'validFrom',
  'validUntil',
  'daysRemaining',
  'chainValid',
  'hostnameMatch',
  'protocols',
];
const S_FIELDS = ['domain', 'valid', 'issuer', 'expiresAt', 'daysRemaining'];
const FAILURE_FIELDS = ['hostname', 'valid', 'error', 'message'];

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

describe('the service definition', () => {
  it('declares the routes of SPEC.md 4.2–4.4: S, D and R on the shared path, the D bulk and R batch', () => {
    expect(service.slug).toBe('ssl-checker');
    expect(
      service.routes.map((r) => [r.convention, r.method, r.path, r.operationId, r.auth, r.metered, r.batch]),
    ).toEqual([
      ['S', 'GET', '/api/ssl-checker/check', 'sslCheckerCheck', 'apiKey', true, undefined],
      ['D', 'POST', '/api/v1/ssl/check', 'sslCheckDetailed', 'apiKey', true, undefined],
      ['R', 'POST', '/api/v1/ssl/check', 'sslCheckGraded', 'apiKey', true, undefined],
      ['D', 'POST', '/api/v1/ssl/check-bulk', 'sslCheckBulk', 'apiKey', true, { field: 'targets', max: 100 }],
      [
        'R',
        'POST',
        '/api/v1/ssl/check/batch',
        'sslCheckBatch',
        'apiKey',
        true,
        { field: 'targets', max: 100 },
      ],
    ]);
    for (const r of service.routes) {
      expect(r.summary.length).toBeGreaterThan(10);
      expect(r.description?.length).toBeGreaterThan(100);
      expect(Object.keys(r.schemas.response)).toEqual(['200']);
    }
  });

  it('the shared path: R only for `X-API-Convention: R`, D for anything else (exactly one matches)', () => {
    const d = route('sslCheckDetailed').match!;
    const r = route('sslCheckGraded').match!;
    const cases: [Record<string, string | string[] | undefined>, 'D' | 'R'][] = [
      [{}, 'D'],
      [{ 'x-api-convention': 'R' }, 'R'],
      [{ 'x-api-convention': ' R ' }, 'R'],
      [{ 'x-api-convention': ['R', 'D'] }, 'R'],
      [{ 'x-api-convention': 'D' }, 'D'],
      [{ 'x-api-convention': 'r' }, 'D'],
      [{ 'x-api-convention': 'RD' }, 'D'],
      [{ 'x-api-convention': '' }, 'D'],
    ];
    for (const [headers, expected] of cases) {
      const body = { hostname: 'example.com' };
      expect([d(body, headers), r(body, headers)], JSON.stringify(headers)).toEqual([
        expected === 'D',
        expected === 'R',
      ]);
    }
  });
});

describe('the schemas', () => {
  it('are valid draft 2020-12 and compile with the gateway’s validators', () => {
    // The results' anyOf branches only say which of the properties declared beside them are required.
    const strict = new Ajv2020({ strict: true, strictRequired: false });
    addFormats.default(strict);
    for (const name of SCHEMAS) {
      const raw = rawSchema(name);
      expect(strict.validateSchema(raw), name).toBe(true);
      expect(() => strict.compile(raw), name).not.toThrow();
      expect(() => bodyAjv.compile(apiSchema(`ssl-checker/${name}`)), name).not.toThrow();
    }
  });

  it('requests refuse unknown fields', () => {
    for (const name of SCHEMAS.filter((n) => n.includes('request') || n.includes('query'))) {
      expect(rawSchema(name).additionalProperties, name).toBe(false);
    }
    const items = rawSchema('check-bulk-request.json').properties.targets!.items as RawSchema;
    expect(items.additionalProperties).toBe(false);
  });

  it('the shared-path results require every D and R field, or the CONNECTION_FAILED fields', () => {
    for (const name of ['check-response.json', 'check-response-r.json']) {
      const raw = rawSchema(name);
      expect(Object.keys(raw.properties).sort(), name).toEqual(
        [...new Set([...D_FIELDS, ...R_FIELDS, 'error', 'message'])].sort(),
      );
      expect(raw.additionalProperties, name).toBe(false);
      const [success, failure] = raw.anyOf!;
      expect([...new Set([...raw.required, ...success!.required])].sort()).toEqual(
        [...new Set([...D_FIELDS, ...R_FIELDS])].sort(),
      );
      expect([...new Set([...raw.required, ...failure!.required])].sort()).toEqual(
        [...FAILURE_FIELDS, 'port'].sort(),
      );
    }
    expect(rawSchema('check-response.json').properties.issuer!.type).toBe('object');
    expect(rawSchema('check-response-r.json').properties.issuer!.type).toBe('string');
  });

  it('S requires its five fields; the enums are the code’s', () => {
    const s = rawSchema('s-check-response.json');
    expect(s.required).toEqual(S_FIELDS);
    const union = rawSchema('check-response.json').properties;
    expect(union.grade!.enum).toEqual([...GRADES]);
    expect((union.protocols!.items as { enum: string[] }).enum).toEqual([...TLS_VERSIONS]);
  });

  it('examples pass their own schemas', () => {
    for (const name of SCHEMAS) {
      const raw = rawSchema(name);
      expect(raw.examples.length, name).toBeGreaterThan(0);
      const validate = (name.includes('query') ? queryAjv : bodyAjv).compile(
        apiSchema(`ssl-checker/${name}`),
      );
      for (const example of raw.examples) {
        expect(validate(structuredClone(example)), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it('a failure result does not pass as a full result, nor a result missing a field', () => {
    const validate = bodyAjv.compile(apiSchema('ssl-checker/check-response.json'));
    const [full, failure] = rawSchema('check-response.json').examples as Record<string, unknown>[];
    expect(validate({ ...failure, valid: true })).toBe(false);
    const { grade: _grade, ...withoutGrade } = full!;
    expect(validate(withoutGrade)).toBe(false);
    expect(validate({ ...full, issuer: 'DigiCert Inc' })).toBe(false);
  });

  it('request bodies: hostname required, port an integer 1–65535 defaulting to 443', () => {
    const validate = bodyAjv.compile(apiSchema('ssl-checker/check-request.json'));
    const body: Record<string, unknown> = { hostname: 'example.com' };
    expect(validate(body)).toBe(true);
    expect(body.port).toBe(443);
    for (const bad of [{}, { hostname: '' }, { hostname: 'a', port: 0 }, { hostname: 'a', port: 65_536 }]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(validate({ hostname: 'a', port: '443' })).toBe(false);
  });
});

describe('input refused before any connection', () => {
  it('the shared path and S: 400 with the SPEC constraint, named by the field', async () => {
    for (const operationId of ['sslCheckDetailed', 'sslCheckGraded']) {
      const call = route(operationId).handler(
        { params: {}, query: {}, body: { hostname: 'exa mple.com', port: 443 }, headers: {} },
        ctx,
      );
      expect(await refusal(call)).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'hostname: must be a valid domain name',
      });
    }
    const s = route('sslCheckerCheck').handler(
      { params: {}, query: { domain: 'http://example.com' }, body: undefined, headers: {} },
      ctx,
    );
    expect(await refusal(s)).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'domain: must be a valid domain name',
    });
  });

  it('batches: an invalid item fails alone, in place', async () => {
    const r = (await route('sslCheckBatch').handler(
      {
        params: {},
        query: {},
        body: { targets: [{ hostname: 'a b' }, { hostname: 'example..com', port: 8443 }] },
        headers: {},
      },
      ctx,
    )) as { results: unknown[]; checkedAt: string };
    expect(r).toEqual({
      results: [
        {
          hostname: 'a b',
          port: 443,
          valid: false,
          error: 'VALIDATION_ERROR',
          message: 'hostname: must be a valid domain name',
        },
        {
          hostname: 'example..com',
          port: 8443,
          valid: false,
          error: 'VALIDATION_ERROR',
          message: 'hostname: must be a valid domain name',
        },
      ],
      checkedAt: '2026-01-01T00:00:00.000Z',
    });
  });
});
