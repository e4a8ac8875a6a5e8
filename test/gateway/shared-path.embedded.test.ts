import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { buildApp } from '../../gateway/app.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';

/** Two services on one path (as disposable-email and ip-reputation share /api/v1/check). */
const route = (slug: string, key: string): ServiceDefinition => {
  const def: RouteDefinition = {
    convention: 'D',
    method: 'POST',
    path: '/api/v1/shared-check',
    operationId: `sharedCheck_${key}`,
    summary: key,
    auth: 'apiKey',
    metered: true,
    match: (body) => typeof body === 'object' && body !== null && key in body,
    schemas: {
      body: { type: 'object', required: [key], properties: { [key]: { type: 'string', minLength: 3 } } },
      response: { 200: { type: 'object', properties: { checked: { type: 'string' } } } },
    },
    handler: async ({ body }) => ({ checked: (body as Record<string, string>)[key] }),
  };
  return { slug, title: slug, description: slug, routes: [def] };
};

let tp: TestPlatform;
let app: Awaited<ReturnType<typeof buildApp>>;
let token: string;

beforeAll(async () => {
  tp = await openTestPlatform();
  app = await buildApp({
    config: tp.config,
    health: async () => ({ status: 'UP', components: {} }),
    services: [
      ...tp.platform.services,
      route('disposable-email', 'email'),
      route('ip-reputation', 'ipAddress'),
    ],
    ports: tp.platform.ports,
    logger: false,
  });
  token = (await tp.createAccount({ plan: 'PRO' })).token;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await tp?.close();
});

const post = async (key: string, payload: object) =>
  app.inject({ method: 'POST', url: '/api/v1/shared-check', headers: { 'x-api-key': key }, payload });

it('checks the scope of the operation the body picked, and meters it under that service', async () => {
  const emailOnly = (await tp.createApiKey(token, { scopes: ['disposable-email'] })).key;
  expect((await post(emailOnly, { email: 'a@b.co' })).statusCode).toBe(200);
  const refused = await post(emailOnly, { ipAddress: '1.1.1.1' });
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toMatchObject({ error: 'INSUFFICIENT_SCOPE', status: 403 });
  // The scope decides before the operation's schema: a wrong-scope call learns nothing about validation.
  expect((await post(emailOnly, { ipAddress: 'x' })).statusCode).toBe(403);
  const ipOnly = (await tp.createApiKey(token, { scopes: ['ip-reputation'] })).key;
  expect((await post(ipOnly, { ipAddress: '1.1.1.1' })).statusCode).toBe(200);
  expect((await post(ipOnly, { email: 'a@b.co' })).statusCode).toBe(403);

  const usage = await app.inject({
    method: 'GET',
    url: '/api/portal/usage',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(usage.json().data.breakdown).toEqual({ 'disposable-email': 1, 'ip-reputation': 1 });
});
