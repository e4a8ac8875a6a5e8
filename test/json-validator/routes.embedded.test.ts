/**
 * The json-validator behind the real gateway of an embedded platform: routing on the shared path, validation
 * messages, the error body of each path's convention, limits, keys and scopes, the generated documents, and
 * validations that run in real worker threads.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { WorkerPool } from '../../services/json-validator/pool.js';
import { profileSchema } from '../../services/json-validator/profiles.js';
import { SchemaCompiler } from '../../services/json-validator/schema-compiler.js';
import { createJsonValidatorService } from '../../services/json-validator/service.js';
import { validateValue } from '../../services/json-validator/validate.js';
import { openTestPlatform, type TestKey } from '../support/platform.js';

const TINY = { perMinute: 2, perDay: 1_000, perMonth: 1_000, batchSize: 10 };
const tp = await openTestPlatform({ plans: { TINY } });
const pool = new WorkerPool({ timeoutMs: 1_000 });
const app = await buildApp({
  config: tp.config,
  health: () => tp.rt.health(),
  // Once cli/platform.ts registers the service, the platform's own instance is replaced by this one.
  services: [
    ...tp.platform.services.filter((s) => s.slug !== 'json-validator'),
    createJsonValidatorService({ runner: pool }),
  ],
  ports: tp.platform.ports,
  logger: false,
  plugins: [docsPlugin(tp.config.PUBLIC_URL, 'test')],
});
afterAll(async () => {
  await app.close();
  await pool.close();
  await tp.close();
});

let key: TestKey;
let otherScope: TestKey;
let tiny: TestKey;
beforeAll(async () => {
  const [user, small] = await Promise.all([
    tp.createAccount({ plan: 'ENTERPRISE' }),
    tp.createAccount({ plan: 'TINY' }),
  ]);
  [key, otherScope, tiny] = await Promise.all([
    tp.createApiKey(user.token, { scopes: ['json-validator'] }),
    tp.createApiKey(user.token, { scopes: ['readability'] }),
    tp.createApiKey(small.token, { scopes: ['*'] }),
  ]);
}, 30_000);

const post = (url: string, payload: unknown, apiKey: string | null = key.key) =>
  app.inject({
    method: 'POST',
    url,
    headers: apiKey ? { 'x-api-key': apiKey } : {},
    payload: payload as object,
  });
const json = (res: LightMyRequestResponse) => res.json() as Record<string, unknown>;

const person = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
};

describe('POST /api/v1/validate (shared by D {json} and R {document})', () => {
  it('answers {json} in convention D, with processingTimeMs added by the gateway', async () => {
    const res = await post('/api/v1/validate', { json: '{"email": "x"}', mode: 'FULL', schema: person });
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(
      ['requestId', 'valid', 'mode', 'issueCount', 'issues', 'processingTimeMs'].sort(),
    );
    expect(body).toMatchObject({
      requestId: res.headers['x-request-id'],
      valid: false,
      mode: 'FULL',
      issueCount: 2,
      issues: [
        { severity: 'ERROR', category: 'SCHEMA', path: '/name', message: '/name is required' },
        {
          severity: 'ERROR',
          category: 'SCHEMA',
          path: '/email',
          message: '/email must match the format "email"',
        },
      ],
    });
    expect(Number.isInteger(body.processingTimeMs)).toBe(true);
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      expect(res.headers, h).toHaveProperty(h);
    }
  });

  it("answers {document} in convention R, carrying D's fields too (DESIGN.md section 7)", async () => {
    const res = await post('/api/v1/validate', { document: { name: 'Ada' }, schema: person });
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({ valid: true, issues: [], mode: 'SCHEMA', issueCount: 0 });
    expect(Object.keys(body).sort()).toEqual(
      ['requestId', 'valid', 'mode', 'issueCount', 'issues', 'processingTimeMs'].sort(),
    );
  });

  it('locates a syntax error by line and column', async () => {
    const res = await post('/api/v1/validate', { json: '{\n  "name": "Ada",\n}', mode: 'SYNTAX' });
    expect(json(res).issues).toEqual([
      {
        severity: 'ERROR',
        category: 'SYNTAX',
        path: null,
        message: "Trailing comma before '}' is not allowed",
        line: 3,
        column: 1,
      },
    ]);
  });

  it("renders refusals as RFC 7807 problems with D's error and message added", async () => {
    const cases: [unknown, number, string, string][] = [
      [{}, 400, 'VALIDATION_ERROR', 'body: must match one of the operations on /api/v1/validate'],
      [{ json: '', mode: 'FULL' }, 400, 'VALIDATION_ERROR', 'json: must not be blank'],
      [{ json: '  ', mode: 'FULL', schema: {} }, 400, 'VALIDATION_ERROR', 'json: must not be blank'],
      [{ json: '{}', mode: 'ALL' }, 400, 'VALIDATION_ERROR', 'mode: must be one of [SYNTAX, SCHEMA, FULL]'],
      [{ json: '{}', mode: 'FULL', extra: 1 }, 400, 'VALIDATION_ERROR', 'extra: is not a known field'],
      [{ document: 1, schema: 'x' }, 400, 'VALIDATION_ERROR', 'schema: must be an object'],
      [
        { json: '{}', mode: 'SCHEMA' },
        400,
        'VALIDATION_ERROR',
        'schema: must be given (or name a profile in profileName)',
      ],
      [
        { json: '{}', mode: 'FULL', profileName: 'swagger-2' },
        404,
        'PROFILE_NOT_FOUND',
        'profileName: no profile is named "swagger-2"; GET /api/v1/validate/profiles lists them',
      ],
      [
        { json: `${'['.repeat(257)}${']'.repeat(257)}`, mode: 'SYNTAX' },
        400,
        'VALIDATION_ERROR',
        'json: must not nest arrays and objects deeper than 256 levels',
      ],
    ];
    for (const [payload, status, code, message] of cases) {
      const res = await post('/api/v1/validate', payload);
      const where = JSON.stringify(payload).slice(0, 60);
      expect(res.statusCode, where).toBe(status);
      expect(res.headers['content-type'], where).toMatch(/^application\/problem\+json/);
      expect(json(res), where).toEqual({
        type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
        title: expect.any(String),
        status,
        detail: message,
        instance: '/api/v1/validate',
        error: code,
        message,
      });
    }
  });

  it('refuses bodies over 64 KiB with 413 and "__proto__" keys with 400', async () => {
    const big = await post('/api/v1/validate', { json: `"${'x'.repeat(70 * 1024)}"`, mode: 'SYNTAX' });
    expect(big.statusCode).toBe(413);
    expect(json(big)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE', type: '/problems/payload-too-large' });
    const poisoned = await app.inject({
      method: 'POST',
      url: '/api/v1/validate',
      headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
      payload: '{"document": {"__proto__": {"admin": true}}, "schema": {}}',
    });
    expect(poisoned.statusCode).toBe(400);
    // Inside the json text, "__proto__" is just a key: it is validated like any other.
    const text = await post('/api/v1/validate', {
      json: '{"__proto__": 1}',
      mode: 'FULL',
      schema: { properties: { __proto__: { type: 'string' } } },
    });
    expect(json(text)).toMatchObject({ valid: true });
  });

  it('stops a catastrophic pattern at the deadline with 422, while other calls are answered', async () => {
    const slow = post('/api/v1/validate', {
      document: `${'a'.repeat(40)}!`,
      schema: { pattern: '^(a+)+$' },
    });
    const started = Date.now();
    const fast = await post('/api/v1/validate', { json: '[1]', mode: 'FULL', schema: { type: 'array' } });
    expect(fast.statusCode).toBe(200);
    const stopped = await slow;
    expect(stopped.statusCode).toBe(422);
    expect(json(stopped)).toMatchObject({ error: 'UNPROCESSABLE', type: '/problems/unprocessable' });
    expect(String(json(stopped).message)).toMatch(/^schema: validation took longer than 1000 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('GET /api/v1/validate/profiles (D) and POST /api/v1/validate/syntax (R)', () => {
  it("lists the profiles, and answers errors in D's shape", async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/v1/validate/profiles',
      headers: { 'x-api-key': key.key },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      profiles: ['geojson', 'openapi-3.1', 'package.json', 'tsconfig.json'],
      processingTimeMs: expect.any(Number),
    });
    const anonymous = await app.inject({ method: 'GET', url: '/api/v1/validate/profiles' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
    expect(json(anonymous)).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String), status: 401 });
  });

  it('checks syntax, and answers errors as RFC 7807 problems', async () => {
    const res = await post('/api/v1/validate/syntax', { json: "{'a': 1}" });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({
      valid: false,
      issues: [
        {
          severity: 'ERROR',
          path: null,
          message:
            "Expected a property name in double quotes or '}'; property names must use double quotes, not " +
            'single quotes',
          line: 1,
          column: 2,
        },
      ],
    });
    const blank = await post('/api/v1/validate/syntax', { json: '' });
    expect(blank.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(json(blank)).toEqual({
      type: '/problems/validation-error',
      title: 'Validation error',
      status: 400,
      detail: 'json: must not be blank',
      instance: '/api/v1/validate/syntax',
    });
  });
});

describe('keys, scopes and limits', () => {
  it('needs a key with the json-validator scope', async () => {
    const body = { json: '1', mode: 'SYNTAX' };
    expect((await post('/api/v1/validate', body, null)).statusCode).toBe(401);
    const wrong = await post('/api/v1/validate', body, otherScope.key);
    expect(wrong.statusCode).toBe(403);
    expect(json(wrong)).toMatchObject({ error: 'INSUFFICIENT_SCOPE', type: '/problems/insufficient-scope' });
  });

  it("counts calls against the plan's rate limit", async () => {
    const body = { document: 1, schema: {} };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await post('/api/v1/validate', body, tiny.key)).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('generated documents', () => {
  it('list every json-validator operation; the OpenAPI document passes the openapi-3.1 profile', async () => {
    const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(openapi.paths['/api/v1/validate']?.post?.operationId).toBe(
      'jsonValidatorValidateOrjsonValidatorValidateDocument',
    );
    expect(openapi.paths['/api/v1/validate/profiles']?.get?.operationId).toBe('jsonValidatorListProfiles');
    expect(openapi.paths['/api/v1/validate/syntax']?.post?.operationId).toBe('jsonValidatorCheckSyntax');
    const tools = JSON.stringify((await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json());
    for (const id of ['jsonValidatorValidate', 'jsonValidatorListProfiles', 'jsonValidatorCheckSyntax']) {
      expect(tools).toContain(id);
    }
    // The whole platform's document may exceed a request body: the domain checks it directly.
    const outcome = await validateValue(openapi, profileSchema('openapi-3.1'), new SchemaCompiler());
    expect(outcome.issues).toEqual([]);
  });
});
