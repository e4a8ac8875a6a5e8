/**
 * The phone-validation routes through the real gateway on a real embedded platform (SQLite, real keys and
 * plan limits, the real carrier files): the envelope and bodies of each convention, validation messages and
 * error bodies per convention, batch bounds by plan (FREE 10, the endpoint's 1,000 above), the batch body
 * limit, the documented examples, scopes, metering and the generated documents.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { BATCH_BODY_LIMIT, createPhoneValidationService } from '../../services/phone-validation/service.js';
import { openTestPlatform, type TestKey } from '../support/platform.js';

const tp = await openTestPlatform();
let app: FastifyInstance;
let enterprise: TestKey;
let free: TestKey;
let elsewhere: TestKey;

beforeAll(async () => {
  app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    // Once cli/platform.ts lists the service, the platform's own copy is replaced by this one.
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'phone-validation'),
      createPhoneValidationService(),
    ],
    ports: tp.platform.ports,
    logger: false,
    plugins: [docsPlugin(tp.config.PUBLIC_URL, '0.1.0')],
  });
  await app.ready();
  const [freeUser, bigUser] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'ENTERPRISE' }),
  ]);
  [free, enterprise, elsewhere] = await Promise.all([
    tp.createApiKey(freeUser.token, { scopes: ['phone-validation'] }),
    tp.createApiKey(bigUser.token, { scopes: ['phone-validation'] }),
    tp.createApiKey(bigUser.token, { scopes: ['readability'] }),
  ]);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await tp.close();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = Record<string, any>;
const json = (res: LightMyRequestResponse) => res.json() as Json;
const post = (url: string, payload: unknown, key: TestKey | null = enterprise) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...(key ? { 'X-API-Key': key.key } : {}), 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
const get = (query: string, key: TestKey | null = enterprise) =>
  app.inject({
    method: 'GET',
    url: `/api/phone-validation/validate${query}`,
    headers: key ? { 'X-API-KEY': key.key } : {},
  });
/** The first example of a schema file: what the documents show a caller. */
const example = (name: string): Json =>
  (
    JSON.parse(
      readFileSync(new URL(`../../schemas/api/phone-validation/${name}.json`, import.meta.url), 'utf8'),
    ) as { examples: Json[] }
  ).examples[0]!;

describe('GET /api/phone-validation/validate (S)', () => {
  it('answers in the S envelope with the region as countryCode and the original carrier', async () => {
    const res = await get('?number=%2B447400123456');
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({
      status: 'OK',
      data: {
        valid: true,
        number: '+447400123456',
        countryCode: 'GB',
        carrier: 'Three',
        lineType: 'MOBILE',
        nationalFormat: '07400 123456',
      },
    });
    expect(res.headers['x-ratelimit-limit']).toBe('3000');
  });

  it('reads an unencoded + (a space in a query string) as the +', async () => {
    const res = await get('?number=+8613912345678');
    expect(json(res).data).toEqual({
      valid: true,
      number: '+8613912345678',
      countryCode: 'CN',
      carrier: 'China Mobile',
      lineType: 'MOBILE',
      nationalFormat: '139 1234 5678',
    });
  });

  it('answers a number that is not valid with 200 and valid false', async () => {
    const res = await get(`?number=${encodeURIComponent('+1 555 123')}`);
    expect(res.statusCode).toBe(200);
    expect(json(res).data).toEqual({
      valid: false,
      number: '+1 555 123',
      countryCode: null,
      carrier: null,
      lineType: 'UNKNOWN',
      nationalFormat: null,
    });
  });

  it('answers validation errors with the S error body', async () => {
    const cases: [string, string][] = [
      ['', 'number: must not be blank'],
      ['?number=', 'number: must not be blank'],
      ['?number=%20%20', 'number: must not be blank'],
      [`?number=${'1'.repeat(251)}`, 'number: must be at most 250 characters'],
      ['?number=%2B33612345678&country=FR', 'country: is not a known field'],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect(res.statusCode, `${query} → ${res.body}`).toBe(400);
      expect(json(res)).toEqual({ status: 'ERROR', error: { code: 'VALIDATION_ERROR', message } });
    }
  });
});

describe('POST /api/v1/phone-validation/validate (D)', () => {
  it('returns the phone result with processingTimeMs, and the documented example', async () => {
    const res = await post('/api/v1/phone-validation/validate', example('validate-request'));
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(Number.isInteger(body.processingTimeMs)).toBe(true);
    expect(body.requestId).toBe(res.headers['x-request-id']);
    expect({ ...body, requestId: 'req-7f3a', processingTimeMs: undefined }).toEqual({
      ...example('validate-response'),
      processingTimeMs: undefined,
    });
  });

  it('applies defaultRegion only when the input has no country code', async () => {
    const national = json(
      await post('/api/v1/phone-validation/validate', { rawInput: '030 123456', defaultRegion: 'DE' }),
    );
    expect(national).toMatchObject({ e164: '+4930123456', regionCode: 'DE', numberType: 'FIXED_LINE' });
    const international = json(
      await post('/api/v1/phone-validation/validate', { rawInput: '+33 1 23 45 67 89', defaultRegion: 'DE' }),
    );
    expect(international).toMatchObject({
      e164: '+33123456789',
      regionCode: 'FR',
      overallDecision: 'ACCEPTED_WITH_WARNINGS',
      warnings: ['REGION_MISMATCH'],
    });
  });

  it('answers unparseable and too-short input with 200 and a REJECTED result (SPEC.md 4.3)', async () => {
    const text = await post('/api/v1/phone-validation/validate', {
      rawInput: 'not a phone',
      defaultRegion: 'US',
    });
    expect(text.statusCode).toBe(200);
    expect(json(text)).toMatchObject({
      parseStatus: 'NOT_A_NUMBER',
      possible: false,
      valid: false,
      overallDecision: 'REJECTED',
      resultCode: 'PARSE_FAILURE',
      errors: ['NOT_A_NUMBER'],
    });
    const short = await post('/api/v1/phone-validation/validate', { rawInput: '+1 555 123' });
    expect(short.statusCode).toBe(200);
    expect(json(short)).toMatchObject({
      parseStatus: 'TOO_SHORT',
      valid: false,
      overallDecision: 'REJECTED',
    });
  });

  it('answers validation errors with D’s {error, message, status}', async () => {
    const cases: [unknown, string][] = [
      [{}, 'rawInput: must not be blank'],
      [{ rawInput: '' }, 'rawInput: must not be blank'],
      [{ rawInput: ' ' }, 'rawInput: must not be blank'],
      [{ rawInput: 4155552671 }, 'rawInput: must be a string'],
      [{ rawInput: 'x'.repeat(251) }, 'rawInput: must be at most 250 characters'],
      [{ rawInput: '1', defaultRegion: 'USA' }, 'defaultRegion: has an invalid format'],
      [
        { rawInput: '1', defaultRegion: 'UK' },
        'defaultRegion: must be a supported ISO 3166-1 alpha-2 region code',
      ],
      [{ rawInput: '1', region: 'US' }, 'region: is not a known field'],
      ['{"rawInput":', 'body: must be valid JSON'],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/api/v1/phone-validation/validate', payload);
      expect(res.statusCode, `${JSON.stringify(payload)} → ${res.body}`).toBe(400);
      expect(json(res)).toEqual({ error: 'VALIDATION_ERROR', message, status: 400 });
    }
  });
});

describe('POST /api/v1/phone-validation/validate-batch (D)', () => {
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ rawInput: `+44 7400 ${String(100000 + i)}`, itemId: `row-${i}` }));

  it('returns every item’s result with its itemId, the counts and processingTimeMs', async () => {
    const res = await post('/api/v1/phone-validation/validate-batch', {
      defaultRegion: 'US',
      items: [
        { rawInput: '(415) 555-2671', itemId: 'a' },
        { rawInput: '+44 7400 123456', itemId: 'b' },
        { rawInput: 'call me', itemId: 'c' },
        { rawInput: '06 12 34 56 78', defaultRegion: 'FR', itemId: 'd' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({
      requestId: res.headers['x-request-id'],
      totalCount: 4,
      validCount: 3,
      invalidCount: 1,
      warningCount: 1,
      processingTimeMs: expect.any(Number),
    });
    expect(body.results.map((r: Json) => [r.itemId, r.e164, r.carrier, r.overallDecision])).toEqual([
      ['a', '+14155552671', null, 'ACCEPTED'],
      ['b', '+447400123456', 'Three', 'ACCEPTED_WITH_WARNINGS'],
      ['c', null, null, 'REJECTED'],
      ['d', '+33612345678', 'SFR', 'ACCEPTED'],
    ]);
    for (const r of body.results) expect(Number.isInteger(r.processingTimeMs)).toBe(true);
  });

  it('returns what its documented example says', async () => {
    const res = await post('/api/v1/phone-validation/validate-batch', example('validate-batch-request'));
    const body = json(res);
    const documented = example('validate-batch-response');
    expect(body.results[0]).toEqual({
      ...documented.results[0],
      requestId: body.requestId,
      processingTimeMs: body.results[0].processingTimeMs,
    });
    expect(body.totalCount).toBe(3);
  });

  it('is bounded by the plan’s batch size (FREE: 10), and the endpoint’s 1,000 for ENTERPRISE', async () => {
    const ok = await post('/api/v1/phone-validation/validate-batch', { items: items(10) }, free);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok).totalCount).toBe(10);
    const over = await post('/api/v1/phone-validation/validate-batch', { items: items(11) }, free);
    expect(over.statusCode).toBe(400);
    expect(json(over)).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'items: must contain at most 10 items',
      status: 400,
    });
    const many = await post('/api/v1/phone-validation/validate-batch', { items: items(1000) });
    expect(many.statusCode, many.body.slice(0, 200)).toBe(200);
    expect(json(many)).toMatchObject({ totalCount: 1000, validCount: 1000 });
    expect(json(many).results[999].itemId).toBe('row-999');
    const tooMany = await post('/api/v1/phone-validation/validate-batch', { items: items(1001) });
    expect(json(tooMany)).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'items: must contain at most 1000 items',
      status: 400,
    });
  });

  it('takes bodies over the default 64 KiB up to 512 KiB, and answers 413 above', async () => {
    const long = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        rawInput: `+1 415 555 2671 ext. ${i}${' '.repeat(200)}`,
        itemId: `${i}`,
      }));
    const big = { items: long(1000) };
    expect(JSON.stringify(big).length).toBeGreaterThan(200 * 1024);
    const res = await post('/api/v1/phone-validation/validate-batch', big);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const huge = await post('/api/v1/phone-validation/validate-batch', {
      items: [{ rawInput: '1', itemId: 'x'.repeat(BATCH_BODY_LIMIT) }],
    });
    expect(huge.statusCode).toBe(413);
    expect(json(huge)).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'body: exceeds the size limit' });
  });

  it('names the item at fault', async () => {
    const cases: [unknown, string][] = [
      [{ items: [] }, 'items: must contain at least 1 item'],
      [{ items: [{ rawInput: '1' }] }, 'items[0].itemId: must not be blank'],
      [{ items: [...items(2), { rawInput: '  ', itemId: 'z' }] }, 'items[2].rawInput: must not be blank'],
      [
        { items: [{ rawInput: '1', itemId: 'a', defaultRegion: 'EU' }] },
        'items[0].defaultRegion: must be a supported ISO 3166-1 alpha-2 region code',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/api/v1/phone-validation/validate-batch', payload);
      expect(json(res), JSON.stringify(payload).slice(0, 80)).toEqual({
        error: 'VALIDATION_ERROR',
        message,
        status: 400,
      });
    }
  });
});

describe('POST /api/v1/phone/validate and /batch (R)', () => {
  it('returns the bare resource, and the documented example', async () => {
    const res = await post('/api/v1/phone/validate', example('r-validate-request'));
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual(example('r-validate-response'));
    const batch = await post('/api/v1/phone/validate/batch', example('r-validate-batch-request'));
    expect(json(batch)).toEqual(example('r-validate-batch-response'));
  });

  it('answers validation errors with an RFC 7807 problem', async () => {
    const cases: [string, unknown, string][] = [
      ['/api/v1/phone/validate', {}, 'phoneNumber: must not be blank'],
      [
        '/api/v1/phone/validate',
        { phoneNumber: '1', defaultCountry: 'XX' },
        'defaultCountry: must be a supported ISO 3166-1 alpha-2 region code',
      ],
      ['/api/v1/phone/validate/batch', { phoneNumbers: ['1', 2] }, 'phoneNumbers[1]: must be a string'],
      ['/api/v1/phone/validate/batch', { phoneNumbers: [] }, 'phoneNumbers: must contain at least 1 item'],
    ];
    for (const [url, payload, detail] of cases) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)} → ${res.body}`).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json(res)).toEqual({
        type: '/problems/validation-error',
        title: 'Validation error',
        status: 400,
        detail,
        instance: url,
      });
    }
  });

  it('is bounded by the plan’s batch size (FREE: 10)', async () => {
    const numbers = (n: number) => Array.from({ length: n }, () => '+33 6 12 34 56 78');
    const ok = await post('/api/v1/phone/validate/batch', { phoneNumbers: numbers(10) }, free);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok).results).toHaveLength(10);
    const over = await post('/api/v1/phone/validate/batch', { phoneNumbers: numbers(11) }, free);
    expect(over.statusCode).toBe(400);
    expect(json(over)).toMatchObject({ detail: 'phoneNumbers: must contain at most 10 items', status: 400 });
  });
});

describe('keys and metering', () => {
  it('needs a key with the phone-validation scope', async () => {
    const none = await get('?number=%2B447400123456', null);
    expect(none.statusCode).toBe(401);
    expect(json(none)).toMatchObject({ status: 'ERROR', error: { code: 'UNAUTHORIZED' } });
    const scoped = await post('/api/v1/phone-validation/validate', { rawInput: '1' }, elsewhere);
    expect(scoped.statusCode).toBe(403);
    expect(json(scoped)).toMatchObject({ error: 'INSUFFICIENT_SCOPE', status: 403 });
  });

  it('counts each call, a batch as one, against the key’s rate window', async () => {
    const a = await post('/api/v1/phone/validate', { phoneNumber: '+33612345678' });
    const b = await post('/api/v1/phone/validate/batch', { phoneNumbers: ['+33612345678', '+447400123456'] });
    const c = await get('?number=%2B33612345678');
    const remaining = [a, b, c].map((r) => Number(r.headers['x-ratelimit-remaining']));
    expect(remaining).toEqual([remaining[0], remaining[0]! - 1, remaining[0]! - 2]);
  });
});

describe('generated documents', () => {
  it('list the five operations in a valid OpenAPI 3.1 document and the MCP manifest', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
    expect(doc.paths['/api/phone-validation/validate']?.get?.operationId).toBe('phoneValidationValidate');
    expect(doc.paths['/api/v1/phone-validation/validate']?.post?.operationId).toBe(
      'phoneValidationValidateDetailed',
    );
    expect(doc.paths['/api/v1/phone-validation/validate-batch']?.post?.operationId).toBe(
      'phoneValidationValidateBatch',
    );
    expect(doc.paths['/api/v1/phone/validate']?.post?.operationId).toBe('phoneValidate');
    expect(doc.paths['/api/v1/phone/validate/batch']?.post?.operationId).toBe('phoneValidateBatch');
    const result = await new Validator().validate(doc as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    const manifest = (await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json() as Json;
    const tools = manifest.tools.filter((t: Json) => t.service === 'phone-validation');
    expect(tools.map((t: Json) => [t.name, t.convention, t.method, t.path])).toEqual([
      ['phoneValidationValidate', 'S', 'GET', '/api/phone-validation/validate'],
      ['phoneValidationValidateDetailed', 'D', 'POST', '/api/v1/phone-validation/validate'],
      ['phoneValidationValidateBatch', 'D', 'POST', '/api/v1/phone-validation/validate-batch'],
      ['phoneValidate', 'R', 'POST', '/api/v1/phone/validate'],
      ['phoneValidateBatch', 'R', 'POST', '/api/v1/phone/validate/batch'],
    ]);
  });
});
