/**
 * The SSRF table through the real gateway: a probe service (test-only, one route per convention) fetches with an
 * outbound client built from the platform's own configuration, so every refusal is rendered as a real route
 * renders it: S `{status:"ERROR",error:{code}}`, R problem+json `/problems/ssrf-blocked`, D `{error,status}`.
 * This is the harness services that contact user-named hosts repeat against their own routes.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import { outboundPolicyFromConfig } from '../../core/outbound/policy-from-config.js';
import type { Convention, RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { buildApp } from '../../gateway/app.js';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';
import {
  runSsrfTable,
  runSsrfTargets,
  SSRF_CASES,
  SSRF_PUBLIC_IP,
  type SsrfFixtures,
  startSsrfFixtures,
} from '../support/ssrf-cases.js';

const urlBody = {
  type: 'object',
  required: ['url'],
  properties: { url: { type: 'string', minLength: 1 } },
  additionalProperties: false,
};
const hostBody = {
  type: 'object',
  required: ['hostname', 'port'],
  properties: { hostname: { type: 'string', minLength: 1 }, port: { type: 'integer' } },
  additionalProperties: false,
};
const result = { type: 'object', required: ['statusCode'], properties: { statusCode: { type: 'integer' } } };

function probeService(outbound: OutboundClient): ServiceDefinition {
  const fetchRoute = (convention: Convention, path: string, operationId: string): RouteDefinition => ({
    convention,
    method: 'POST',
    path,
    operationId,
    summary: 'Fetch a URL through the outbound guard',
    auth: 'apiKey',
    metered: true,
    schemas: { body: urlBody, response: { 200: result } },
    async handler(input) {
      const { url } = input.body as { url: string };
      const res = await outbound.fetch({ url, readLimitBytes: 1024 });
      return { statusCode: res.status };
    },
  });
  return {
    slug: 'outbound-probe',
    title: 'Outbound probe (test only)',
    description: 'Fetches and connects through core/outbound, for the SSRF suite.',
    routes: [
      fetchRoute('S', '/api/outbound-probe/fetch', 'outboundProbeFetchS'),
      fetchRoute('R', '/api/v1/outbound-probe/fetch-r', 'outboundProbeFetchR'),
      fetchRoute('D', '/api/v1/outbound-probe/fetch-d', 'outboundProbeFetchD'),
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/outbound-probe/connect',
        operationId: 'outboundProbeConnect',
        summary: 'Open a TLS connection through the outbound guard',
        auth: 'apiKey',
        metered: true,
        schemas: { body: hostBody, response: { 200: result } },
        async handler(input) {
          const { hostname, port } = input.body as { hostname: string; port: number };
          const { socket } = await outbound.connectTls(hostname, port, { timeoutMs: 2_000 });
          socket.destroy();
          return { statusCode: 0 };
        },
      },
    ],
  };
}

let fx: SsrfFixtures;
let tp: TestPlatform;
let app: FastifyInstance;
let key: string;

beforeAll(async () => {
  fx = await startSsrfFixtures();
  tp = await openTestPlatform({ env: fx.env });
  const outbound = createOutboundClient(outboundPolicyFromConfig(tp.config, '0.0.0-test'));
  app = await buildApp({
    config: tp.config,
    health: async () => ({ status: 'UP', components: {} }),
    services: [...tp.platform.services, probeService(outbound)],
    ports: tp.platform.ports,
    logger: false,
  });
  await app.ready();
  const user = await tp.createAccount({ plan: 'ENTERPRISE' });
  key = (await tp.createApiKey(user.token, { scopes: ['*'] })).key;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await tp?.close();
  await fx?.close();
});

const post = async (url: string, payload: unknown) => {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': key },
    payload: payload as object,
  });
  return { status: res.statusCode, body: res.json() as unknown };
};

describe('the platform configuration reaches the client', () => {
  it('OUTBOUND_ALLOW_CIDRS and DNS_SERVERS come from the environment', () => {
    expect(tp.config.OUTBOUND_ALLOW_CIDRS).toEqual([`${SSRF_PUBLIC_IP}/32`]);
    expect(tp.config.DNS_SERVERS).toEqual([fx.dns.server]);
  });

  it('positive control: the allow-listed server is fetched, by IP and by name, in every convention', async () => {
    for (const path of [
      '/api/outbound-probe/fetch',
      '/api/v1/outbound-probe/fetch-r',
      '/api/v1/outbound-probe/fetch-d',
    ]) {
      const direct = await post(path, { url: `${fx.publicHttp.origin}/ok` });
      expect(direct.status, path).toBe(200);
      const named = await post(path, { url: `http://public.ssrf.test:${fx.publicHttp.port}/missing` });
      expect(named.status, path).toBe(200);
      expect(JSON.stringify(named.body), path).toContain('404');
    }
  });
});

describe.each([
  ['S', '/api/outbound-probe/fetch'],
  ['R', '/api/v1/outbound-probe/fetch-r'],
  ['D', '/api/v1/outbound-probe/fetch-d'],
])('convention %s: every case is 403 SSRF_BLOCKED', (convention, path) => {
  it(`runs all ${SSRF_CASES.length} cases without a connection to the sentinel`, async () => {
    const run = await runSsrfTable(fx, (url) => post(path, { url }));
    expect(run.failures).toEqual([]);
    expect(run.sentinelConnections).toEqual([]);
  });

  it('renders the refusal in the convention, without the address', async () => {
    const { status, body } = await post(path, { url: `http://0x7f.1:${fx.sentinel.port}/` });
    expect(status).toBe(403);
    const message = 'url: resolves to a non-public address';
    if (convention === 'S')
      expect(body).toEqual({ status: 'ERROR', error: { code: 'SSRF_BLOCKED', message } });
    if (convention === 'D') expect(body).toEqual({ error: 'SSRF_BLOCKED', message, status: 403 });
    if (convention === 'R') {
      expect(body).toEqual({
        type: '/problems/ssrf-blocked',
        title: 'Target blocked',
        status: 403,
        detail: message,
        instance: path,
      });
    }
    expect(JSON.stringify(body)).not.toContain('127.0.0.1');
  });
});

it('a non-HTTP URL is 400 with the constraint of SPEC 7.3', async () => {
  const { status, body } = await post('/api/v1/outbound-probe/fetch-d', { url: 'ftp://example.com/' });
  expect(status).toBe(400);
  expect(body).toEqual({
    error: 'VALIDATION_ERROR',
    message: 'url: must be a valid HTTP or HTTPS URL',
    status: 400,
  });
});

it('host-based routes: every host-form case is 403 SSRF_BLOCKED', async () => {
  const run = await runSsrfTargets(fx, (hostname, port) =>
    post('/api/v1/outbound-probe/connect', { hostname, port }),
  );
  expect(run.failures).toEqual([]);
  expect(run.sentinelConnections).toEqual([]);
});
