import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, JsonSchema, RouteDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { routeOf, testCallContext } from '../../core/service/testing.js';
import {
  type AnalyzeResult,
  type BatchItemResult,
  BODY_LIMIT,
  createLogRedactionService,
  MAX_CONTENT_BYTES,
  type RedactResult,
} from './service.js';
import { DETECTION_TYPES } from './types.js';

const service = createLogRedactionService();
const ctx: CallContext = testCallContext();

const route = (operationId: string): RouteDefinition => routeOf(service, operationId);
const call = (operationId: string, body: unknown) =>
  route(operationId).handler({ params: {}, query: {}, body, headers: {} }, ctx);

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
const raw = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../schemas/api/log-redaction/${name}`, import.meta.url), 'utf8'),
  ) as Record<string, unknown> & { examples?: unknown[] };

const SCHEMAS = [
  'content-request.json',
  'text-request.json',
  'batch-request.json',
  'redact-response.json',
  'analyze-response.json',
  'batch-response.json',
];

describe('createLogRedactionService', () => {
  it('declares the routes of SPEC.md 4.3 and 4.4', () => {
    expect(service.slug).toBe('log-redaction');
    expect(
      service.routes.map((r) => [
        r.method,
        r.path,
        r.convention,
        r.operationId,
        r.auth,
        r.metered,
        r.batch?.max,
      ]),
    ).toEqual([
      ['POST', '/api/v1/redact', 'D', 'logRedactionRedact', 'apiKey', true, undefined],
      ['POST', '/api/v1/redact', 'R', 'logRedactionRedactText', 'apiKey', true, undefined],
      ['POST', '/api/v1/redact/analyze', 'D', 'logRedactionAnalyze', 'apiKey', true, undefined],
      ['POST', '/api/v1/redact/batch', 'R', 'logRedactionRedactBatch', 'apiKey', true, 1000],
    ]);
    expect(route('logRedactionRedactBatch').batch?.field).toBe('items');
    for (const r of service.routes) expect(r.bodyLimit, r.operationId).toBe(BODY_LIMIT);
    expect(BODY_LIMIT).toBeGreaterThanOrEqual(MAX_CONTENT_BYTES * 1.1);
  });

  it('lets the body shape pick the operation on the shared path: {text} is R, anything else D', () => {
    const d = route('logRedactionRedact').match!;
    const r = route('logRedactionRedactText').match!;
    for (const body of [
      { content: 'x' },
      { content: 'x', contentType: 'JSON' },
      {},
      { content: 'x', text: 'y' },
      [],
    ]) {
      expect([d(body, {}), r(body, {})], JSON.stringify(body)).toEqual([true, false]);
    }
    for (const body of [{ text: 'x' }, { text: 'x', rules: ['EMAIL'] }]) {
      expect([d(body, {}), r(body, {})], JSON.stringify(body)).toEqual([false, true]);
    }
  });
});

describe('schemas', () => {
  it('are valid JSON Schema 2020-12, and every example validates', () => {
    const ajv = new Ajv2020({ strict: true });
    for (const name of SCHEMAS) {
      const schema = raw(name);
      const validate = ajv.compile(schema);
      for (const example of schema.examples ?? [])
        expect(validate(example), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });

  it('refuse unknown request fields and require every response field', () => {
    for (const name of SCHEMAS) {
      const schema = raw(name) as { additionalProperties?: boolean; required?: string[]; properties: object };
      expect(schema.additionalProperties, name).toBe(false);
      if (name.includes('response'))
        expect([...(schema.required ?? [])].sort(), name).toEqual(Object.keys(schema.properties).sort());
    }
  });

  it('name SPEC.md’s fields: D and R on the shared path, D on analyze', () => {
    const redact = raw('redact-response.json') as {
      required: string[];
      properties: Record<string, JsonSchema>;
    };
    expect(redact.required).toEqual(
      expect.arrayContaining(['redactedContent', 'detections', 'totalDetections', 'redacted']),
    );
    const item = (redact.properties.detections as { items: { required: string[] } }).items;
    expect(item.required).toEqual(
      expect.arrayContaining([
        'type',
        'originalValue',
        'startIndex',
        'endIndex',
        'replacement',
        'offset',
        'length',
      ]),
    );
    const analyze = raw('analyze-response.json') as {
      required: string[];
      properties: Record<string, JsonSchema>;
    };
    expect(analyze.required).toEqual(['detections', 'totalDetections', 'wouldRedact']);
    const a = (analyze.properties.detections as { items: { required: string[] } }).items;
    expect(a.required).toEqual(['type', 'value', 'startIndex', 'endIndex', 'confidence']);
    const types = (item as unknown as { properties: { type: { enum: string[] } } }).properties.type.enum;
    expect(types).toEqual([...DETECTION_TYPES]);
  });

  it('give the gateway’s SPEC.md 7.3 messages for a wrong contentType and an empty content', () => {
    const validate = gatewayAjv.compile(apiSchema('log-redaction/content-request.json'));
    expect(validate({ content: 'x', contentType: 'XML' })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'enum', instancePath: '/contentType' });
    expect(validate({ content: '' })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'minLength', instancePath: '/content' });
    const body: Record<string, unknown> = { content: 'x' };
    expect(validate(body)).toBe(true);
    expect(body.contentType).toBe('TEXT');
  });

  it('document an example response that the handler really gives for the example request', async () => {
    const request = raw('content-request.json').examples![0];
    const response = raw('redact-response.json').examples![0];
    expect(await call('logRedactionRedact', request)).toEqual(response);
  });
});

describe('handlers', () => {
  it('redact (D) returns the redacted content and D’s and R’s detection fields', async () => {
    const content = 'login bob@example.com from 198.51.100.4';
    const result = (await call('logRedactionRedact', { content, contentType: 'TEXT' })) as RedactResult;
    expect(result).toEqual({
      redactedContent: 'login [EMAIL_REDACTED] from [IP_REDACTED]',
      redacted: 'login [EMAIL_REDACTED] from [IP_REDACTED]',
      detections: [
        {
          type: 'EMAIL',
          originalValue: 'bob@example.com',
          startIndex: 6,
          endIndex: 21,
          replacement: '[EMAIL_REDACTED]',
          offset: 6,
          length: 15,
        },
        {
          type: 'IP_ADDRESS',
          originalValue: '198.51.100.4',
          startIndex: 27,
          endIndex: 39,
          replacement: '[IP_REDACTED]',
          offset: 27,
          length: 12,
        },
      ],
      totalDetections: 2,
    });
    expect(result).not.toHaveProperty('processingTimeMs');
  });

  it('redact (D) in JSON mode keeps the document valid', async () => {
    const content = '{"user":{"email":"a@b.io","password":"hunter2"},"n":1}';
    const result = (await call('logRedactionRedact', { content, contentType: 'JSON' })) as RedactResult;
    expect(JSON.parse(result.redactedContent)).toEqual({
      user: { email: '[EMAIL_REDACTED]', password: '[PASSWORD_REDACTED]' },
      n: 1,
    });
    for (const d of result.detections) expect(content.slice(d.startIndex, d.endIndex)).toBe(d.originalValue);
  });

  it('redact (R) applies only the rules asked for', async () => {
    const text = 'contact alice@example.com, card 4111-1111-1111-1111, ip 10.0.0.1';
    const result = (await call('logRedactionRedactText', {
      text,
      rules: ['EMAIL', 'CREDIT_CARD'],
    })) as RedactResult;
    expect(result.redacted).toBe('contact [EMAIL_REDACTED], card [CREDIT_CARD_REDACTED], ip 10.0.0.1');
    expect(result.detections.map((d) => [d.type, d.offset, d.length])).toEqual([
      ['EMAIL', 8, 17],
      ['CREDIT_CARD', 32, 19],
    ]);
    const all = (await call('logRedactionRedactText', { text })) as RedactResult;
    expect(all.totalDetections).toBe(3);
  });

  it('analyze reports values with confidence and leaves the content alone', async () => {
    const content = 'ssn 078-05-1120 key AKIAIOSFODNN7EXAMPLE';
    const result = (await call('logRedactionAnalyze', { content })) as AnalyzeResult;
    expect(result).toEqual({
      detections: [
        { type: 'SSN', value: '078-05-1120', startIndex: 4, endIndex: 15, confidence: 'MEDIUM' },
        { type: 'API_KEY', value: 'AKIAIOSFODNN7EXAMPLE', startIndex: 20, endIndex: 40, confidence: 'HIGH' },
      ],
      totalDetections: 2,
      wouldRedact: true,
    });
    expect(result).not.toHaveProperty('redactedContent');
    const none = (await call('logRedactionAnalyze', { content: 'all quiet' })) as AnalyzeResult;
    expect(none).toEqual({ detections: [], totalDetections: 0, wouldRedact: false });
  });

  it('batch redacts each item with its rules (or the request’s), and fails bad items alone', async () => {
    const { results } = (await call('logRedactionRedactBatch', {
      rules: ['EMAIL'],
      items: [
        { id: 'a', text: 'mail a@b.io from 10.0.0.1' },
        { text: 'from 10.0.0.1', rules: ['IP_ADDRESS'] },
        { id: 'blank', text: '   ' },
        { id: 'big', text: 'x'.repeat(MAX_CONTENT_BYTES + 1) },
      ],
    })) as { results: BatchItemResult[] };
    expect(results.map((r) => [r.index, r.id, r.redacted, r.totalDetections, r.error])).toEqual([
      [0, 'a', 'mail [EMAIL_REDACTED] from 10.0.0.1', 1, null],
      [1, null, 'from [IP_REDACTED]', 1, null],
      [2, 'blank', null, 0, { code: 'VALIDATION_ERROR', message: 'items[2].text: must not be blank' }],
      [
        3,
        'big',
        null,
        0,
        { code: 'INPUT_TOO_LARGE', message: 'items[3].text: must be at most 1 MiB (1048576 bytes of UTF-8)' },
      ],
    ]);
    expect(results[0]!.detections[0]).toMatchObject({
      type: 'EMAIL',
      offset: 5,
      length: 6,
      originalValue: 'a@b.io',
    });
  });

  it('refuses blank content, content over 1 MiB of UTF-8 and JSON mode for non-JSON', async () => {
    expect(await errorOf(call('logRedactionRedact', { content: ' \n\t ', contentType: 'TEXT' }))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'content: must not be blank',
    });
    expect(await errorOf(call('logRedactionRedactText', { text: '  ' }))).toMatchObject({
      message: 'text: must not be blank',
    });
    // 524,289 two-byte characters: fewer than 1 MiB of UTF-16 code units, more than 1 MiB of UTF-8.
    const accents = 'é'.repeat(MAX_CONTENT_BYTES / 2 + 1);
    expect(await errorOf(call('logRedactionAnalyze', { content: accents }))).toEqual({
      code: 'INPUT_TOO_LARGE',
      status: 413,
      message: 'content: must be at most 1 MiB (1048576 bytes of UTF-8)',
    });
    expect(await errorOf(call('logRedactionRedact', { content: 'not json', contentType: 'JSON' }))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'content: must be valid JSON (one document, or JSON Lines)',
    });
  });

  it('accepts exactly 1 MiB of UTF-8', async () => {
    const content = `${'a'.repeat(MAX_CONTENT_BYTES - 20)} bob@example.com ...`.slice(0, MAX_CONTENT_BYTES);
    expect(Buffer.byteLength(content)).toBe(MAX_CONTENT_BYTES);
    const result = (await call('logRedactionRedact', { content })) as RedactResult;
    expect(result.totalDetections).toBe(1);
  });
});
