/**
 * url-metadata through the real gateway of an embedded platform: routing, request validation and its messages,
 * the error body of each convention, batch bounds by plan, metering, and the SSRF guard under the default
 * policy (nothing allowed) on every route. A second app allows 127.0.0.0/8 so that pages served by a local
 * server can be fetched at all.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../core/outbound/client.js';
import { buildApp } from '../../gateway/app.js';
import { createUrlMetadataService } from '../../services/url-metadata/service.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';
import { openSite, redirect, type Site, send } from './site.js';

const D_PATH = '/api/v1/url-metadata/fetch';
const R_PATH = '/api/v1/metadata/extract';
const BATCH_PATH = '/api/v1/metadata/extract/batch';

let tp: TestPlatform;
let guarded: FastifyInstance;
let local: FastifyInstance;
let site: Site;
let freeKey: string;
let basicKey: string;
let meterKey: string;
let meterToken: string;

async function appWith(allowCidrs: string[]): Promise<FastifyInstance> {
  const outbound = createOutboundClient({ allowCidrs, userAgent: 'Toolgate-test/1' });
  const app = await buildApp({
    config: tp.config,
    health: () => tp.rt.health(),
    services: [
      ...tp.platform.services.filter((s) => s.slug !== 'url-metadata'),
      createUrlMetadataService({ outbound }),
    ],
    ports: tp.platform.ports,
    logger: false,
  });
  await app.ready();
  return app;
}

beforeAll(async () => {
  // The plans' batch sizes as shipped; rate windows wide enough for the many calls of this file.
  const wide = { perMinute: 100_000, perDay: 1_000_000, perMonth: 1_000_000 };
  tp = await openTestPlatform({ plans: { FREE: wide, BASIC: wide, PRO: wide } });
  site = await openSite({
    '/': send(
      '<html lang="en"><head><title>Local page</title><meta property="og:image" content="/cover.png">' +
        '<meta name="twitter:card" content="summary"><link rel="icon" href="/i.png"></head></html>',
    ),
    '/to-metadata-service': redirect('http://169.254.169.254/latest/meta-data/'),
    '/to-ipv6-loopback': (_req, res) => {
      res.writeHead(302, { location: `http://[::1]:${site.port}/` }).end();
    },
  });
  [guarded, local] = await Promise.all([appWith([]), appWith(['127.0.0.0/8'])]);
  const [free, basic, meter] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'BASIC' }),
    tp.createAccount({ plan: 'PRO' }),
  ]);
  const keyOf = async (token: string) => (await tp.createApiKey(token, { scopes: ['url-metadata'] })).key;
  [freeKey, basicKey, meterKey] = await Promise.all([
    keyOf(free.token),
    keyOf(basic.token),
    keyOf(meter.token),
  ]);
  meterToken = meter.token;
}, 60_000);

afterAll(async () => {
  await Promise.all([guarded?.close(), local?.close(), site?.close()]);
  await tp?.close();
});

const post = (app: FastifyInstance, url: string, payload: unknown, key = freeKey) =>
  app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload: payload as object });

function expectD(res: LightMyRequestResponse, status: number, code: string, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'status']);
  expect(body).toMatchObject({ error: code, status });
  if (message !== undefined) expect(body.message).toBe(message);
}

function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  path: string,
  detail?: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
  expect(body).toMatchObject({
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    status,
    instance: path,
  });
  if (detail !== undefined) expect(body.detail).toBe(detail);
}

describe('SSRF refusals under the default policy: 403 SSRF_BLOCKED in each convention', () => {
  const blocked = () => [
    site.url('/'),
    `http://localhost:${site.port}/`,
    `http://[::1]:${site.port}/`,
    `http://[::ffff:127.0.0.1]:${site.port}/`,
    `http://0x7f.1:${site.port}/`,
    `http://2130706433:${site.port}/`,
    `http://017700000001:${site.port}/`,
    `http://127.1:${site.port}/`,
    `http://0.0.0.0:${site.port}/`,
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00::1]/',
  ];

  it('D: {error, message, status}, and the local server never sees a request', async () => {
    for (const url of blocked()) {
      const res = await post(guarded, D_PATH, { url });
      expectD(res, 403, 'SSRF_BLOCKED');
      expect(res.json().message, url).toMatch(/^url: /);
    }
    expect(site.hits('/')).toBe(0);
  });

  it('R: an RFC 7807 problem of type /problems/ssrf-blocked', async () => {
    for (const url of blocked())
      expectProblem(await post(guarded, R_PATH, { url }), 403, 'SSRF_BLOCKED', R_PATH);
    expect(site.hits('/')).toBe(0);
  });

  it('R batch: 200, each refused URL carrying its own 403 SSRF_BLOCKED', async () => {
    const urls = blocked().slice(0, 10);
    const res = await post(guarded, BATCH_PATH, { urls });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json();
    expect(results.map((r: { url: string }) => r.url)).toEqual(urls);
    for (const r of results) expect(r.error).toMatchObject({ code: 'SSRF_BLOCKED', status: 403 });
    expect(site.hits('/')).toBe(0);
  });

  it('a redirect to a private address is refused on that hop, even when the first host is allowed', async () => {
    expectD(await post(local, D_PATH, { url: site.url('/to-metadata-service') }), 403, 'SSRF_BLOCKED');
    const before = site.hits('/');
    expectProblem(
      await post(local, R_PATH, { url: site.url('/to-ipv6-loopback') }),
      403,
      'SSRF_BLOCKED',
      R_PATH,
    );
    expect(site.hits('/')).toBe(before);
  });
});

describe('results through the gateway', () => {
  it('D: every SPEC field, plus processingTimeMs added by the gateway, and rate-limit headers', async () => {
    const res = await post(local, D_PATH, { url: site.url('/') });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'charset',
        'contentType',
        'description',
        'favicon',
        'finalUrl',
        'jsonLdTypes',
        'language',
        'openGraph',
        'processingTimeMs',
        'redirectChain',
        'statusCode',
        'title',
        'twitterCard',
        'url',
      ].sort(),
    );
    expect(body).toMatchObject({
      url: site.url('/'),
      finalUrl: site.url('/'),
      statusCode: 200,
      title: 'Local page',
      language: 'en',
      openGraph: { 'og:image': site.url('/cover.png') },
      twitterCard: { 'twitter:card': 'summary' },
      favicon: site.url('/i.png'),
    });
    expect(Number.isInteger(body.processingTimeMs) && body.processingTimeMs >= 0).toBe(true);
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('R: the SPEC fields with finalUrl and statusCode, no processingTimeMs', async () => {
    const res = await post(local, R_PATH, { url: site.url('/') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      url: site.url('/'),
      finalUrl: site.url('/'),
      statusCode: 200,
      title: 'Local page',
      description: null,
      ogImage: site.url('/cover.png'),
      ogType: null,
      twitterCard: 'summary',
      favicon: site.url('/i.png'),
      language: 'en',
    });
  });

  it('a page that cannot be fetched is 422 UNPROCESSABLE in the route’s convention', async () => {
    const gone = await openSite({});
    await gone.close();
    const message = 'url: the server refused the connection';
    expectD(await post(local, D_PATH, { url: gone.url('/') }, basicKey), 422, 'UNPROCESSABLE', message);
    expectProblem(
      await post(local, R_PATH, { url: gone.url('/') }, basicKey),
      422,
      'UNPROCESSABLE',
      R_PATH,
      message,
    );
  });
});

describe('request validation', () => {
  const cases: [string, unknown, string][] = [
    ['a non-HTTP URL', { url: 'ftp://example.com/file' }, 'url: must be a valid HTTP or HTTPS URL'],
    ['a bare host name', { url: 'example.com' }, 'url: must be a valid HTTP or HTTPS URL'],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, 'url: must be a valid HTTP or HTTPS URL'],
    ['no url', {}, 'url: must not be blank'],
    ['an empty url', { url: '' }, 'url: must not be blank'],
    ['a number', { url: 5 }, 'url: must be a string'],
    ['an unknown field', { url: 'https://example.com/', follow: false }, 'follow: is not a known field'],
    [
      'a URL over 2,048 characters',
      { url: `https://example.com/${'a'.repeat(2040)}` },
      'url: must be at most 2048 characters',
    ],
  ];

  it.each(cases)('D: %s → 400 VALIDATION_ERROR', async (_what, body, message) => {
    expectD(await post(guarded, D_PATH, body, basicKey), 400, 'VALIDATION_ERROR', message);
  });

  it.each(cases)('R: %s → 400 problem', async (_what, body, message) => {
    expectProblem(await post(guarded, R_PATH, body, basicKey), 400, 'VALIDATION_ERROR', R_PATH, message);
  });

  it('R batch: an empty list, a non-string item, and more URLs than the plan’s batch size → 400', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `ftp://example.com/${i}`);
    expectProblem(
      await post(guarded, BATCH_PATH, { urls: [] }, basicKey),
      400,
      'VALIDATION_ERROR',
      BATCH_PATH,
      'urls: must contain at least 1 item',
    );
    expectProblem(
      await post(guarded, BATCH_PATH, { urls: ['https://example.com/', 7] }, basicKey),
      400,
      'VALIDATION_ERROR',
      BATCH_PATH,
      'urls[1]: must be a string',
    );
    expectProblem(
      await post(guarded, BATCH_PATH, { urls: eleven }),
      400,
      'VALIDATION_ERROR',
      BATCH_PATH,
      'urls: must contain at most 10 items',
    );
    // BASIC's batch size is 50: the same eleven pass, each refused on its own.
    const res = await post(guarded, BATCH_PATH, { urls: eleven }, basicKey);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toHaveLength(11);
    expectProblem(
      await post(guarded, BATCH_PATH, { urls: Array.from({ length: 101 }, () => 'ftp://x/') }, meterKey),
      400,
      'VALIDATION_ERROR',
      BATCH_PATH,
      'urls: must contain at most 100 items',
    );
  });
});

describe('metering', () => {
  it('counts answered 2xx calls under the url-metadata slug; a batch is one call', async () => {
    const usage = async () => {
      const res = await local.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${meterToken}` },
      });
      return (res.json().data.breakdown['url-metadata'] as number | undefined) ?? 0;
    };
    const before = await usage();
    expect((await post(local, D_PATH, { url: site.url('/') }, meterKey)).statusCode).toBe(200);
    expect((await post(local, R_PATH, { url: site.url('/') }, meterKey)).statusCode).toBe(200);
    const batch = await post(
      local,
      BATCH_PATH,
      { urls: [site.url('/'), 'ftp://x/', site.url('/')] },
      meterKey,
    );
    expect(batch.statusCode).toBe(200);
    // Both item shapes survive the response serializer.
    const [page, refused, again] = batch.json().results;
    expect(page).toMatchObject({ url: site.url('/'), title: 'Local page', twitterCard: 'summary' });
    expect(refused).toEqual({
      url: 'ftp://x/',
      error: { code: 'VALIDATION_ERROR', status: 400, message: 'url: must be a valid HTTP or HTTPS URL' },
    });
    expect(again).toEqual(page);
    expect((await post(guarded, D_PATH, { url: 'http://10.0.0.1/' }, meterKey)).statusCode).toBe(403);
    expect(await usage()).toBe(before + 3);
  });
});
