/**
 * The disposable-email routes through the real gateway on a real embedded platform (SQLite, kv, metering), with
 * the DNS layer on a local DNS server: the shared `/api/v1/check` path (and a stand-in IP operation on it), union
 * responses, validation messages and error bodies per convention, batch bounds by plan, overrides per account,
 * scopes, metering and the OpenAPI document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceDefinition } from '../../core/service/definition.js';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { createDisposableEmailService } from '../../services/disposable-email/service.js';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';
import { openTestPlatform, type TestAccount, type TestKey } from '../support/platform.js';
import { PROVIDERS } from './domains.js';

const tp = await openTestPlatform();
let dns: LocalDns;
let app: FastifyInstance;
let free: TestKey;
let pro: TestKey;
let enterprise: TestKey;
let other: TestKey;
let elsewhere: TestKey;
let proUser: TestAccount;

const NOW = new Date('2026-05-06T07:08:09.000Z');

const service = () =>
  createDisposableEmailService({ kv: tp.rt.kv, dnsServers: [dns.server], now: () => NOW, dnsTimeoutMs: 300 });

const build = async (services: ServiceDefinition[]) => {
  const built = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    // Once cli/platform.ts lists the service, the platform's own copy is replaced by this one (local DNS).
    // ip-reputation shares /api/v1/check; these tests pin the e-mail operations (with a stand-in where needed).
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'disposable-email' && s.slug !== 'ip-reputation'),
      ...services,
    ],
    ports: tp.platform.ports,
    logger: false,
    plugins: [docsPlugin(tp.config.PUBLIC_URL, '0.1.0')],
  });
  await built.ready();
  return built;
};

beforeAll(async () => {
  dns = await startLocalDns({
    'acme-widgets.com': { MX: [{ exchange: 'mx.acme-widgets.com', priority: 10 }] },
    'parked-domain.com': { TXT: ['parked'] },
  });
  app = await build([service()]);
  const [freeUser, proAccount, bigUser, otherUser] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'PRO' }),
    tp.createAccount({ plan: 'ENTERPRISE' }),
    tp.createAccount({ plan: 'ENTERPRISE' }),
  ]);
  proUser = proAccount;
  [free, pro, enterprise, other, elsewhere] = await Promise.all([
    tp.createApiKey(freeUser.token, { scopes: ['disposable-email'] }),
    tp.createApiKey(proAccount.token, { scopes: ['disposable-email'] }),
    tp.createApiKey(bigUser.token, { scopes: ['disposable-email'] }),
    tp.createApiKey(otherUser.token, { scopes: ['*'] }),
    tp.createApiKey(bigUser.token, { scopes: ['readability'] }),
  ]);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await dns?.close();
  await tp.close();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = Record<string, any>;
const post = (url: string, payload: unknown, key = enterprise, on = app) =>
  on.inject({ method: 'POST', url, headers: { 'X-API-Key': key.key }, payload: payload as object });
const get = (url: string, key = enterprise) =>
  app.inject({ method: 'GET', url, headers: { 'X-API-Key': key.key } });
const del = (url: string, key = enterprise) =>
  app.inject({ method: 'DELETE', url, headers: { 'X-API-Key': key.key } });

/** DESIGN.md section 5: paths shared by R and D answer RFC 7807 with D's error and message added. */
function expectRD(res: LightMyRequestResponse, status: number, error: string, message: string, path: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toEqual({
    type: `/problems/${error.toLowerCase().replaceAll('_', '-')}`,
    title: expect.any(String),
    status,
    detail: message,
    instance: path,
    error,
    message,
  });
}

/** D-only paths. */
function expectD(res: LightMyRequestResponse, status: number, error: string, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ error, message, status });
}

const CHECK_FIELDS = [
  'checkedAt',
  'confidence',
  'detectionLayers',
  'disposable',
  'domain',
  'email',
  'processingTimeMs',
  'reason',
  'reasons',
  'score',
];

describe('POST /api/v1/check (D and R, e-mail)', () => {
  it('200: the union of the D and R fields, processingTimeMs from the gateway, rate-limit headers', async () => {
    const res = await post('/api/v1/check', { email: 'Jane.Doe@Mailinator.com' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(Object.keys(body).sort()).toEqual(CHECK_FIELDS);
    expect(body).toMatchObject({
      email: 'Jane.Doe@Mailinator.com',
      domain: 'mailinator.com',
      disposable: true,
      confidence: 'HIGH',
      detectionLayers: { staticList: true, dnsCheck: false, patternMatch: false },
      score: 0.95,
      reasons: ['STATIC_LIST'],
      checkedAt: NOW.toISOString(),
    });
    expect(body.reason).toMatch(
      /^mailinator\.com is on the disposable-domain lists \(disposable-email-domains /,
    );
    expect(Number.isInteger(body.processingTimeMs)).toBe(true);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('a domain without a mail host (local DNS) is suspicious; one with an MX is clean', async () => {
    const parked = (await post('/api/v1/check', { email: 'jane@parked-domain.com' })).json() as Json;
    expect(parked).toMatchObject({
      disposable: true,
      detectionLayers: { staticList: false, dnsCheck: true, patternMatch: false },
      reasons: ['NO_MAIL_HOST'],
    });
    const clean = (await post('/api/v1/check', { email: 'jane@acme-widgets.com' })).json() as Json;
    expect(clean).toMatchObject({ disposable: false, confidence: 'HIGH', score: 0, reasons: [] });
  });

  it.each([
    [{ email: 'not-an-address' }, 'email: must be a well-formed email address'],
    [{ email: 'user@localhost' }, 'email: must be a well-formed email address'],
    [{ email: 'user@[192.0.2.1]' }, 'email: must be a well-formed email address'],
    [{ email: '' }, 'email: must not be blank'],
    [{ email: 42 }, 'email: must be a string'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'email: must be at most 254 characters'],
    [{ email: 'a@example.com', extra: 1 }, 'extra: is not a known field'],
    [{}, 'email: must not be blank'],
    [{ ipAddress: '8.8.8.8' }, 'email: must not be blank'],
  ])('400 VALIDATION_ERROR in the shared R/D shape for %j', async (payload, message) => {
    expectRD(await post('/api/v1/check', payload), 400, 'VALIDATION_ERROR', message, '/api/v1/check');
  });

  it('a body that is not an object is 400 too', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/check',
      headers: { 'X-API-Key': enterprise.key, 'content-type': 'application/json' },
      payload: '["a@example.com"]',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'VALIDATION_ERROR' });
  });

  it('401 without a key and 403 with a key for another service, in the shared R/D shape', async () => {
    const none = await app.inject({ method: 'POST', url: '/api/v1/check', payload: { email: 'a@b.com' } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ type: '/problems/unauthorized', error: 'UNAUTHORIZED' });
    const scoped = await post('/api/v1/check', { email: 'a@b.com' }, elsewhere);
    expectRD(scoped, 403, 'INSUFFICIENT_SCOPE', expect.any(String) as unknown as string, '/api/v1/check');
  });
});

describe('the shared path with the IP check beside it (a stand-in for ip-reputation)', () => {
  let shared: FastifyInstance;
  beforeAll(async () => {
    const ipStandIn: ServiceDefinition = {
      slug: 'ip-reputation',
      title: 'stand-in',
      description: 'stand-in',
      routes: [
        {
          convention: 'D',
          method: 'POST',
          path: '/api/v1/check',
          operationId: 'standInIpCheck',
          summary: 'stand-in',
          auth: 'apiKey',
          metered: true,
          match: (body) => typeof body === 'object' && body !== null && 'ipAddress' in body,
          schemas: {
            body: {
              type: 'object',
              required: ['ipAddress'],
              properties: { ipAddress: { type: 'string' } },
              additionalProperties: false,
            },
            response: {
              200: { type: 'object', required: ['ipAddress'], properties: { ipAddress: { type: 'string' } } },
            },
          },
          handler: async ({ body }) => ({ ipAddress: (body as { ipAddress: string }).ipAddress }),
        },
      ],
    };
    shared = await build([service(), ipStandIn]);
  });
  afterAll(() => shared?.close());

  it('{email} is the e-mail check, {ipAddress} the IP check, neither is 400', async () => {
    const email = await post('/api/v1/check', { email: 'a@yopmail.com' }, other, shared);
    expect(email.statusCode, email.body).toBe(200);
    expect(Object.keys(email.json()).sort()).toEqual(CHECK_FIELDS);
    const ip = await post('/api/v1/check', { ipAddress: '8.8.8.8' }, other, shared);
    expect(ip.statusCode, ip.body).toBe(200);
    expect(ip.json()).toEqual({ ipAddress: '8.8.8.8', processingTimeMs: expect.any(Number) });
    const neither = await post('/api/v1/check', { domain: 'example.com' }, other, shared);
    expectRD(
      neither,
      400,
      'VALIDATION_ERROR',
      'body: must match one of the operations on /api/v1/check',
      '/api/v1/check',
    );
    const bad = await post('/api/v1/check', { email: 'nope' }, other, shared);
    expectRD(bad, 400, 'VALIDATION_ERROR', 'email: must be a well-formed email address', '/api/v1/check');
  });
});

describe('POST /api/v1/check/batch', () => {
  const emails = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@acme-widgets.com`);

  it('200: results in order with the D and R item fields, counts, checkedAt, processingTimeMs', async () => {
    const res = await post('/api/v1/check/batch', {
      emails: ['a@mailinator.com', 'not-an-address', 'b@acme-widgets.com', 'c@guerrillamail.com'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(Object.keys(body).sort()).toEqual([
      'checkedAt',
      'disposableCount',
      'processingTimeMs',
      'results',
      'totalChecked',
    ]);
    expect(body).toMatchObject({ totalChecked: 4, disposableCount: 2, checkedAt: NOW.toISOString() });
    expect(body.results).toEqual([
      { email: 'a@mailinator.com', disposable: true, confidence: 'HIGH', score: 0.95 },
      {
        email: 'not-an-address',
        disposable: null,
        confidence: null,
        score: null,
        error: 'VALIDATION_ERROR',
        message: 'emails[1]: must be a well-formed email address',
      },
      { email: 'b@acme-widgets.com', disposable: false, confidence: 'HIGH', score: 0 },
      { email: 'c@guerrillamail.com', disposable: true, confidence: 'HIGH', score: 0.95 },
    ]);
  });

  it('no false positive on real providers, all in one batch', async () => {
    const res = await post('/api/v1/check/batch', { emails: PROVIDERS.map((d) => `jane.doe@${d}`) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(body.disposableCount).toBe(0);
    expect(body.results.filter((r: Json) => r.disposable !== false || r.confidence !== 'HIGH')).toEqual([]);
  });

  it('bounded by the plan: FREE 10, PRO 100; the endpoint maximum 100 caps ENTERPRISE (1,000)', async () => {
    expect((await post('/api/v1/check/batch', { emails: emails(10) }, free)).statusCode).toBe(200);
    expectRD(
      await post('/api/v1/check/batch', { emails: emails(11) }, free),
      400,
      'VALIDATION_ERROR',
      'emails: must contain at most 10 items',
      '/api/v1/check/batch',
    );
    expect((await post('/api/v1/check/batch', { emails: emails(100) }, pro)).statusCode).toBe(200);
    for (const key of [pro, enterprise]) {
      expectRD(
        await post('/api/v1/check/batch', { emails: emails(101) }, key),
        400,
        'VALIDATION_ERROR',
        'emails: must contain at most 100 items',
        '/api/v1/check/batch',
      );
    }
  });

  it.each([
    [{ emails: [] }, 'emails: must contain at least 1 item'],
    [{ emails: ['a@b.com', 7] }, 'emails[1]: must be a string'],
    [{ emails: 'a@b.com' }, 'emails: must be an array'],
    [{}, 'emails: must not be blank'],
    [{ email: 'a@b.com' }, 'emails: must not be blank'],
  ])('400 for %j', async (payload, message) => {
    expectRD(
      await post('/api/v1/check/batch', payload),
      400,
      'VALIDATION_ERROR',
      message,
      '/api/v1/check/batch',
    );
  });
});

describe('GET /api/disposable-email/check (S)', () => {
  it('200 in the S envelope: {email, disposable, provider}', async () => {
    const listed = await get('/api/disposable-email/check?email=jane%2Bsignup%40yopmail.com', free);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual({
      status: 'OK',
      data: { email: 'jane+signup@yopmail.com', disposable: true, provider: 'yopmail.com' },
    });
    const gmail = await get('/api/disposable-email/check?email=jane@gmail.com', free);
    expect(gmail.json()).toEqual({
      status: 'OK',
      data: { email: 'jane@gmail.com', disposable: false, provider: 'Gmail' },
    });
    const corp = await get('/api/disposable-email/check?email=jane@acme-widgets.com', free);
    expect(corp.json().data).toEqual({ email: 'jane@acme-widgets.com', disposable: false, provider: null });
  });

  it.each([
    ['?email=nope', 'email: must be a well-formed email address'],
    ['?email=jane+signup@yopmail.com', 'email: must be a well-formed email address'],
    ['', 'email: must not be blank'],
    ['?email=', 'email: must not be blank'],
  ])('400 in the S error shape for %s', async (qs, message) => {
    const res = await get(`/api/disposable-email/check${qs}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ status: 'ERROR', error: { code: 'VALIDATION_ERROR', message } });
  });
});

describe('GET /api/v1/domains/{domain}', () => {
  it('a listed domain: the D fields, with the lists, the matched entry and checkedAt', async () => {
    const res = await get('/api/v1/domains/Mailinator.COM');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(Object.keys(body).sort()).toEqual([
      'addedDate',
      'checkedAt',
      'disposable',
      'domain',
      'lists',
      'matchedDomain',
      'processingTimeMs',
      'source',
    ]);
    expect(body).toMatchObject({
      domain: 'mailinator.com',
      disposable: true,
      source: 'STATIC_LIST',
      addedDate: '2024-12-07',
      matchedDomain: 'mailinator.com',
      checkedAt: NOW.toISOString(),
    });
    expect(body.lists.map((l: Json) => l.name)).toEqual(['disposable-email-domains', 'mailchecker']);
  });

  it('a sub-domain of a listed domain is PATTERN_MATCH; a provider and an unlisted domain are not disposable', async () => {
    expect((await get('/api/v1/domains/x.guerrillamail.com')).json()).toMatchObject({
      disposable: true,
      source: 'PATTERN_MATCH',
      matchedDomain: 'guerrillamail.com',
    });
    for (const d of ['gmail.com', 'acme-widgets.com']) {
      expect((await get(`/api/v1/domains/${d}`)).json()).toMatchObject({
        domain: d,
        disposable: false,
        source: null,
        addedDate: null,
        matchedDomain: null,
        lists: [],
      });
    }
  });

  it.each(['not_a_domain', 'localhost', '127.0.0.1', 'a..b.com'])('400 for %s', async (domain) => {
    expectRD(
      await get(`/api/v1/domains/${domain}`),
      400,
      'VALIDATION_ERROR',
      'domain: must be a valid domain name',
      `/api/v1/domains/${domain}`,
    );
  });
});

describe('overrides', () => {
  it('ALLOW: 201, effective at once for this account only, in every route; DELETE 204 undoes it', async () => {
    const created = await post(
      '/api/v1/domains/overrides',
      { domain: 'YopMail.com', action: 'ALLOW', note: 'a partner uses it' },
      pro,
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({
      domain: 'yopmail.com',
      action: 'ALLOW',
      note: 'a partner uses it',
      createdAt: NOW.toISOString(),
      processingTimeMs: expect.any(Number),
    });
    const mine = (await post('/api/v1/check', { email: 'a@yopmail.com' }, pro)).json() as Json;
    expect(mine).toMatchObject({ disposable: false, reasons: ['OVERRIDE_ALLOW'] });
    expect((await post('/api/v1/check', { email: 'a@yopmail.com' }, other)).json()).toMatchObject({
      disposable: true,
    });
    expect((await get('/api/disposable-email/check?email=a@yopmail.com', pro)).json().data.disposable).toBe(
      false,
    );
    expect((await get('/api/v1/domains/yopmail.com', pro)).json()).toMatchObject({
      disposable: false,
      source: 'OVERRIDE',
      addedDate: '2026-05-06',
    });
    const batch = (await post('/api/v1/check/batch', { emails: ['a@yopmail.com'] }, pro)).json() as Json;
    expect(batch.results[0]).toMatchObject({ disposable: false, score: 0 });

    const removed = await del('/api/v1/domains/overrides/yopmail.com', pro);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(removed.body).toBe('');
    expect((await post('/api/v1/check', { email: 'a@yopmail.com' }, pro)).json()).toMatchObject({
      disposable: true,
    });
  });

  it('DENY: a clean domain becomes disposable for this account', async () => {
    expect(
      (await post('/api/v1/domains/overrides', { domain: 'acme-widgets.com', action: 'DENY' }, pro))
        .statusCode,
    ).toBe(201);
    expect((await post('/api/v1/check', { email: 'x@mail.acme-widgets.com' }, pro)).json()).toMatchObject({
      disposable: true,
      confidence: 'HIGH',
      score: 1,
      reasons: ['OVERRIDE_DENY'],
    });
    expect((await post('/api/v1/check', { email: 'x@acme-widgets.com' }, other)).json().disposable).toBe(
      false,
    );
  });

  it("another account cannot delete this account's override: 404, and the override stays", async () => {
    expectD(
      await del('/api/v1/domains/overrides/acme-widgets.com', other),
      404,
      'NOT_FOUND',
      'domain: this account has no override for acme-widgets.com',
    );
    expect((await post('/api/v1/check', { email: 'x@acme-widgets.com' }, pro)).json().disposable).toBe(true);
    expect((await del('/api/v1/domains/overrides/acme-widgets.com', pro)).statusCode).toBe(204);
    expect((await del('/api/v1/domains/overrides/acme-widgets.com', pro)).statusCode).toBe(404);
  });

  it.each([
    [{ domain: 'example.com', action: 'MAYBE' }, 'action: must be one of [ALLOW, DENY]'],
    [{ domain: 'example.com' }, 'action: must not be blank'],
    [{ domain: 'not a domain', action: 'DENY' }, 'domain: must be a valid domain name'],
    [{ domain: 'com', action: 'DENY' }, 'domain: must be a valid domain name'],
    [
      { domain: 'example.com', action: 'DENY', note: 'x'.repeat(501) },
      'note: must be at most 500 characters',
    ],
    [{ domain: 'example.com', action: 'DENY', scope: 'all' }, 'scope: is not a known field'],
  ])('400 in the D shape for %j', async (payload, message) => {
    expectD(await post('/api/v1/domains/overrides', payload, pro), 400, 'VALIDATION_ERROR', message);
  });

  it('DELETE with an invalid domain is 400 in the D shape', async () => {
    expectD(
      await del('/api/v1/domains/overrides/not_a_domain', pro),
      400,
      'VALIDATION_ERROR',
      'domain: must be a valid domain name',
    );
  });
});

describe('metering and documents', () => {
  it('2xx calls count in the usage breakdown under disposable-email; a 400 does not', async () => {
    const usage = async () =>
      (
        await app.inject({
          method: 'GET',
          url: '/api/portal/usage',
          headers: { authorization: `Bearer ${proUser.token}` },
        })
      ).json().data.breakdown['disposable-email'] ?? 0;
    const before = await usage();
    await post('/api/v1/check', { email: 'a@mailinator.com' }, pro);
    await post('/api/v1/check', { email: 'nope' }, pro);
    expect(await usage()).toBe(before + 1);
  });

  it('/openapi.json is valid OpenAPI 3.1 and documents every route with its operationId', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as Json;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const ops = {
      'get /api/disposable-email/check': 'disposableEmailCheck',
      'post /api/v1/check': 'disposableEmailCheckAddress',
      'post /api/v1/check/batch': 'disposableEmailCheckBatch',
      'get /api/v1/domains/{domain}': 'disposableEmailDomainStatus',
      'post /api/v1/domains/overrides': 'disposableEmailOverrideSet',
      'delete /api/v1/domains/overrides/{domain}': 'disposableEmailOverrideDelete',
    };
    for (const [route, id] of Object.entries(ops)) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method]?.operationId, route).toBe(id);
    }
  });
});
