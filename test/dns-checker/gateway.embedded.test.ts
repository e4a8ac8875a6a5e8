/**
 * The dns-checker routes through the real gateway on a real embedded platform: validation messages and error
 * bodies per convention (D: {error, message, status}; R: RFC 7807), batch bounds by plan (FREE 10, the endpoint's
 * 100 above that), serialization of every result shape, scopes, metering and the OpenAPI document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { createDnsCheckerService } from '../../services/dns-checker/service.js';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';
import { openTestPlatform, type TestKey } from '../support/platform.js';
import { zone } from './zone.js';

const tp = await openTestPlatform();
let dns: LocalDns;
let app: FastifyInstance;
let free: TestKey;
let enterprise: TestKey;
let elsewhere: TestKey;
let enterpriseToken: string;

beforeAll(async () => {
  dns = await startLocalDns(zone());
  const service = createDnsCheckerService({
    dnsServers: [dns.server],
    timeouts: { attemptMs: 200, checkMs: 500, batchMs: 5_000 },
  });
  app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    // Once cli/platform.ts lists the service, the platform's own copy is replaced by this one (local server).
    services: [...tp.platform.services.filter((s) => s.slug !== 'dns-checker'), service],
    ports: tp.platform.ports,
    logger: false,
    plugins: [docsPlugin(tp.config.PUBLIC_URL, '0.1.0')],
  });
  await app.ready();
  const [freeUser, bigUser] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'ENTERPRISE' }),
  ]);
  enterpriseToken = bigUser.token;
  [free, enterprise, elsewhere] = await Promise.all([
    tp.createApiKey(freeUser.token, { scopes: ['dns-checker'] }),
    tp.createApiKey(bigUser.token, { scopes: ['dns-checker'] }),
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
const post = (url: string, payload: unknown, key = enterprise) =>
  app.inject({ method: 'POST', url, headers: { 'X-API-Key': key.key }, payload: payload as object });
const get = (url: string, key = enterprise) =>
  app.inject({ method: 'GET', url, headers: { 'X-API-Key': key.key } });

/** DESIGN.md section 5, D-only paths. */
function expectD(res: LightMyRequestResponse, status: number, error: string, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ error, message, status });
}

/** DESIGN.md section 5, R-only paths: RFC 7807, without D's members. */
function expectR(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  detail: string,
  instance: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toEqual({
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    title: expect.any(String),
    status,
    detail,
    instance,
  });
}

const targets = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ hostname: `h${i}.example.test`, recordTypes: ['A'] }));
const domains = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.example.test`);

describe('D POST /api/v1/dns/check', () => {
  it('200: the SPEC fields, processingTimeMs added by the gateway, rate-limit headers', async () => {
    const res = await post('/api/v1/dns/check', { hostname: 'example.test', recordTypes: ['MX', 'SOA'] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(Object.keys(body).sort()).toEqual(
      ['hostname', 'nameserver', 'processingTimeMs', 'queryName', 'queryTimeMs', 'records', 'status'].sort(),
    );
    expect(body).toMatchObject({ hostname: 'example.test', status: 'NOERROR', nameserver: dns.server });
    expect(Number.isInteger(body.processingTimeMs)).toBe(true);
    expect(body.processingTimeMs).toBeGreaterThanOrEqual(body.queryTimeMs);
    expect(body.records.MX.map((m: Json) => [m.priority, m.value])).toEqual([
      [10, 'mx1.example.test'],
      [20, 'mx2.example.test'],
      [30, 'backup.example.test'],
    ]);
    expect(body.records.SOA[0]).toMatchObject({ serial: 2024010101, minimum: 300, ttl: 900 });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('NXDOMAIN and SERVFAIL are results (200), with error and message for SERVFAIL', async () => {
    const nx = (await post('/api/v1/dns/check', { hostname: 'nope.example.test' })).json() as Json;
    expect(nx).toMatchObject({ status: 'NXDOMAIN', records: {} });
    expect(nx).not.toHaveProperty('error');
    const res = await post('/api/v1/dns/check', { hostname: 'slow.example.test', recordTypes: ['A'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'SERVFAIL',
      records: {},
      error: 'TIMEOUT',
      message: `A: no answer from ${dns.server} within 200 ms`,
    });
  });

  it.each([
    [{ hostname: 'not a domain' }, 'hostname: must be a valid domain name'],
    [{ hostname: '127.0.0.1' }, 'hostname: must be a valid domain name'],
    [{ hostname: '[::1]' }, 'hostname: must be a valid domain name'],
    [{ hostname: 'https://example.com/' }, 'hostname: must be a valid domain name'],
    [{ hostname: `${'a'.repeat(64)}.test` }, 'hostname: must be a valid domain name'],
    [{ hostname: '' }, 'hostname: must not be blank'],
    [{}, 'hostname: must not be blank'],
    [{ hostname: 42 }, 'hostname: must be a string'],
    [{ hostname: 'example.test', extra: 1 }, 'extra: is not a known field'],
    [
      { hostname: 'example.test', recordTypes: ['A', 'PTR'] },
      'recordTypes[1]: must be one of [A, AAAA, MX, TXT, CNAME, NS, SOA, SRV]',
    ],
    [{ hostname: 'example.test', recordTypes: ['A', 'A'] }, 'recordTypes: must not contain duplicates'],
    [{ hostname: 'example.test', recordTypes: [] }, 'recordTypes: must contain at least 1 item'],
  ])('400 VALIDATION_ERROR for %j', async (payload, message) => {
    expectD(await post('/api/v1/dns/check', payload), 400, 'VALIDATION_ERROR', message);
  });

  it('401 without a key, 403 INSUFFICIENT_SCOPE with a key for another service, in the D shape', async () => {
    const none = await app.inject({
      method: 'POST',
      url: '/api/v1/dns/check',
      payload: { hostname: 'example.test' },
    });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: 'UNAUTHORIZED', status: 401 });
    const res = await post('/api/v1/dns/check', { hostname: 'example.test' }, elsewhere);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'INSUFFICIENT_SCOPE', status: 403 });
  });
});

describe('D POST /api/v1/dns/check-bulk', () => {
  it('an array, one item per target in order, with its input and its result even when it failed', async () => {
    const res = await post('/api/v1/dns/check-bulk', {
      targets: [
        { hostname: 'www.example.test', recordTypes: ['A', 'CNAME'] },
        { hostname: 'bad..name', recordTypes: ['A'] },
        { hostname: 'broken.example.test', recordTypes: ['TXT'] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json[];
    expect(Array.isArray(body)).toBe(true);
    expect(body[0]).toMatchObject({
      hostname: 'www.example.test',
      recordTypes: ['A', 'CNAME'],
      status: 'NOERROR',
      records: {
        A: [{ value: '192.0.2.80', ttl: 20 }],
        CNAME: [{ name: 'www.example.test' }, { name: 'edge.example.test' }],
      },
    });
    expect(body[1]).toEqual({
      hostname: 'bad..name',
      recordTypes: ['A'],
      queryName: null,
      status: null,
      records: {},
      nameserver: null,
      queryTimeMs: 0,
      error: 'VALIDATION_ERROR',
      message: 'hostname: must be a valid domain name',
    });
    expect(body[2]).toMatchObject({
      hostname: 'broken.example.test',
      status: 'SERVFAIL',
      error: 'SERVER_ERROR',
      message: `TXT: ${dns.server} answered SERVFAIL`,
    });
  });

  it('FREE plan: 10 targets pass, 11 are refused (plan batch size 10)', async () => {
    const ok = await post('/api/v1/dns/check-bulk', { targets: targets(10) }, free);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toHaveLength(10);
    expectD(
      await post('/api/v1/dns/check-bulk', { targets: targets(11) }, free),
      400,
      'VALIDATION_ERROR',
      'targets: must contain at most 10 items',
    );
  });

  it('ENTERPRISE plan (batch 1,000): the endpoint maximum of 100 applies', async () => {
    const ok = await post('/api/v1/dns/check-bulk', { targets: targets(100) });
    expect(ok.statusCode, ok.body).toBe(200);
    const items = ok.json() as Json[];
    expect(items.map((i) => i.hostname)).toEqual(targets(100).map((t) => t.hostname));
    expect(items.every((i) => i.status === 'NXDOMAIN')).toBe(true);
    expectD(
      await post('/api/v1/dns/check-bulk', { targets: targets(101) }),
      400,
      'VALIDATION_ERROR',
      'targets: must contain at most 100 items',
    );
  });

  it('refuses an empty or malformed target list', async () => {
    expectD(
      await post('/api/v1/dns/check-bulk', { targets: [] }),
      400,
      'VALIDATION_ERROR',
      'targets: must contain at least 1 item',
    );
    expectD(
      await post('/api/v1/dns/check-bulk', { targets: [{ hostname: 'a.test', recordTypes: ['NOPE'] }] }),
      400,
      'VALIDATION_ERROR',
      'targets[0].recordTypes[0]: must be one of [A, AAAA, MX, TXT, CNAME, NS, SOA, SRV]',
    );
  });
});

describe('R lookups', () => {
  it('POST /api/v1/dns/lookup: the bare resource, no processingTimeMs', async () => {
    const res = await post('/api/v1/dns/lookup', { domain: '_sip._tcp.example.test', recordTypes: ['SRV'] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(body).not.toHaveProperty('processingTimeMs');
    expect(body).toMatchObject({
      domain: '_sip._tcp.example.test',
      status: 'NOERROR',
      nameserver: dns.server,
    });
    expect(body.records.SRV[0]).toEqual({
      value: 'sip0.example.test',
      ttl: 3600,
      priority: 0,
      weight: 5,
      port: 5061,
    });
    expect(Date.parse(body.checkedAt)).not.toBeNaN();
  });

  it('GET /api/v1/dns/lookup/{domain}: every type; an IDN in the path is decoded and queried in punycode', async () => {
    const res = await get(`/api/v1/dns/lookup/${encodeURIComponent('bücher.example.test')}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(body).toMatchObject({
      domain: 'bücher.example.test',
      queryName: 'xn--bcher-kva.example.test',
      status: 'NOERROR',
    });
    expect(Object.keys(body.records)).toEqual(['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'SRV']);
  });

  it('400 as RFC 7807 problems naming `domain`', async () => {
    expectR(
      await post('/api/v1/dns/lookup', { domain: 'exa mple.test' }),
      400,
      'VALIDATION_ERROR',
      'domain: must be a valid domain name',
      '/api/v1/dns/lookup',
    );
    expectR(
      await get('/api/v1/dns/lookup/127.0.0.1'),
      400,
      'VALIDATION_ERROR',
      'domain: must be a valid domain name',
      '/api/v1/dns/lookup/127.0.0.1',
    );
    expectR(
      await post('/api/v1/dns/lookup', { domain: 'example.test', recordTypes: ['ANY'] }),
      400,
      'VALIDATION_ERROR',
      'recordTypes[0]: must be one of [A, AAAA, MX, TXT, CNAME, NS, SOA, SRV]',
      '/api/v1/dns/lookup',
    );
  });

  it('POST /api/v1/dns/lookup/batch: {results}; FREE plan bound 10, endpoint bound 100', async () => {
    const ok = await post('/api/v1/dns/lookup/batch', {
      domains: ['example.test', '1.2.3.4'],
      recordTypes: ['A'],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const { results } = ok.json() as { results: Json[] };
    expect(results.map((r) => [r.domain, r.status, r.error ?? null])).toEqual([
      ['example.test', 'NOERROR', null],
      ['1.2.3.4', null, 'VALIDATION_ERROR'],
    ]);
    expect(results[1]!.message).toBe('domain: must be a valid domain name');
    const freeOk = await post('/api/v1/dns/lookup/batch', { domains: domains(10), recordTypes: ['A'] }, free);
    expect(freeOk.statusCode, freeOk.body).toBe(200);
    expectR(
      await post('/api/v1/dns/lookup/batch', { domains: domains(11) }, free),
      400,
      'VALIDATION_ERROR',
      'domains: must contain at most 10 items',
      '/api/v1/dns/lookup/batch',
    );
    expectR(
      await post('/api/v1/dns/lookup/batch', { domains: domains(101) }),
      400,
      'VALIDATION_ERROR',
      'domains: must contain at most 100 items',
      '/api/v1/dns/lookup/batch',
    );
  });
});

describe('metering and documents', () => {
  it('calls are counted under the dns-checker slug, a batch as one call', async () => {
    const usage = async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${enterpriseToken}` },
      });
      return ((res.json() as Json).data.breakdown['dns-checker'] ?? 0) as number;
    };
    const before = await usage();
    await post('/api/v1/dns/check', { hostname: 'example.test', recordTypes: ['A'] });
    await post('/api/v1/dns/check-bulk', { targets: targets(5) });
    await post('/api/v1/dns/check', { hostname: '' }); // 400: not counted against the quota
    const deadline = Date.now() + 5_000;
    let after = await usage();
    while (after < before + 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      after = await usage();
    }
    expect(after - before).toBe(2);
  });

  it('the OpenAPI document stays valid with the five routes in it', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/api/v1/dns/check']?.post?.operationId).toBe('dnsCheck');
    expect(doc.paths['/api/v1/dns/check-bulk']?.post?.operationId).toBe('dnsCheckBulk');
    expect(doc.paths['/api/v1/dns/lookup']?.post?.operationId).toBe('dnsLookup');
    expect(doc.paths['/api/v1/dns/lookup/batch']?.post?.operationId).toBe('dnsLookupBatch');
    expect(doc.paths['/api/v1/dns/lookup/{domain}']?.get?.operationId).toBe('dnsLookupAll');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
  });
});
