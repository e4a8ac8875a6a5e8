/**
 * The SSL checker through the real gateway of an embedded platform: routing of the shared path by the
 * `X-API-Convention` header, the conventions' envelopes and error bodies, schema validation messages, batch
 * bounds, the outbound guard, metering, and the generated documents. Targets are real TLS servers on 127.0.0.1.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../core/outbound/client.js';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { createSslCheckerService } from '../../services/ssl-checker/service.js';
import { openTestPlatform, type TestAccount, type TestKey, type TestPlatform } from '../support/platform.js';
import { type LocalDns, startLocalDns } from './local-dns.js';
import { TEST_HOST, type TestPki, testPki } from './pki.js';
import { closedPort, type Listener, tlsServer } from './tls-servers.js';

let tp: TestPlatform;
let app: FastifyInstance;
let strictApp: FastifyInstance;
let dns: LocalDns;
let pki: TestPki;
let good: Listener;
let closed: number;
let user: TestAccount;
let key: TestKey;
let freeKey: TestKey;
let otherScopeKey: TestKey;

beforeAll(async () => {
  [tp, dns, pki] = await Promise.all([openTestPlatform(), startLocalDns([TEST_HOST]), testPki()]);
  const policy = { dnsServers: [dns.spec], userAgent: 'toolgate-tests' };
  const build = (allowCidrs: string[]) =>
    buildApp({
      config: tp.config,
      health: async () => ({ status: 'UP' as const, components: {} }),
      services: [
        ...tp.platform.services.filter((s) => s.slug !== 'ssl-checker'),
        createSslCheckerService({
          outbound: createOutboundClient({ ...policy, allowCidrs }),
          trustedCa: [pki.root.cert],
        }),
      ],
      ports: tp.platform.ports,
      logger: false,
      plugins: [docsPlugin(tp.config.PUBLIC_URL, '0.1.0')],
    });
  [app, strictApp] = await Promise.all([build(['127.0.0.0/8']), build([])]);
  good = await tlsServer({ key: pki.leaf.key, cert: pki.leaf.cert + pki.intermediate.cert });
  closed = await closedPort();
  const free = await tp.createAccount();
  user = await tp.createAccount({ plan: 'ENTERPRISE' });
  [key, freeKey, otherScopeKey] = await Promise.all([
    tp.createApiKey(user.token, { scopes: ['ssl-checker'] }),
    tp.createApiKey(free.token, { scopes: ['ssl-checker'] }),
    tp.createApiKey(user.token, { scopes: ['readability'] }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([app?.close(), strictApp?.close(), good?.close(), dns?.close()]);
  await tp?.close();
});

const sslCheck = (body: unknown, headers: Record<string, string> = {}, target = app) =>
  target.inject({
    method: 'POST',
    url: '/api/v1/ssl/check',
    headers: { 'x-api-key': key.key, ...headers },
    payload: body as object,
  });
const sCheck = (query: string, headers: Record<string, string> = { 'X-API-KEY': key.key }, target = app) =>
  target.inject({ method: 'GET', url: `/api/ssl-checker/check?${query}`, headers });
const json = (res: LightMyRequestResponse) => res.json() as Record<string, unknown>;

describe('POST /api/v1/ssl/check (shared by D and R)', () => {
  it('D by default: the union of fields, issuer an object, processingTimeMs added by the gateway', async () => {
    const res = await sslCheck({ hostname: TEST_HOST, port: good.port });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({
      hostname: TEST_HOST,
      port: good.port,
      valid: true,
      issuer: { commonName: 'Toolgate Test Issuing CA', organization: 'Toolgate Tests', country: 'DE' },
      chainLength: 3,
      grade: 'A+',
      protocols: ['TLSv1.2', 'TLSv1.3'],
      hostnameMatch: true,
    });
    expect(body.processingTimeMs).toEqual(expect.any(Number));
    expect(Object.keys(body)).toHaveLength(16 + 6 + 1);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('X-API-Convention: R selects R’s string issuer (and R adds no processingTimeMs)', async () => {
    const res = await sslCheck({ hostname: TEST_HOST, port: good.port }, { 'X-API-Convention': 'R' });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({ issuer: 'Toolgate Tests', grade: 'A+', valid: true, chainLength: 3 });
    expect(body).not.toHaveProperty('processingTimeMs');
  });

  it('any other header value keeps D’s shape', async () => {
    for (const value of ['D', 'r', 'S']) {
      const body = json(
        await sslCheck({ hostname: TEST_HOST, port: good.port }, { 'X-API-Convention': value }),
      );
      expect(typeof body.issuer, value).toBe('object');
    }
  });

  it('the port defaults to 443', async () => {
    const res = await sslCheck({ hostname: '127.0.0.1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ hostname: '127.0.0.1', port: 443, valid: false });
  });

  it('no connection: 200 with the CONNECTION_FAILED result, no status field', async () => {
    const res = await sslCheck({ hostname: TEST_HOST, port: closed });
    expect(res.statusCode).toBe(200);
    const { processingTimeMs, ...rest } = json(res);
    expect(rest).toEqual({
      hostname: TEST_HOST,
      port: closed,
      valid: false,
      error: 'CONNECTION_FAILED',
      message: `no TLS connection to ${TEST_HOST}:${closed}: the connection was refused`,
    });
    expect(processingTimeMs).toEqual(expect.any(Number));
  });

  it.each([
    [{}, 'hostname: must not be blank'],
    [{ hostname: '' }, 'hostname: must not be blank'],
    [{ hostname: 'https://ssl.test/' }, 'hostname: must be a valid domain name'],
    [{ hostname: 'ssl.test', port: 70_000 }, 'port: must be at most 65535'],
    [{ hostname: 'ssl.test', port: '443' }, 'port: must be an integer'],
    [{ hostname: 'ssl.test', extra: 1 }, 'extra: is not a known field'],
  ])('400 for %j: %s, as the RFC 7807 problem with D’s members', async (body, message) => {
    const res = await sslCheck(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(json(res)).toEqual({
      type: '/problems/validation-error',
      title: 'Validation error',
      status: 400,
      detail: message,
      instance: '/api/v1/ssl/check',
      error: 'VALIDATION_ERROR',
      message,
    });
  });

  it('403 SSRF_BLOCKED when the outbound guard refuses the address', async () => {
    const res = await sslCheck({ hostname: '127.0.0.1', port: good.port }, {}, strictApp);
    expect(res.statusCode).toBe(403);
    expect(json(res)).toMatchObject({ type: '/problems/ssrf-blocked', error: 'SSRF_BLOCKED', status: 403 });
  });

  it('401 without a key, 403 INSUFFICIENT_SCOPE with a key for another service', async () => {
    const none = await app.inject({
      method: 'POST',
      url: '/api/v1/ssl/check',
      payload: { hostname: TEST_HOST },
    });
    expect(none.statusCode).toBe(401);
    const other = await sslCheck({ hostname: TEST_HOST }, { 'x-api-key': otherScopeKey.key });
    expect(other.statusCode).toBe(403);
    expect(json(other)).toMatchObject({ error: 'INSUFFICIENT_SCOPE' });
  });
});

describe('GET /api/ssl-checker/check (S)', () => {
  it('the envelope around {domain, valid, issuer, expiresAt, daysRemaining}', async () => {
    const res = await sCheck(`domain=${TEST_HOST}&port=${good.port}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({
      status: 'OK',
      data: {
        domain: TEST_HOST,
        valid: true,
        issuer: 'Toolgate Tests',
        expiresAt: new Date(pki.leaf.x509.validTo).toISOString(),
        daysRemaining: 30,
      },
    });
  });

  it('no connection: nulls, error and message survive serialization', async () => {
    const res = await sCheck(`domain=${TEST_HOST}&port=${closed}`);
    expect(res.statusCode).toBe(200);
    expect(json(res).data).toEqual({
      domain: TEST_HOST,
      valid: false,
      issuer: null,
      expiresAt: null,
      daysRemaining: null,
      error: 'CONNECTION_FAILED',
      message: `no TLS connection to ${TEST_HOST}:${closed}: the connection was refused`,
    });
  });

  it('S error bodies: a missing or bad domain is 400, a refused address 403', async () => {
    const missing = await sCheck('');
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toEqual({
      status: 'ERROR',
      error: { code: 'VALIDATION_ERROR', message: 'domain: must not be blank' },
    });
    const bad = await sCheck('domain=a%20b');
    expect(json(bad)).toEqual({
      status: 'ERROR',
      error: { code: 'VALIDATION_ERROR', message: 'domain: must be a valid domain name' },
    });
    const blocked = await sCheck(`domain=127.0.0.1&port=${good.port}`, { 'X-API-KEY': key.key }, strictApp);
    expect(blocked.statusCode).toBe(403);
    expect(json(blocked)).toMatchObject({ status: 'ERROR', error: { code: 'SSRF_BLOCKED' } });
  });
});

describe('batches', () => {
  const targets = () => [
    { hostname: TEST_HOST, port: good.port },
    { hostname: TEST_HOST, port: closed },
    { hostname: 'not a host' },
  ];

  it('D bulk: success and failure items both serialized whole, processingTimeMs at both levels', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ssl/check-bulk',
      headers: { 'x-api-key': key.key },
      payload: { targets: targets() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({ totalChecked: 3, validCount: 1, invalidCount: 2, failedCount: 2 });
    expect(body.processingTimeMs).toEqual(expect.any(Number));
    const [ok, refused, invalid] = body.results as Record<string, unknown>[];
    expect(Object.keys(ok!).sort()).toEqual(
      [
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
        'processingTimeMs',
      ].sort(),
    );
    expect(refused).toMatchObject({ port: closed, valid: false, error: 'CONNECTION_FAILED' });
    expect(invalid).toEqual({
      hostname: 'not a host',
      port: 443,
      valid: false,
      error: 'VALIDATION_ERROR',
      message: 'hostname: must be a valid domain name',
    });
  });

  it('R batch: R items, failures with their input, checkedAt', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/ssl/check/batch',
      headers: { 'x-api-key': key.key },
      payload: { targets: targets() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(body).not.toHaveProperty('processingTimeMs');
    const [ok, refused] = body.results as Record<string, unknown>[];
    expect(ok).toMatchObject({ hostname: TEST_HOST, port: good.port, grade: 'A+', issuer: 'Toolgate Tests' });
    expect(refused).toMatchObject({ valid: false, error: 'CONNECTION_FAILED' });
    expect(typeof body.checkedAt).toBe('string');
  });

  it('the plan’s batch size bounds the items (FREE: 10), then the endpoint’s 100', async () => {
    const many = (n: number) => Array.from({ length: n }, () => ({ hostname: 'not a host' }));
    const free = await app.inject({
      method: 'POST',
      url: '/api/v1/ssl/check-bulk',
      headers: { 'x-api-key': freeKey.key },
      payload: { targets: many(11) },
    });
    expect(free.statusCode).toBe(400);
    expect(json(free)).toEqual({
      error: 'VALIDATION_ERROR',
      message: 'targets: must contain at most 10 items',
      status: 400,
    });
    const enterprise = await app.inject({
      method: 'POST',
      url: '/api/v1/ssl/check/batch',
      headers: { 'x-api-key': key.key },
      payload: { targets: many(101) },
    });
    expect(enterprise.statusCode).toBe(400);
    expect(json(enterprise)).toMatchObject({ detail: 'targets: must contain at most 100 items' });
    const empty = await app.inject({
      method: 'POST',
      url: '/api/v1/ssl/check/batch',
      headers: { 'x-api-key': key.key },
      payload: { targets: [] },
    });
    expect(json(empty)).toMatchObject({ detail: 'targets: must contain at least 1 item' });
  });
});

describe('metering and documents', () => {
  it('answered calls count for the ssl-checker slug', async () => {
    const account = await tp.createAccount({ plan: 'ENTERPRISE' });
    const k = await tp.createApiKey(account.token, { scopes: ['ssl-checker'] });
    const headers = { 'x-api-key': k.key };
    await app.inject({
      method: 'POST',
      url: '/api/v1/ssl/check',
      headers,
      payload: { hostname: TEST_HOST, port: closed },
    });
    await app.inject({
      method: 'GET',
      url: `/api/ssl-checker/check?domain=${TEST_HOST}&port=${closed}`,
      headers,
    });
    await app.inject({ method: 'POST', url: '/api/v1/ssl/check', headers, payload: { hostname: '' } });
    const usage = await app.inject({
      method: 'GET',
      url: '/api/portal/usage',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect((usage.json() as { data: { breakdown: Record<string, number> } }).data.breakdown).toEqual({
      'ssl-checker': 2,
    });
  });

  it('OpenAPI documents the four paths (valid 3.1) and the MCP manifest has the five operations', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/api/ssl-checker/check']?.get?.operationId).toBe('sslCheckerCheck');
    expect(doc.paths['/api/v1/ssl/check']?.post?.operationId).toBe('sslCheckDetailedOrsslCheckGraded');
    expect(doc.paths['/api/v1/ssl/check-bulk']?.post?.operationId).toBe('sslCheckBulk');
    expect(doc.paths['/api/v1/ssl/check/batch']?.post?.operationId).toBe('sslCheckBatch');
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    const tools = (await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json() as {
      tools: { name: string; service: string }[];
    };
    expect(
      tools.tools
        .filter((t) => t.service === 'ssl-checker')
        .map((t) => t.name)
        .sort(),
    ).toEqual(['sslCheckBatch', 'sslCheckBulk', 'sslCheckDetailed', 'sslCheckGraded', 'sslCheckerCheck']);
  });
});
