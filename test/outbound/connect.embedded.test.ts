/**
 * connectTcp and connectTls against real local servers: the socket goes to the vetted address, TLS verification
 * is reported (or enforced on request), versions can be pinned, and connect and handshake time are capped.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket, type Server as TlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';
import { type Blackhole, startBlackhole } from './blackhole.js';
import { makeTestPki, type TestPki } from './test-pki.js';

let echo: Server;
let silent: Server;
let tls: TlsServer;
let tls12: TlsServer;
let dns: LocalDns;
let pki: TestPki;
let hole: Blackhole;
let client: OutboundClient;
const seenSni: (string | false)[] = [];
const sockets = new Set<Socket>();

/** The SNI the TLS server saw on its `n`th connection (its callback may run after the client's). */
async function sniOf(n: number): Promise<string | false | undefined> {
  for (let i = 0; i < 100 && seenSni.length <= n; i++) await new Promise((r) => setTimeout(r, 10));
  return seenSni[n];
}

const portOf = (s: Server) => (s.address() as { port: number }).port;
const listen = async <T extends Server>(server: T): Promise<T> => {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
};

beforeAll(async () => {
  pki = makeTestPki({ names: ['tls.connect.test'], ips: ['127.0.0.1'] });
  echo = await listen(createServer((s) => s.pipe(s)));
  silent = await listen(createServer(() => {})); // accepts, never speaks TLS
  tls = await listen(
    createTlsServer({ cert: pki.cert, key: pki.key }, (s) => {
      seenSni.push((s as TLSSocket & { servername: string | false }).servername);
      s.end('hi');
    }),
  );
  tls12 = await listen(
    createTlsServer({ cert: pki.cert, key: pki.key, maxVersion: 'TLSv1.2' }, (s) => s.end()),
  );
  dns = await startLocalDns({
    'tls.connect.test': { A: ['127.0.0.1'] },
    'other.connect.test': { A: ['127.0.0.1'] },
  });
  hole = await startBlackhole();
  client = createOutboundClient({ allowCidrs: ['127.0.0.1/32'], dnsServers: [dns.server], userAgent: 'x' });
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(
    [echo, silent, tls, tls12].map((s) => new Promise<void>((r) => (s ? s.close(() => r()) : r()))),
  );
  await dns?.close();
  await hole?.close();
});

describe('connectTcp', () => {
  it('connects to the vetted address and hands over a working socket', async () => {
    const { socket, address, connectMs } = await client.connectTcp('tls.connect.test', portOf(echo));
    expect(address).toBe('127.0.0.1');
    expect(connectMs).toBeGreaterThan(0);
    const reply = await new Promise<string>((resolve) => {
      socket.once('data', (d) => resolve(d.toString()));
      socket.write('ping');
    });
    expect(reply).toBe('ping');
    socket.destroy();
  });

  it.each([0, -1, 65536, 1.5, Number.NaN])('refuses port %s', async (port) => {
    await expect(client.connectTcp('127.0.0.1', port)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'port: must be an integer from 1 to 65535',
    });
  });

  it.each(['', 'a b', '1.2.3.4.5', 'exa_mple..com', 'host/path', 'user@host'])(
    'refuses host %j',
    async (host) => {
      await expect(client.connectTcp(host, 80)).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'host: must be a valid host name or IP address',
      });
    },
  );

  it('times out on a host that never completes the TCP handshake', async () => {
    const started = Date.now();
    await expect(client.connectTcp(hole.host, hole.port, { timeoutMs: 300 })).rejects.toMatchObject({
      name: 'OutboundError',
      code: 'TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("stops at the caller's signal with ABORTED", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(
      client.connectTcp(hole.host, hole.port, { timeoutMs: 5_000, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'OutboundError', code: 'ABORTED' });
    const early = new AbortController();
    early.abort();
    await expect(
      client.connectTls('tls.connect.test', portOf(tls), { signal: early.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('connectTls', () => {
  it('reports an untrusted chain without failing by default (checkers inspect it)', async () => {
    const n = seenSni.length;
    const { socket, address, handshakeMs } = await client.connectTls('tls.connect.test', portOf(tls));
    expect(address).toBe('127.0.0.1');
    expect(handshakeMs).toBeGreaterThan(0);
    expect(socket.authorized).toBe(false);
    expect(socket.authorizationError).toBeTruthy();
    expect(socket.getPeerCertificate().subject.CN).toBe('tls.connect.test');
    expect(await sniOf(n)).toBe('tls.connect.test');
    socket.destroy();
  });

  it('is authorized with the right CA, by name and by IP', async () => {
    const n = seenSni.length;
    const byName = await client.connectTls('tls.connect.test', portOf(tls), { ca: pki.ca });
    expect(byName.socket.authorized).toBe(true);
    // Closing before the server finished its side of the handshake would lose its record of it.
    expect(await sniOf(n)).toBe('tls.connect.test');
    byName.socket.destroy();
    const byIp = await client.connectTls('127.0.0.1', portOf(tls), { ca: [pki.ca] });
    expect(byIp.socket.authorized).toBe(true);
    expect(await sniOf(n + 1)).toBe(false);
    byIp.socket.destroy();
  });

  it('checks the servername it is given, and reports a mismatch', async () => {
    const n = seenSni.length;
    const { socket } = await client.connectTls('127.0.0.1', portOf(tls), {
      ca: pki.ca,
      servername: 'other.connect.test',
    });
    expect(await sniOf(n)).toBe('other.connect.test');
    expect(socket.authorized).toBe(false);
    expect(socket.authorizationError).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    socket.destroy();
  });

  it('fails with TLS_FAILURE when told to reject an untrusted certificate', async () => {
    await expect(
      client.connectTls('tls.connect.test', portOf(tls), { rejectUnauthorized: true }),
    ).rejects.toMatchObject({ name: 'OutboundError', code: 'TLS_FAILURE' });
    await expect(
      client.connectTls('other.connect.test', portOf(tls), { rejectUnauthorized: true, ca: pki.ca }),
    ).rejects.toMatchObject({ code: 'TLS_FAILURE' });
  });

  it('pins protocol versions', async () => {
    const v12 = await client.connectTls('127.0.0.1', portOf(tls), { maxVersion: 'TLSv1.2' });
    expect(v12.socket.getProtocol()).toBe('TLSv1.2');
    v12.socket.destroy();
    const v13 = await client.connectTls('127.0.0.1', portOf(tls), { minVersion: 'TLSv1.3' });
    expect(v13.socket.getProtocol()).toBe('TLSv1.3');
    v13.socket.destroy();
    await expect(
      client.connectTls('127.0.0.1', portOf(tls12), { minVersion: 'TLSv1.3' }),
    ).rejects.toMatchObject({ code: 'TLS_FAILURE' });
  });

  it('can offer TLS 1.0 (legacy probes) and still negotiate the best version', async () => {
    const { socket } = await client.connectTls('127.0.0.1', portOf(tls), { minVersion: 'TLSv1' });
    expect(socket.getProtocol()).toBe('TLSv1.3');
    socket.destroy();
  });

  it('times out a handshake the server never answers', async () => {
    await expect(client.connectTls('127.0.0.1', portOf(silent), { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: 'TLS handshake timed out after 300 ms',
    });
  });

  it('reports a plain-TCP peer that closes as a failure, not a hang', async () => {
    await expect(client.connectTls('127.0.0.1', portOf(echo), { timeoutMs: 2_000 })).rejects.toMatchObject({
      name: 'OutboundError',
    });
  });
});

describe('vet', () => {
  it('returns the address a connection would use', async () => {
    expect(await client.vet('tls.connect.test')).toBe('127.0.0.1');
    expect(await client.vet('0x7f.1')).toBe('127.0.0.1');
    expect(await client.vet('[::ffff:127.0.0.1]')).toBe('127.0.0.1');
  });

  it('fails for names that do not resolve', async () => {
    await expect(client.vet('missing.connect.test')).rejects.toMatchObject({ code: 'DNS_FAILURE' });
  });
});
