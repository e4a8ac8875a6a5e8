import { describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config/config.js';
import { AppError } from '../core/errors/catalogue.js';
import { reply, type ServiceDefinition } from '../core/service/definition.js';
import { buildApp } from './app.js';

const echo = {
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string', minLength: 1 } },
  additionalProperties: false,
};
const out = { type: 'object', required: ['length'], properties: { length: { type: 'integer' } } };

/** A service of public routes in every convention: the gateway's shaping, without credentials. */
const demo: ServiceDefinition = {
  slug: 'readability',
  title: 'demo',
  description: 'demo',
  routes: [
    ...(['S', 'R', 'D'] as const).map((convention) => ({
      convention,
      method: 'POST' as const,
      path: `/api/${convention.toLowerCase()}/len`,
      operationId: `len${convention}`,
      summary: 'length',
      auth: 'public' as const,
      metered: false,
      schemas: { body: echo, response: { 200: out } },
      handler: async ({ body }: { body: unknown }) => {
        const text = (body as { text: string }).text;
        if (text === 'boom') throw new Error('SELECT secret FROM /etc/passwd');
        if (text.trim() === '') throw new AppError('VALIDATION_ERROR', 'text: must not be blank');
        return { length: text.length };
      },
    })),
    {
      convention: 'D',
      method: 'POST',
      path: '/api/v1/shared',
      operationId: 'sharedEmail',
      summary: 'e-mail',
      auth: 'public',
      metered: false,
      match: (b) => typeof b === 'object' && b !== null && 'email' in b,
      schemas: {
        body: {
          type: 'object',
          required: ['email'],
          properties: { email: { type: 'string', format: 'email' } },
        },
        response: { 200: out },
      },
      handler: async () => ({ length: 1 }),
    },
    {
      convention: 'R',
      method: 'POST',
      path: '/api/v1/shared',
      operationId: 'sharedIp',
      summary: 'ip',
      auth: 'public',
      metered: false,
      match: (b) => typeof b === 'object' && b !== null && 'ipAddress' in b,
      schemas: {
        body: { type: 'object', required: ['ipAddress'], properties: { ipAddress: { type: 'string' } } },
        response: { 200: out },
      },
      handler: async () => reply({ length: 2 }, { status: 201, headers: { 'x-demo': 'yes' } }),
    },
  ],
};

const app = () =>
  buildApp({
    config: loadConfig({}, { dotenv: false }),
    health: async () => ({ status: 'UP', components: {} }),
    services: [demo],
    logger: false,
  });
const post = async (url: string, payload: unknown) =>
  (await app()).inject({ method: 'POST', url, payload: payload as object });

describe('gateway conventions', () => {
  it('wraps S in the envelope, adds processingTimeMs to D, leaves R bare', async () => {
    expect((await post('/api/s/len', { text: 'abc' })).json()).toEqual({ status: 'OK', data: { length: 3 } });
    const d = (await post('/api/d/len', { text: 'abc' })).json();
    expect(d).toMatchObject({ length: 3 });
    expect(Number.isInteger(d.processingTimeMs)).toBe(true);
    expect((await post('/api/r/len', { text: 'abc' })).json()).toEqual({ length: 3 });
  });

  it('renders validation errors as `<field>: <constraint>` in each convention', async () => {
    const s = await post('/api/s/len', { text: '' });
    expect(s.statusCode).toBe(400);
    expect(s.json()).toEqual({
      status: 'ERROR',
      error: { code: 'VALIDATION_ERROR', message: 'text: must not be blank' },
    });
    const d = await post('/api/d/len', {});
    expect(d.json()).toEqual({ error: 'VALIDATION_ERROR', message: 'text: must not be blank', status: 400 });
    const r = await post('/api/r/len', { text: 'a', extra: 1 });
    expect(r.headers['content-type']).toContain('application/problem+json');
    expect(r.json()).toEqual({
      type: '/problems/validation-error',
      title: 'Validation error',
      status: 400,
      detail: 'extra: is not a known field',
      instance: '/api/r/len',
    });
    expect((await post('/api/s/len', { text: 5 })).json().error.message).toBe('text: must be a string');
  });

  it('never leaks an unexpected error, and answers malformed JSON and oversize bodies with clear codes', async () => {
    const boom = await post('/api/d/len', { text: 'boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.body).not.toMatch(/passwd|SELECT|at /);
    expect(boom.json()).toEqual({
      error: 'INTERNAL_ERROR',
      message: 'Something went wrong on our side',
      status: 500,
    });
    const a = await app();
    const bad = await a.inject({
      method: 'POST',
      url: '/api/s/len',
      headers: { 'content-type': 'application/json' },
      payload: '{"text":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    const big = await post('/api/d/len', { text: 'x'.repeat(70 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: 'body: exceeds the size limit' });
  });

  it('picks the operation of a shared path by body shape, answering R and D fields together on errors', async () => {
    expect((await post('/api/v1/shared', { email: 'a@b.co' })).json()).toMatchObject({ length: 1 });
    const r = await post('/api/v1/shared', { ipAddress: '1.1.1.1' });
    expect(r.statusCode).toBe(201);
    expect(r.headers['x-demo']).toBe('yes');
    const bad = await post('/api/v1/shared', { email: 'nope' });
    expect(bad.json()).toMatchObject({
      status: 400,
      error: 'VALIDATION_ERROR',
      message: 'email: must be a well-formed email address',
      type: '/problems/validation-error',
    });
    expect((await post('/api/v1/shared', { other: 1 })).statusCode).toBe(400);
  });

  it('answers unknown paths 404 in the path convention, with X-Request-Id', async () => {
    const a = await app();
    const v1 = await a.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(v1.statusCode).toBe(404);
    expect(v1.json()).toMatchObject({ type: '/problems/not-found', error: 'NOT_FOUND', status: 404 });
    const s = await a.inject({ method: 'GET', url: '/api/nope', headers: { 'x-request-id': 'abc-1' } });
    expect(s.json()).toMatchObject({ status: 'ERROR', error: { code: 'NOT_FOUND' } });
    expect(s.headers['x-request-id']).toBe('abc-1');
  });

  it('refuses plain HTTP when HTTPS is required, except health probes', async () => {
    const a = await buildApp({
      config: loadConfig({ REQUIRE_HTTPS: 'true' }, { dotenv: false }),
      health: async () => ({ status: 'UP', components: {} }),
      services: [demo],
      logger: false,
    });
    const r = await a.inject({ method: 'POST', url: '/api/s/len', payload: { text: 'a' } });
    expect(r.statusCode).toBe(403);
    expect(r.json().error.code).toBe('HTTPS_REQUIRED');
    expect((await a.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
