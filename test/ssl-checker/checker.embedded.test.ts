/**
 * The SSL checker's handlers against real TLS servers on 127.0.0.1 (port 0) with generated certificates,
 * connecting through the real outbound client (loopback allowed, as an operator would for tests).
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import type { CallContext, RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { createSslCheckerService } from '../../services/ssl-checker/service.js';
import { type LocalDns, startLocalDns } from './local-dns.js';
import { TEST_HOST, type TestPki, testPki } from './pki.js';
import { closedPort, type Listener, tcpServer, tlsServer } from './tls-servers.js';

let dns: LocalDns;
/** Loopback allowed, as an operator would for tests; `guarded` has the default empty allow-list. */
let loopback: OutboundClient;
let guarded: OutboundClient;
let pki: TestPki;
let service: ServiceDefinition;
const servers: Listener[] = [];
const port: Record<string, number> = {};

const ctx: CallContext = {
  requestId: 'req-ssl',
  accountId: 'acc-1',
  keyId: 'key-1',
  roles: ['ROLE_USER'],
  plan: 'FREE',
  batchLimit: 10,
  ip: '127.0.0.1',
  now: () => new Date(),
};

const route = (svc: ServiceDefinition, operationId: string): RouteDefinition => {
  const found = svc.routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`no route ${operationId}`);
  return found;
};
/** Every handler result is checked against its declared response schema (as the gateway serializes it). */
const ajv = new Ajv({ allErrors: true });
addFormats.default(ajv);
const conformance = new Map<string, ValidateFunction>();
const conforms = (svc: ServiceDefinition, operationId: string, data: unknown) => {
  let validate = conformance.get(operationId);
  if (!validate) {
    validate = ajv.compile(route(svc, operationId).schemas.response[200]!);
    conformance.set(operationId, validate);
  }
  expect(validate(data), `${operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
};
const call = async (
  operationId: string,
  input: { body?: unknown; query?: Record<string, unknown> },
  svc = service,
) => {
  const data = await route(svc, operationId).handler(
    { params: {}, query: input.query ?? {}, body: input.body, headers: {} },
    ctx,
  );
  conforms(svc, operationId, data);
  return data as Record<string, unknown>;
};
const post = (operationId: string, body: unknown, svc = service) => call(operationId, { body }, svc);
const sCheck = (query: Record<string, unknown>) => call('sslCheckerCheck', { query });
const check = (hostname: string, p: number, svc = service) =>
  post('sslCheckDetailed', { hostname, port: p }, svc);
const checkR = (hostname: string, p: number) => post('sslCheckGraded', { hostname, port: p });

const serve = async (name: string, options: Parameters<typeof tlsServer>[0]) => {
  const listener = await tlsServer(options);
  servers.push(listener);
  port[name] = listener.port;
};

beforeAll(async () => {
  dns = await startLocalDns([TEST_HOST]);
  const policy = { dnsServers: [dns.spec], userAgent: 'toolgate-tests' };
  loopback = createOutboundClient({ ...policy, allowCidrs: ['127.0.0.0/8'] });
  guarded = createOutboundClient({ ...policy, allowCidrs: [] });
  pki = await testPki();
  service = createSslCheckerService({ outbound: loopback, trustedCa: [pki.root.cert] });
  const chain = (leaf: { cert: string }) => leaf.cert + pki.intermediate.cert;
  await Promise.all([
    serve('good', { key: pki.leaf.key, cert: chain(pki.leaf) }),
    serve('leafOnly', { key: pki.leaf.key, cert: pki.leaf.cert }),
    serve('expired', { key: pki.expired.key, cert: chain(pki.expired) }),
    serve('selfSigned', { key: pki.selfSigned.key, cert: pki.selfSigned.cert }),
    serve('wrongHost', { key: pki.wrongHost.key, cert: chain(pki.wrongHost) }),
    serve('untrusted', { key: pki.untrustedLeaf.key, cert: pki.untrustedLeaf.cert + pki.untrustedRoot.cert }),
    serve('tls12', { key: pki.leaf.key, cert: chain(pki.leaf), maxVersion: 'TLSv1.2' }),
    serve('legacyToo', {
      key: pki.leaf.key,
      cert: chain(pki.leaf),
      minVersion: 'TLSv1',
      ciphers: 'DEFAULT:@SECLEVEL=0',
    }),
    serve('legacyOnly', {
      key: pki.leaf.key,
      cert: chain(pki.leaf),
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.1',
      ciphers: 'DEFAULT:@SECLEVEL=0',
    }),
  ]);
  const http = await tcpServer('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  const silent = await tcpServer(null);
  servers.push(http, silent);
  port.http = http.port;
  port.silent = silent.port;
  port.closed = await closedPort();
}, 30_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await dns?.close();
});

describe('a good server (leaf + intermediate, TLS 1.2 and 1.3)', () => {
  it('D on the shared path: valid, every SPEC field, with R’s fields too', async () => {
    const r = await check(TEST_HOST, port.good!);
    expect(r).toMatchObject({
      hostname: TEST_HOST,
      port: port.good,
      valid: true,
      selfSigned: false,
      issuer: { commonName: 'Toolgate Test Issuing CA', organization: 'Toolgate Tests', country: 'DE' },
      subject: { commonName: TEST_HOST, organization: 'Toolgate Tests' },
      serialNumber: pki.leaf.x509.serialNumber.toUpperCase(),
      signatureAlgorithm: 'ecdsa-with-SHA256',
      notAfter: new Date(pki.leaf.x509.validTo).toISOString(),
      daysUntilExpiry: 30,
      subjectAlternativeNames: [TEST_HOST, '127.0.0.1'],
      protocol: 'TLSv1.3',
      cipherSuite: expect.stringMatching(/^TLS_(AES_\d+_GCM|CHACHA20_POLY1305)_SHA\d+$/),
      chainLength: 3,
      chainValid: true,
      hostnameMatch: true,
      protocols: ['TLSv1.2', 'TLSv1.3'],
      grade: 'A+',
      validUntil: new Date(pki.leaf.x509.validTo).toISOString(),
      daysRemaining: 30,
    });
    expect(r).not.toHaveProperty('processingTimeMs');
    expect(r).not.toHaveProperty('error');
  });

  it('R on the shared path: the same union with the issuer as a string', async () => {
    const r = await checkR(TEST_HOST, port.good!);
    expect(r).toMatchObject({ hostname: TEST_HOST, grade: 'A+', issuer: 'Toolgate Tests', valid: true });
  });

  it('by IP address: matched against the IP SAN, no SNI needed', async () => {
    expect(await check('127.0.0.1', port.good!)).toMatchObject({ valid: true, hostnameMatch: true });
  });

  it('S: domain, valid, issuer, expiresAt, daysRemaining', async () => {
    const data = await sCheck({ domain: TEST_HOST, port: port.good });
    expect(data).toEqual({
      domain: TEST_HOST,
      valid: true,
      issuer: 'Toolgate Tests',
      expiresAt: new Date(pki.leaf.x509.validTo).toISOString(),
      daysRemaining: 30,
    });
  });

  it('without the test CA as an extra anchor the same server is untrusted (the anchor is what trusts it)', async () => {
    const plain = createSslCheckerService({ outbound: loopback });
    expect(await check(TEST_HOST, port.good!, plain)).toMatchObject({
      valid: false,
      chainValid: false,
      chainLength: 2,
      grade: 'T',
    });
  });

  it('the injected clock decides expiry: 40 days on, the certificate has expired', async () => {
    const later = createSslCheckerService({
      outbound: loopback,
      trustedCa: [pki.root.cert],
      now: () => new Date(Date.now() + 40 * 86_400_000),
    });
    expect(await check(TEST_HOST, port.good!, later)).toMatchObject({
      valid: false,
      chainValid: true,
      daysUntilExpiry: -10,
      grade: 'T',
    });
  });
});

describe('certificate problems', () => {
  it('expired: not valid, days negative, chain still trusted, grade T', async () => {
    expect(await check(TEST_HOST, port.expired!)).toMatchObject({
      valid: false,
      chainValid: true,
      hostnameMatch: true,
      daysUntilExpiry: -3,
      grade: 'T',
    });
  });

  it('self-signed: detected, chain untrusted, length 1', async () => {
    expect(await check(TEST_HOST, port.selfSigned!)).toMatchObject({
      valid: false,
      selfSigned: true,
      chainValid: false,
      chainLength: 1,
      grade: 'T',
    });
  });

  it('wrong hostname: chain trusted, name not matched', async () => {
    expect(await check(TEST_HOST, port.wrongHost!)).toMatchObject({
      valid: false,
      chainValid: true,
      hostnameMatch: false,
      subjectAlternativeNames: ['other.example', '*.other.example'],
      grade: 'T',
    });
  });

  it('the intermediate not sent: the chain cannot reach the root', async () => {
    expect(await check(TEST_HOST, port.leafOnly!)).toMatchObject({
      valid: false,
      chainValid: false,
      chainLength: 1,
    });
  });

  it('a private root sent by the server is still not trusted', async () => {
    expect(await check(TEST_HOST, port.untrusted!)).toMatchObject({
      valid: false,
      selfSigned: false,
      chainValid: false,
      chainLength: 2,
    });
  });
});

describe('protocol versions, each probed with its own handshake', () => {
  it('a TLS 1.2-only server: negotiates 1.2, accepts only 1.2, grade A', async () => {
    expect(await check(TEST_HOST, port.tls12!)).toMatchObject({
      valid: true,
      protocol: 'TLSv1.2',
      cipherSuite: expect.stringMatching(/^TLS_ECDHE_ECDSA_WITH_/),
      protocols: ['TLSv1.2'],
      grade: 'A',
    });
  });

  it('a server that still accepts TLS 1.0 and 1.1: all four listed, grade B', async () => {
    expect(await check(TEST_HOST, port.legacyToo!)).toMatchObject({
      valid: true,
      protocol: 'TLSv1.3',
      protocols: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'],
      grade: 'B',
    });
  });

  it('a legacy-only server is still examined: TLS 1.1 negotiated, grade F', async () => {
    expect(await check(TEST_HOST, port.legacyOnly!)).toMatchObject({
      valid: true,
      protocol: 'TLSv1.1',
      protocols: ['TLSv1.0', 'TLSv1.1'],
      grade: 'F',
    });
  });
});

describe('no TLS connection: the CONNECTION_FAILED result', () => {
  const LEAKS = /\/(?:work|tmp|home|usr|deps)\/|\.c:\d+|\bat\s+\S+\s+\(|127\.0\.0\.1:\d+ → /;

  it('connection refused', async () => {
    const r = await check(TEST_HOST, port.closed!);
    expect(r).toEqual({
      hostname: TEST_HOST,
      port: port.closed,
      valid: false,
      error: 'CONNECTION_FAILED',
      message: `no TLS connection to ${TEST_HOST}:${port.closed}: the connection was refused`,
    });
  });

  it('a server that does not speak TLS: the handshake failure, without OpenSSL internals', async () => {
    const r = await check(TEST_HOST, port.http!);
    expect(r).toMatchObject({ valid: false, error: 'CONNECTION_FAILED' });
    expect(String(r.message)).toMatch(/^no TLS connection to ssl\.test:\d+: the TLS handshake failed/);
    expect(String(r.message)).not.toMatch(LEAKS);
  });

  it('a server that never answers: timed out after the configured handshake time', async () => {
    const quick = createSslCheckerService({
      outbound: loopback,
      trustedCa: [pki.root.cert],
      timeouts: { handshakeMs: 300 },
    });
    const started = Date.now();
    const r = await check(TEST_HOST, port.silent!, quick);
    expect(r).toMatchObject({ valid: false, error: 'CONNECTION_FAILED' });
    expect(String(r.message)).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a name that does not resolve', async () => {
    const r = await check('nonexistent.test', 443);
    expect(r).toMatchObject({ hostname: 'nonexistent.test', port: 443, error: 'CONNECTION_FAILED' });
    expect(String(r.message)).toMatch(/does not resolve/);
  });

  it('S: valid false, certificate fields null, error and message', async () => {
    const data = await sCheck({ domain: TEST_HOST, port: port.closed });
    expect(data).toMatchObject({
      domain: TEST_HOST,
      valid: false,
      issuer: null,
      expiresAt: null,
      daysRemaining: null,
      error: 'CONNECTION_FAILED',
    });
  });
});

describe('refusals', () => {
  const refusal = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      if (e instanceof AppError) return { code: e.code, message: e.message };
      throw e;
    }
    throw new Error('expected an AppError');
  };

  it('loopback without an operator allow-list: 403 SSRF_BLOCKED, nothing connected', async () => {
    const strict = createSslCheckerService({ outbound: guarded, trustedCa: [pki.root.cert] });
    expect(await refusal(check('127.0.0.1', port.good!, strict))).toMatchObject({ code: 'SSRF_BLOCKED' });
    expect(await refusal(check(TEST_HOST, port.good!, strict))).toMatchObject({ code: 'SSRF_BLOCKED' });
  });

  it('the name localhost is refused even where loopback addresses are allowed (RFC 6761)', async () => {
    expect(await refusal(check('localhost', port.good!))).toMatchObject({ code: 'SSRF_BLOCKED' });
  });

  it('a hostname that is no domain name or address: 400 with the SPEC constraint', async () => {
    for (const hostname of ['https://example.com/', 'exa mple.com', 'example..com', 'example.com:443']) {
      expect(await refusal(check(hostname, 443)), hostname).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'hostname: must be a valid domain name',
      });
    }
    const s = route(service, 'sslCheckerCheck').handler(
      { params: {}, query: { domain: 'not a domain' }, body: undefined, headers: {} },
      ctx,
    );
    expect(await refusal(s)).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'domain: must be a valid domain name',
    });
  });
});

describe('batches: every item carries its input and its own outcome', () => {
  const targets = () => [
    { hostname: TEST_HOST, port: port.good },
    { hostname: TEST_HOST, port: port.expired },
    { hostname: TEST_HOST, port: port.closed },
    { hostname: 'not a host', port: port.good },
    { hostname: '127.0.0.1', port: port.selfSigned },
  ];

  it('D bulk: D results in order, each timed; counts', async () => {
    const r = await post('sslCheckBulk', { targets: targets() });
    expect(r).toMatchObject({ totalChecked: 5, validCount: 1, invalidCount: 4, failedCount: 2 });
    const results = r.results as Record<string, unknown>[];
    expect(results.map((x) => [x.hostname, x.port, x.valid, x.error ?? null])).toEqual([
      [TEST_HOST, port.good, true, null],
      [TEST_HOST, port.expired, false, null],
      [TEST_HOST, port.closed, false, 'CONNECTION_FAILED'],
      ['not a host', port.good, false, 'VALIDATION_ERROR'],
      ['127.0.0.1', port.selfSigned, false, null],
    ]);
    expect(results[0]).toMatchObject({
      chainLength: 3,
      daysUntilExpiry: 30,
      processingTimeMs: expect.any(Number),
    });
    expect(results[0]).not.toHaveProperty('grade');
    expect(results[3]).toMatchObject({ message: 'hostname: must be a valid domain name' });
    expect(results[4]).toMatchObject({ selfSigned: true });
  });

  it('R batch: R results in order with their input; checkedAt', async () => {
    const r = await post('sslCheckBatch', { targets: targets() });
    const results = r.results as Record<string, unknown>[];
    expect(results[0]).toEqual({
      hostname: TEST_HOST,
      port: port.good,
      grade: 'A+',
      issuer: 'Toolgate Tests',
      validFrom: new Date(pki.leaf.x509.validFrom).toISOString(),
      validUntil: new Date(pki.leaf.x509.validTo).toISOString(),
      daysRemaining: 30,
      chainValid: true,
      hostnameMatch: true,
      protocols: ['TLSv1.2', 'TLSv1.3'],
    });
    expect(results.map((x) => x.grade ?? x.error)).toEqual([
      'A+',
      'T',
      'CONNECTION_FAILED',
      'VALIDATION_ERROR',
      'T',
    ]);
    expect(Date.now() - Date.parse(String(r.checkedAt))).toBeLessThan(60_000);
  });

  it('an item the outbound guard refuses fails alone', async () => {
    const strict = createSslCheckerService({ outbound: guarded, trustedCa: [pki.root.cert] });
    const r = await post('sslCheckBulk', { targets: [{ hostname: '127.0.0.1', port: port.good }] }, strict);
    expect((r.results as unknown[])[0]).toMatchObject({
      hostname: '127.0.0.1',
      valid: false,
      error: 'SSRF_BLOCKED',
    });
  });
});
