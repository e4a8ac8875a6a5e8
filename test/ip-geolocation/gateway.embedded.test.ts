/**
 * The ip-geolocation routes through the real gateway on a real embedded platform, over the shipped databases:
 * S envelope and S errors, R bare bodies and RFC 7807 problems, reserved addresses answered (200), batch
 * items resolved independently, batch bounds by plan (FREE 10, the endpoint's 100 above that), scopes,
 * metering (a batch is one call), OpenAPI and the MCP manifest.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import { GeoLookup } from '../../services/ip-geolocation/geo-lookup.js';
import { createIpGeolocationService } from '../../services/ip-geolocation/service.js';
import { openTestPlatform, type TestKey } from '../support/platform.js';

const tp = await openTestPlatform();
let app: FastifyInstance;
let free: TestKey;
let pro: TestKey;
let enterprise: TestKey;
let elsewhere: TestKey;
let enterpriseToken: string;

beforeAll(async () => {
  const geo = new GeoLookup();
  app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    // Once cli/platform.ts lists the service, the platform's own copy is replaced by this one.
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'ip-geolocation'),
      createIpGeolocationService({ geo }),
    ],
    ports: tp.platform.ports,
    logger: false,
    plugins: [docsPlugin(tp.config.PUBLIC_URL, '0.1.0')],
  });
  await app.ready();
  const [freeUser, proUser, bigUser] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'PRO' }),
    tp.createAccount({ plan: 'ENTERPRISE' }),
  ]);
  enterpriseToken = bigUser.token;
  [free, pro, enterprise, elsewhere] = await Promise.all([
    tp.createApiKey(freeUser.token, { scopes: ['ip-geolocation'] }),
    tp.createApiKey(proUser.token, { scopes: ['ip-geolocation'] }),
    tp.createApiKey(bigUser.token, { scopes: ['ip-geolocation'] }),
    tp.createApiKey(bigUser.token, { scopes: ['readability'] }),
  ]);
  await geo.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await tp.close();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = Record<string, any>;
const get = (url: string, key = enterprise) =>
  app.inject({ method: 'GET', url, headers: { 'X-API-KEY': key.key } });
const post = (url: string, payload: unknown, key = enterprise) =>
  app.inject({ method: 'POST', url, headers: { 'X-API-Key': key.key }, payload: payload as object });

function expectS(res: LightMyRequestResponse, status: number, code: string, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ status: 'ERROR', error: { code, message } });
}

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

const S_FIELDS = [
  'ip',
  'country',
  'countryName',
  'region',
  'city',
  'latitude',
  'longitude',
  'timezone',
  'isp',
  'asn',
  'asnOrg',
  'reserved',
  'reason',
  'attribution',
  'database',
  'asnDatabase',
];
const R_FIELDS = [
  'ip',
  'country',
  'region',
  'city',
  'latitude',
  'longitude',
  'isp',
  'asn',
  'reserved',
  'reason',
  'attribution',
  'database',
  'asnDatabase',
];
const ips = (n: number) => Array.from({ length: n }, (_, i) => `8.8.${i >> 8}.${i & 255}`);

describe('S GET /api/ip-geolocation/lookup', () => {
  it('200 {status, data}: every SPEC field, asn as AS<number>, the sources, rate-limit headers', async () => {
    const res = await get('/api/ip-geolocation/lookup?ip=8.8.8.8');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(body.status).toBe('OK');
    expect(Object.keys(body.data).sort()).toEqual([...S_FIELDS].sort());
    expect(body.data).toMatchObject({
      ip: '8.8.8.8',
      country: 'US',
      countryName: 'United States',
      asn: 'AS15169',
      asnOrg: 'Google LLC',
      reserved: false,
      reason: null,
      database: { name: 'DB-IP IP to City Lite' },
    });
    expect(body.data.attribution[0]).toEqual({
      text: 'IP Geolocation by DB-IP',
      url: 'https://db-ip.com',
      license: 'CC BY 4.0',
      licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('IPv6 in the query needs no encoding of its colons', async () => {
    const res = await get('/api/ip-geolocation/lookup?ip=2001:4860:4860::8888');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Json).data).toMatchObject({ ip: '2001:4860:4860::8888', asn: 'AS15169' });
  });

  it('a private address is 200 with reserved: true, a reason and null fields', async () => {
    const res = await get('/api/ip-geolocation/lookup?ip=10.1.2.3');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Json).data).toMatchObject({
      ip: '10.1.2.3',
      reserved: true,
      reason: 'private (RFC 1918)',
      country: null,
      countryName: null,
      city: null,
      latitude: null,
      asn: null,
      isp: null,
    });
  });

  it.each([
    ['ip=not-an-ip', 'ip: must be a valid IPv4 or IPv6 address'],
    ['ip=256.0.0.1', 'ip: must be a valid IPv4 or IPv6 address'],
    ['ip=127.1', 'ip: must be a valid IPv4 or IPv6 address'],
    [`ip=${encodeURIComponent('[::1]')}`, 'ip: must be a valid IPv4 or IPv6 address'],
    ['ip=', 'ip: must not be blank'],
    ['', 'ip: must not be blank'],
    ['ip=8.8.8.8&lang=de', 'lang: is not a known field'],
  ])('400 VALIDATION_ERROR in the S shape for %j', async (query, message) => {
    expectS(await get(`/api/ip-geolocation/lookup?${query}`), 400, 'VALIDATION_ERROR', message);
  });

  it('401 without a key, 403 INSUFFICIENT_SCOPE with a key for another service', async () => {
    const none = await app.inject({ method: 'GET', url: '/api/ip-geolocation/lookup?ip=8.8.8.8' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ status: 'ERROR', error: { code: 'UNAUTHORIZED' } });
    const res = await get('/api/ip-geolocation/lookup?ip=8.8.8.8', elsewhere);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 'ERROR', error: { code: 'INSUFFICIENT_SCOPE' } });
  });
});

describe('S POST /api/ip-geolocation/lookup/batch', () => {
  it('each address on its own, in order: located, reserved, malformed', async () => {
    const res = await post('/api/ip-geolocation/lookup/batch', {
      ips: ['1.1.1.1', '192.168.0.1', 'nope', '2620:fe::fe', '1.1.1.1'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { status, data } = res.json() as Json;
    expect(status).toBe('OK');
    expect(data.results).toEqual([
      {
        ip: '1.1.1.1',
        country: expect.any(String),
        city: expect.any(String),
        asn: 'AS13335',
        reserved: false,
        reason: null,
      },
      {
        ip: '192.168.0.1',
        country: null,
        city: null,
        asn: null,
        reserved: true,
        reason: 'private (RFC 1918)',
      },
      {
        ip: 'nope',
        error: { code: 'VALIDATION_ERROR', message: 'ips[2]: must be a valid IPv4 or IPv6 address' },
      },
      {
        ip: '2620:fe::fe',
        country: expect.any(String),
        city: expect.any(String),
        asn: 'AS19281',
        reserved: false,
        reason: null,
      },
      data.results[0],
    ]);
    expect(Object.keys(data).sort()).toEqual(['asnDatabase', 'attribution', 'database', 'results']);
  });

  it('FREE plan: 10 addresses pass, 11 are refused (plan batch size 10)', async () => {
    const ok = await post('/api/ip-geolocation/lookup/batch', { ips: ips(10) }, free);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json() as Json).data.results).toHaveLength(10);
    expectS(
      await post('/api/ip-geolocation/lookup/batch', { ips: ips(11) }, free),
      400,
      'VALIDATION_ERROR',
      'ips: must contain at most 10 items',
    );
  });

  it('PRO plan (batch 100) and ENTERPRISE (batch 1,000): the endpoint maximum of 100 applies', async () => {
    for (const key of [pro, enterprise]) {
      const ok = await post('/api/ip-geolocation/lookup/batch', { ips: ips(100) }, key);
      expect(ok.statusCode, ok.body).toBe(200);
      const results = (ok.json() as Json).data.results as Json[];
      expect(results.map((r) => r.ip)).toEqual(ips(100));
      expect(results.every((r) => r.reserved === false && !('error' in r))).toBe(true);
      expectS(
        await post('/api/ip-geolocation/lookup/batch', { ips: ips(101) }, key),
        400,
        'VALIDATION_ERROR',
        'ips: must contain at most 100 items',
      );
    }
  });

  it('refuses an empty list, non-string items and unknown fields', async () => {
    const url = '/api/ip-geolocation/lookup/batch';
    expectS(await post(url, { ips: [] }), 400, 'VALIDATION_ERROR', 'ips: must contain at least 1 item');
    expectS(await post(url, { ips: ['8.8.8.8', 7] }), 400, 'VALIDATION_ERROR', 'ips[1]: must be a string');
    expectS(await post(url, {}), 400, 'VALIDATION_ERROR', 'ips: must not be blank');
    expectS(await post(url, { ips: ['8.8.8.8'], x: 1 }), 400, 'VALIDATION_ERROR', 'x: is not a known field');
  });
});

describe('R GET /api/v1/geoip/{ip}', () => {
  it('200: the bare resource, asn as an integer, no envelope and no processingTimeMs', async () => {
    const res = await get('/api/v1/geoip/9.9.9.9');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(Object.keys(body).sort()).toEqual([...R_FIELDS].sort());
    expect(body).toMatchObject({ ip: '9.9.9.9', asn: 19281, reserved: false, isp: 'Quad9' });
  });

  it('IPv6 in the path, and reserved addresses answered as such', async () => {
    expect((await get('/api/v1/geoip/2001:4860:4860::8844')).json()).toMatchObject({ asn: 15169 });
    const res = await get('/api/v1/geoip/fe80::1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ reserved: true, reason: 'link-local (RFC 4291)', asn: null });
  });

  it('400 as an RFC 7807 problem naming `ip`', async () => {
    expectR(
      await get('/api/v1/geoip/999.1.1.1'),
      400,
      'VALIDATION_ERROR',
      'ip: must be a valid IPv4 or IPv6 address',
      '/api/v1/geoip/999.1.1.1',
    );
  });

  it('401 and 403 as RFC 7807 problems', async () => {
    const none = await app.inject({ method: 'GET', url: '/api/v1/geoip/8.8.8.8' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toMatch(/^application\/problem\+json/);
    const res = await get('/api/v1/geoip/8.8.8.8', elsewhere);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ type: '/problems/insufficient-scope', status: 403 });
  });
});

describe('R POST /api/v1/geoip/batch', () => {
  it('{results}: the R fields per item, errors in place with their status, the sources once', async () => {
    const res = await post('/api/v1/geoip/batch', {
      ips: ['193.0.6.139', '::1', '1.2.3', '2001:67c:2e8:22::c100:68b'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Json;
    expect(body).not.toHaveProperty('processingTimeMs');
    expect(body.results).toMatchObject([
      { ip: '193.0.6.139', country: 'NL', asn: 3333, reserved: false },
      { ip: '::1', asn: null, reserved: true, reason: 'loopback (RFC 4291)' },
      {
        ip: '1.2.3',
        error: {
          code: 'VALIDATION_ERROR',
          status: 400,
          message: 'ips[2]: must be a valid IPv4 or IPv6 address',
        },
      },
      { ip: '2001:67c:2e8:22::c100:68b', country: 'NL', asn: 3333 },
    ]);
    expect(Object.keys(body.results[0]).sort()).toEqual(
      R_FIELDS.filter((f) => !['attribution', 'database', 'asnDatabase'].includes(f)).sort(),
    );
    expect(body.database.name).toBe('DB-IP IP to City Lite');
  });

  it('bounds: FREE 10, otherwise 100, as RFC 7807 problems', async () => {
    expect((await post('/api/v1/geoip/batch', { ips: ips(10) }, free)).statusCode).toBe(200);
    expectR(
      await post('/api/v1/geoip/batch', { ips: ips(11) }, free),
      400,
      'VALIDATION_ERROR',
      'ips: must contain at most 10 items',
      '/api/v1/geoip/batch',
    );
    expect((await post('/api/v1/geoip/batch', { ips: ips(100) })).statusCode).toBe(200);
    expectR(
      await post('/api/v1/geoip/batch', { ips: ips(101) }),
      400,
      'VALIDATION_ERROR',
      'ips: must contain at most 100 items',
      '/api/v1/geoip/batch',
    );
  });
});

describe('metering and documents', () => {
  it('calls are counted under the ip-geolocation slug, a batch as one call, a 400 not at all', async () => {
    const usage = async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${enterpriseToken}` },
      });
      return ((res.json() as Json).data.breakdown['ip-geolocation'] ?? 0) as number;
    };
    const before = await usage();
    await get('/api/ip-geolocation/lookup?ip=8.8.8.8');
    await post('/api/v1/geoip/batch', { ips: ips(20) });
    await get('/api/v1/geoip/nope');
    const deadline = Date.now() + 5_000;
    let after = await usage();
    while (after < before + 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      after = await usage();
    }
    expect(after - before).toBe(2);
  });

  it('OpenAPI documents the four routes (valid 3.1); the MCP manifest has the four tools', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.paths['/api/ip-geolocation/lookup']?.get?.operationId).toBe('ipGeolocationLookup');
    expect(doc.paths['/api/ip-geolocation/lookup/batch']?.post?.operationId).toBe('ipGeolocationLookupBatch');
    expect(doc.paths['/api/v1/geoip/{ip}']?.get?.operationId).toBe('geoipLookup');
    expect(doc.paths['/api/v1/geoip/batch']?.post?.operationId).toBe('geoipBatch');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    const tools = (await app.inject({ method: 'GET', url: '/api/mcp-tools.json' })).json() as {
      tools: { name: string; service: string }[];
    };
    expect(
      tools.tools
        .filter((t) => t.service === 'ip-geolocation')
        .map((t) => t.name)
        .sort(),
    ).toEqual(['geoipBatch', 'geoipLookup', 'ipGeolocationLookup', 'ipGeolocationLookupBatch']);
  });
});
