/**
 * The log-redaction routes through the real gateway (embedded platform: SQLite, real keys, real limits):
 * routing on the shared path, validation messages, error bodies per convention, the two 413s, batch bounds
 * by plan, metering headers, key scopes and the generated documents.
 */

import { Validator } from '@seriousme/openapi-schema-validator';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import {
  BODY_LIMIT,
  createLogRedactionService,
  MAX_CONTENT_BYTES,
} from '../../services/log-redaction/service.js';
import { openTestPlatform, type TestKey } from '../support/platform.js';

const tp = await openTestPlatform();
// The composition root may already list the service (cli/platform.ts); the test must not declare it twice.
const services = tp.platform.services.some((s) => s.slug === 'log-redaction')
  ? tp.platform.services
  : [...tp.platform.services, createLogRedactionService()];
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

let enterprise: TestKey;
let free: TestKey;
let otherScope: TestKey;

beforeAll(async () => {
  const [big, small] = await Promise.all([tp.createAccount({ plan: 'ENTERPRISE' }), tp.createAccount()]);
  [enterprise, free, otherScope] = await Promise.all([
    tp.createApiKey(big.token, { scopes: ['log-redaction'] }),
    tp.createApiKey(small.token, { scopes: ['*'] }),
    tp.createApiKey(big.token, { scopes: ['readability'] }),
  ]);
}, 30_000);

const post = (
  url: string,
  payload: unknown,
  key: TestKey | null = enterprise,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...(key ? { 'x-api-key': key.key } : {}), 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const json = (res: LightMyRequestResponse) => res.json() as Record<string, unknown>;

describe('POST /api/v1/redact (shared by D and R)', () => {
  it('takes a D body {content, contentType}: 200 with D’s and R’s fields and processingTimeMs', async () => {
    const content =
      '203.0.113.42 - - [10/Oct/2023:13:55:36 +0000] "GET /?email=bob%40example.org HTTP/1.1" 200';
    const res = await post('/api/v1/redact', { content, contentType: 'TEXT' });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body.redactedContent).toBe(
      '[IP_REDACTED] - - [10/Oct/2023:13:55:36 +0000] "GET /?email=[EMAIL_REDACTED] HTTP/1.1" 200',
    );
    expect(body.redacted).toBe(body.redactedContent);
    expect(body.totalDetections).toBe(2);
    expect(body.detections).toEqual([
      {
        type: 'IP_ADDRESS',
        originalValue: '203.0.113.42',
        startIndex: 0,
        endIndex: 12,
        replacement: '[IP_REDACTED]',
        offset: 0,
        length: 12,
      },
      {
        type: 'EMAIL',
        originalValue: 'bob%40example.org',
        startIndex: 59,
        endIndex: 76,
        replacement: '[EMAIL_REDACTED]',
        offset: 59,
        length: 17,
      },
    ]);
    expect(Number.isInteger(body.processingTimeMs)).toBe(true);
    expect(res.headers['x-ratelimit-limit']).toBe('3000');
  });

  it('redacts JSON content value by value, keeping the document', async () => {
    const content = JSON.stringify({
      user: 'bob',
      password: 'hunter2',
      ip: '2001:db8::1',
      n: 4111111111111111,
    });
    const res = await post('/api/v1/redact', { content, contentType: 'JSON' });
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(json(res).redactedContent as string)).toEqual({
      user: 'bob',
      password: '[PASSWORD_REDACTED]',
      ip: '[IP_REDACTED]',
      n: '[CREDIT_CARD_REDACTED]',
    });
  });

  it('takes an R body {text, rules}: 200 with R’s fields (and D’s)', async () => {
    const text = 'contact alice@example.com, card 4111-1111-1111-1111, ip 10.0.0.1';
    const res = await post('/api/v1/redact', { text, rules: ['EMAIL', 'CREDIT_CARD'] });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body.redacted).toBe('contact [EMAIL_REDACTED], card [CREDIT_CARD_REDACTED], ip 10.0.0.1');
    expect(
      (body.detections as { type: string; offset: number; length: number }[]).map((d) => [
        d.type,
        d.offset,
        d.length,
      ]),
    ).toEqual([
      ['EMAIL', 8, 17],
      ['CREDIT_CARD', 32, 19],
    ]);
    expect(body.redactedContent).toBe(body.redacted);
  });

  it('answers validation errors with the RFC 7807 object plus D’s error and message', async () => {
    const cases: [unknown, string][] = [
      [{ content: 'x', contentType: 'XML' }, 'contentType: must be one of [TEXT, JSON]'],
      [{ content: '' }, 'content: must not be blank'],
      [{ content: '  \n ' }, 'content: must not be blank'],
      [{}, 'content: must not be blank'],
      [{ content: 42 }, 'content: must be a string'],
      [{ content: 'x', extra: 1 }, 'extra: is not a known field'],
      [
        { content: 'not json', contentType: 'JSON' },
        'content: must be valid JSON (one document, or JSON Lines)',
      ],
      [{ text: '' }, 'text: must not be blank'],
      [
        { text: 'x', rules: ['EMAIL', 'SHOE_SIZE'] },
        `rules[1]: must be one of [${'EMAIL, SSN, CREDIT_CARD, PHONE, API_KEY, IP_ADDRESS, JWT, IBAN, MAC_ADDRESS, PASSWORD, PRIVATE_KEY'}]`,
      ],
      [{ text: 'x', rules: [] }, 'rules: must contain at least 1 item'],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/api/v1/redact', payload);
      expect(res.statusCode, `${JSON.stringify(payload)} → ${res.body}`).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json(res)).toEqual({
        type: '/problems/validation-error',
        title: 'Validation error',
        status: 400,
        detail: message,
        instance: '/api/v1/redact',
        error: 'VALIDATION_ERROR',
        message,
      });
    }
  });

  it('refuses content over 1 MiB with 413 INPUT_TOO_LARGE, and a body over the limit with PAYLOAD_TOO_LARGE', async () => {
    const over = await post('/api/v1/redact', { content: 'a'.repeat(MAX_CONTENT_BYTES + 1) });
    expect(over.statusCode).toBe(413);
    expect(json(over)).toMatchObject({
      status: 413,
      error: 'INPUT_TOO_LARGE',
      type: '/problems/input-too-large',
    });
    // 1 MiB of content in a body that JSON escaping has made larger than 1 MiB is still accepted.
    const quotes = await post('/api/v1/redact', { content: '"a"\n'.repeat(MAX_CONTENT_BYTES / 4) });
    expect(quotes.statusCode, quotes.body.slice(0, 200)).toBe(200);
    const huge = await post('/api/v1/redact', { content: 'a'.repeat(BODY_LIMIT) });
    expect(huge.statusCode).toBe(413);
    expect(json(huge)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', message: 'body: exceeds the size limit' });
  });

  it('finishes an adversarial megabyte promptly', async () => {
    const started = performance.now();
    const res = await post('/api/v1/redact', { content: 'a@'.repeat(MAX_CONTENT_BYTES / 2) });
    expect(res.statusCode).toBe(200);
    expect(json(res).totalDetections).toBe(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('POST /api/v1/redact/analyze (D)', () => {
  it('lists what would be redacted, with confidence, and never the redacted text', async () => {
    const res = await post('/api/v1/redact/analyze', { content: 'key AKIAIOSFODNN7EXAMPLE ssn 078-05-1120' });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body).toEqual({
      detections: [
        { type: 'API_KEY', value: 'AKIAIOSFODNN7EXAMPLE', startIndex: 4, endIndex: 24, confidence: 'HIGH' },
        { type: 'SSN', value: '078-05-1120', startIndex: 29, endIndex: 40, confidence: 'MEDIUM' },
      ],
      totalDetections: 2,
      wouldRedact: true,
      processingTimeMs: expect.any(Number),
    });
  });

  it('answers errors with D’s {error, message, status}, and 413 with {error, message} only', async () => {
    const bad = await post('/api/v1/redact/analyze', { content: 'x', contentType: 'text' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'contentType: must be one of [TEXT, JSON]',
      status: 400,
    });
    const big = await post('/api/v1/redact/analyze', { content: 'é'.repeat(MAX_CONTENT_BYTES / 2 + 1) });
    expect(big.statusCode).toBe(413);
    expect(json(big)).toEqual({
      error: 'INPUT_TOO_LARGE',
      message: 'content: must be at most 1 MiB (1048576 bytes of UTF-8)',
    });
  });
});

describe('POST /api/v1/redact/batch (R)', () => {
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: `l${i}`, text: `from 10.0.0.${i % 250}` }));

  it('redacts every item, each result carrying its id and index', async () => {
    const res = await post('/api/v1/redact/batch', {
      items: [{ id: 'x', text: 'mail a@b.io' }, { text: ' ' }, { text: 'ip 10.0.0.1', rules: ['EMAIL'] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = json(res) as { results: Record<string, unknown>[] };
    expect(results.map((r) => [r.index, r.id, r.redacted, r.totalDetections, r.error])).toEqual([
      [0, 'x', 'mail [EMAIL_REDACTED]', 1, null],
      [1, null, null, 0, { code: 'VALIDATION_ERROR', message: 'items[1].text: must not be blank' }],
      [2, null, 'ip 10.0.0.1', 0, null],
    ]);
  });

  it('is bounded by the plan’s batch size (FREE: 10), and by the endpoint’s 1,000 for ENTERPRISE', async () => {
    const ok = await post('/api/v1/redact/batch', { items: items(10) }, free);
    expect(ok.statusCode, ok.body).toBe(200);
    const over = await post('/api/v1/redact/batch', { items: items(11) }, free);
    expect(over.statusCode).toBe(400);
    expect(json(over)).toMatchObject({ detail: 'items: must contain at most 10 items', status: 400 });
    expect(json(over)).not.toHaveProperty('error');
    const many = await post('/api/v1/redact/batch', { items: items(1000) });
    expect(many.statusCode).toBe(200);
    expect((json(many).results as unknown[]).length).toBe(1000);
    expect((await post('/api/v1/redact/batch', { items: items(1001) })).statusCode).toBe(400);
  });
});

describe('keys and metering', () => {
  it('needs a key with the log-redaction scope', async () => {
    const none = await post('/api/v1/redact', { content: 'x' }, null);
    expect(none.statusCode).toBe(401);
    const scoped = await post('/api/v1/redact/analyze', { content: 'x' }, otherScope);
    expect(scoped.statusCode).toBe(403);
    expect(json(scoped)).toMatchObject({ error: 'INSUFFICIENT_SCOPE' });
  });

  it('counts each call against the key’s rate window', async () => {
    const a = await post('/api/v1/redact/analyze', { content: 'x' });
    const b = await post('/api/v1/redact/analyze', { content: 'y' });
    expect(Number(b.headers['x-ratelimit-remaining'])).toBe(Number(a.headers['x-ratelimit-remaining']) - 1);
  });
});

describe('generated documents', () => {
  it('list the four operations in a valid OpenAPI 3.1 document and the MCP manifest', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/api/v1/redact']?.post?.operationId).toBe('logRedactionRedactOrlogRedactionRedactText');
    expect(doc.paths['/api/v1/redact/analyze']?.post?.operationId).toBe('logRedactionAnalyze');
    expect(doc.paths['/api/v1/redact/batch']?.post?.operationId).toBe('logRedactionRedactBatch');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    const tools = (
      (await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json() as {
        tools: { name: string }[];
      }
    ).tools.map((t) => t.name);
    expect(tools).toEqual(
      expect.arrayContaining([
        'logRedactionRedact',
        'logRedactionRedactText',
        'logRedactionAnalyze',
        'logRedactionRedactBatch',
      ]),
    );
  });
});
