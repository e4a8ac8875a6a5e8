/**
 * The outbound HTTP client against real local servers: redirects, errors as results, caps, decoding, timeouts,
 * TLS. The allow-list is 127.0.0.1/32 so that the servers count as reachable; the SSRF refusals themselves are
 * ssrf.embedded.test.ts's subject.
 */
import { createServer } from 'node:net';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';
import { type Blackhole, startBlackhole } from './blackhole.js';
import { type LocalHttp, startHttp, startHttps } from './local-http.js';
import { makeTestPki, type TestPki } from './test-pki.js';

const UA = 'Toolgate/9.9.9 (+https://toolgate.example)';
const TEXT = 'hello outbound world. '.repeat(200);
// 16 MiB of zeros gzip to about 16 KB: a small download that inflates past the default 10 MiB cap.
const BOMB = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });

let srv: LocalHttp;
let other: LocalHttp;
let tlsSrv: LocalHttp;
let dns: LocalDns;
let pki: TestPki;
let hole: Blackhole;
let client: OutboundClient;
const sni: (string | false)[] = [];

const echo = (req: { method?: string; url?: string; headers: unknown; body: Buffer }) =>
  JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: req.body.toString() });

beforeAll(async () => {
  srv = await startHttp((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to') ?? '/echo';
    const hops = /^\/hops\/(\d+)$/.exec(url.pathname);
    const len = Number(url.searchParams.get('len') ?? 0);
    switch (hops ? '/hops' : url.pathname) {
      case '/echo':
        return res.writeHead(200, { 'content-type': 'application/json' }).end(echo(req));
      case '/missing':
        return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>no such page</h1>');
      case '/chain':
        return res.writeHead(301, { location: '/chain2' }).end();
      case '/chain2':
        return res.writeHead(302, { location: 'final?x=1' }).end('moved');
      case '/final':
        return res.writeHead(200).end(echo(req));
      case '/status':
        return res.writeHead(Number(url.searchParams.get('code')), { location: to }).end();
      case '/loop':
        return res.writeHead(302, { location: '/loop' }).end();
      case '/hops': {
        const n = Number(hops![1]);
        return n === 0
          ? res.writeHead(200).end('arrived')
          : res.writeHead(302, { location: `/hops/${n - 1}` }).end();
      }
      case '/huge':
        res.writeHead(200, { 'content-length': String(len) });
        return res.end(Buffer.alloc(len, 'x'));
      case '/huge-chunked':
        res.writeHead(200);
        return res.end(Buffer.alloc(len, 'x'));
      case '/slow-body': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/slow-headers':
        return; // never answers
      case '/gzip':
        return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(TEXT));
      case '/deflate':
        return res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(TEXT));
      case '/deflate-raw':
        return res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateRawSync(TEXT));
      case '/br':
        return res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync(TEXT));
      case '/gzip-br':
        return res.writeHead(200, { 'content-encoding': 'gzip, br' }).end(brotliCompressSync(gzipSync(TEXT)));
      case '/unknown-coding':
        return res.writeHead(200, { 'content-encoding': 'zstd' }).end('raw bytes');
      case '/corrupt-gzip':
        return res.writeHead(200, { 'content-encoding': 'gzip' }).end(Buffer.from('not gzip at all'));
      case '/bomb':
        return res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' }).end(BOMB);
      case '/latin1':
        return res
          .writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1', 'content-language': 'fr' })
          .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      case '/cookies':
        res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
        res.setHeader('x-multi', ['one', 'two']);
        return res.writeHead(200).end();
      case '/reset':
        res.writeHead(200, { 'content-length': '100000' });
        res.write(Buffer.alloc(1000, 'x'));
        return setTimeout(() => res.socket?.destroy(), 20);
      case '/no-content':
        return res.writeHead(204).end();
      default:
        return res.writeHead(500).end('unexpected path');
    }
  });
  other = await startHttp((req, res) => res.writeHead(200).end(echo(req)));
  pki = makeTestPki({ names: ['tls.outbound.test'], ips: ['127.0.0.1'] });
  tlsSrv = await startHttps(pki, (req, res) => res.writeHead(200).end(echo(req)));
  tlsSrv.server.on('secureConnection', (s: import('node:tls').TLSSocket) =>
    sni.push((s as unknown as { servername: string | false }).servername),
  );
  dns = await startLocalDns({
    'app.outbound.test': { A: ['127.0.0.1'] },
    'tls.outbound.test': { A: ['127.0.0.1'] },
    'wrong.outbound.test': { A: ['127.0.0.1'] },
    'broken.outbound.test': { rcode: 'SERVFAIL' },
    'empty.outbound.test': { MX: [{ exchange: 'mx.outbound.test', priority: 1 }] },
  });
  hole = await startBlackhole();
  client = createOutboundClient({ allowCidrs: ['127.0.0.1/32'], dnsServers: [dns.server], userAgent: UA });
});

afterAll(async () => {
  await Promise.all([srv?.close(), other?.close(), tlsSrv?.close(), dns?.close(), hole?.close()]);
});

const json = (body: Buffer) => JSON.parse(body.toString()) as Record<string, unknown>;

describe('requests', () => {
  it('returns status, lower-case headers, body, the vetted address and timings', async () => {
    const res = await client.fetch({ url: `${srv.origin}/echo?q=1` });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${srv.origin}/echo?q=1`);
    expect(res.headers['content-type']).toBe('application/json');
    expect(json(res.body)).toMatchObject({ method: 'GET', url: '/echo?q=1' });
    expect(res.truncated).toBe(false);
    expect(res.redirectChain).toEqual([]);
    expect(res.remoteAddress).toBe('127.0.0.1');
    const { dnsMs, connectMs, firstByteMs, totalMs } = res.timings;
    expect(dnsMs).toBe(0);
    expect(connectMs).toBeGreaterThan(0);
    expect(firstByteMs).toBeGreaterThan(0);
    expect(totalMs).toBeGreaterThanOrEqual(connectMs + firstByteMs);
  });

  it('names the platform in User-Agent and sets Host, Accept-Encoding and Connection itself', async () => {
    const res = await client.fetch({
      url: `${srv.origin}/echo`,
      headers: { 'X-Custom': 'yes', Host: 'evil.example', 'Content-Length': '999', Connection: 'keep-alive' },
    });
    const headers = json(res.body).headers as Record<string, string>;
    expect(headers['user-agent']).toBe(UA);
    expect(headers.host).toBe(`127.0.0.1:${srv.port}`);
    expect(headers['x-custom']).toBe('yes');
    expect(headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(headers.connection).toBe('close');
    expect(headers['content-length']).toBeUndefined();
  });

  it('lets a caller name its own User-Agent and Accept', async () => {
    const res = await client.fetch({
      url: `${srv.origin}/echo`,
      headers: { 'user-agent': 'mine', accept: 'text/html' },
    });
    expect(json(res.body).headers).toMatchObject({ 'user-agent': 'mine', accept: 'text/html' });
  });

  it('sends a body with its length, and the method in upper case', async () => {
    const res = await client.fetch({
      url: `${srv.origin}/echo`,
      method: 'post',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(json(res.body)).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-length': '7' },
    });
  });

  it('resolves names through the configured DNS servers and connects to the vetted address', async () => {
    const res = await client.fetch({ url: `http://app.outbound.test:${srv.port}/echo` });
    expect(res.remoteAddress).toBe('127.0.0.1');
    expect((json(res.body).headers as Record<string, string>).host).toBe(`app.outbound.test:${srv.port}`);
    expect(res.timings.dnsMs).toBeGreaterThan(0);
  });

  it('returns a 404 page as a normal response', async () => {
    const res = await client.fetch({ url: `${srv.origin}/missing` });
    expect(res.status).toBe(404);
    expect(res.body.toString()).toBe('<h1>no such page</h1>');
  });

  it('HEAD and 204 have empty bodies', async () => {
    expect((await client.fetch({ url: `${srv.origin}/echo`, method: 'HEAD' })).body.length).toBe(0);
    const res = await client.fetch({ url: `${srv.origin}/no-content` });
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
  });

  it('passes charset and other headers through and never transcodes the body', async () => {
    const res = await client.fetch({ url: `${srv.origin}/latin1` });
    expect(res.headers['content-type']).toBe('text/html; charset=ISO-8859-1');
    expect(res.headers['content-language']).toBe('fr');
    expect([...res.body]).toEqual([0x63, 0x61, 0x66, 0xe9]);
  });

  it('keeps the first Set-Cookie and joins other repeated headers', async () => {
    const res = await client.fetch({ url: `${srv.origin}/cookies` });
    expect(res.headers['set-cookie']).toBe('a=1; Path=/');
    expect(res.headers['x-multi']).toBe('one, two');
  });

  it('never sends userinfo, and never reports it', async () => {
    const res = await client.fetch({ url: `http://alice:secret@127.0.0.1:${srv.port}/echo` });
    expect((json(res.body).headers as Record<string, string>).authorization).toBeUndefined();
    expect(res.url).toBe(`${srv.origin}/echo`);
  });
});

describe('bad input', () => {
  it.each([
    'ftp://127.0.0.1/',
    'file:///etc/passwd',
    'gopher://127.0.0.1:70/',
    'javascript:alert(1)',
    'data:text/plain,hi',
    'not a url',
    '//127.0.0.1/',
    'http://',
    'http://127.0.0.1:0/',
    'http://127.0.0.1:99999/',
    'http://1.2.3.4.5/',
  ])('%s → 400 url: must be a valid HTTP or HTTPS URL', async (url) => {
    await expect(client.fetch({ url })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'url: must be a valid HTTP or HTTPS URL',
    });
  });

  it('refuses unknown methods and bad header values', async () => {
    await expect(client.fetch({ url: `${srv.origin}/echo`, method: 'CONNECT' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'method: must be one of [GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS]',
    });
    await expect(
      client.fetch({ url: `${srv.origin}/echo`, headers: { 'x-a': 'line\r\nx-injected: 1' } }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'headers: must be valid HTTP header names and values',
    });
  });
});

describe('redirects', () => {
  it('follows a chain by hand, relative Locations included, and reports every hop', async () => {
    const res = await client.fetch({ url: `${srv.origin}/chain` });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${srv.origin}/final?x=1`);
    expect(res.redirectChain).toEqual([
      { from: `${srv.origin}/chain`, to: `${srv.origin}/chain2`, status: 301 },
      { from: `${srv.origin}/chain2`, to: `${srv.origin}/final?x=1`, status: 302 },
    ]);
  });

  it('303 after POST continues with GET and no body; 307 and 308 repeat the POST', async () => {
    const post = { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } };
    const seeOther = await client.fetch({ url: `${srv.origin}/status?code=303&to=/echo`, ...post });
    expect(json(seeOther.body)).toMatchObject({ method: 'GET', body: '' });
    expect((json(seeOther.body).headers as Record<string, string>)['content-type']).toBeUndefined();
    for (const code of [307, 308]) {
      const again = await client.fetch({ url: `${srv.origin}/status?code=${code}&to=/echo`, ...post });
      expect(json(again.body), String(code)).toMatchObject({ method: 'POST', body: 'payload' });
    }
    const moved = await client.fetch({ url: `${srv.origin}/status?code=301&to=/echo`, ...post });
    expect(json(moved.body)).toMatchObject({ method: 'GET', body: '' });
  });

  it('drops credentials when the redirect leaves the origin', async () => {
    const headers = { authorization: 'Bearer secret', cookie: 'sid=1', 'x-keep': 'k' };
    const same = await client.fetch({ url: `${srv.origin}/status?code=302&to=/echo`, headers });
    expect(json(same.body).headers).toMatchObject({ authorization: 'Bearer secret', cookie: 'sid=1' });
    const cross = await client.fetch({
      url: `${srv.origin}/status?code=307&to=${encodeURIComponent(`${other.origin}/x`)}`,
      headers,
    });
    const seen = json(cross.body).headers as Record<string, string>;
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
    expect(seen['x-keep']).toBe('k');
  });

  it('follows at most maxRedirects hops: a loop ends in TOO_MANY_REDIRECTS', async () => {
    expect((await client.fetch({ url: `${srv.origin}/hops/5` })).body.toString()).toBe('arrived');
    await expect(client.fetch({ url: `${srv.origin}/hops/6` })).rejects.toMatchObject({
      name: 'OutboundError',
      code: 'TOO_MANY_REDIRECTS',
    });
    await expect(client.fetch({ url: `${srv.origin}/loop` })).rejects.toMatchObject({
      code: 'TOO_MANY_REDIRECTS',
    });
    await expect(
      client.fetch({ url: `${srv.origin}/hops/3`, limits: { maxRedirects: 2 } }),
    ).rejects.toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
  });

  it('returns the 3xx itself when told not to follow, or when Location is missing', async () => {
    const res = await client.fetch({ url: `${srv.origin}/chain`, followRedirects: false });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/chain2');
    const bare = await client.fetch({ url: `${srv.origin}/status?code=302&to=` });
    expect(bare.status).toBe(302);
  });
});

describe('caps', () => {
  it('refuses a declared body over maxBytes before reading it', async () => {
    await expect(
      client.fetch({ url: `${srv.origin}/huge?len=200000`, limits: { maxBytes: 100_000 } }),
    ).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('stops a chunked body at maxBytes', async () => {
    await expect(
      client.fetch({ url: `${srv.origin}/huge-chunked?len=300000`, limits: { maxBytes: 100_000 } }),
    ).rejects.toMatchObject({ code: 'TOO_LARGE' });
    const fits = await client.fetch({
      url: `${srv.origin}/huge-chunked?len=100000`,
      limits: { maxBytes: 100_000 },
    });
    expect(fits.body.length).toBe(100_000);
  });

  it('with readLimitBytes returns the first bytes, truncated, instead of failing', async () => {
    const res = await client.fetch({
      url: `${srv.origin}/huge?len=2000000`,
      readLimitBytes: 1000,
      limits: { maxBytes: 100_000 },
    });
    expect(res.body.length).toBe(1000);
    expect(res.truncated).toBe(true);
    const whole = await client.fetch({ url: `${srv.origin}/huge?len=1000`, readLimitBytes: 1000 });
    expect(whole).toMatchObject({ truncated: false });
    expect(whole.body.length).toBe(1000);
  });

  it('decodes gzip, deflate (zlib and raw), br and stacked codings', async () => {
    for (const path of ['/gzip', '/deflate', '/deflate-raw', '/br', '/gzip-br']) {
      const res = await client.fetch({ url: `${srv.origin}${path}` });
      expect(res.body.toString(), path).toBe(TEXT);
    }
  });

  it('keeps a body in an unknown coding as it came, and fails on a corrupt one', async () => {
    expect((await client.fetch({ url: `${srv.origin}/unknown-coding` })).body.toString()).toBe('raw bytes');
    await expect(client.fetch({ url: `${srv.origin}/corrupt-gzip` })).rejects.toMatchObject({
      code: 'CONNECTION_FAILED',
      message: 'the response body could not be decoded',
    });
  });

  it('stops a gzip bomb at maxDecompressedBytes', async () => {
    expect(BOMB.length).toBeLessThan(64 * 1024);
    await expect(
      client.fetch({ url: `${srv.origin}/bomb`, limits: { maxDecompressedBytes: 1024 * 1024 } }),
    ).rejects.toMatchObject({ code: 'TOO_LARGE', message: expect.stringContaining('after decoding') });
    await expect(client.fetch({ url: `${srv.origin}/bomb` })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    const head = await client.fetch({ url: `${srv.origin}/bomb`, readLimitBytes: 4096 });
    expect(head).toMatchObject({ truncated: true });
    expect(head.body).toEqual(Buffer.alloc(4096));
  });
});

describe('time and failures', () => {
  it('ends a body that never finishes at totalTimeoutMs', async () => {
    const started = Date.now();
    await expect(
      client.fetch({ url: `${srv.origin}/slow-body`, limits: { totalTimeoutMs: 400 } }),
    ).rejects.toMatchObject({ name: 'OutboundError', code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('ends a server that never answers at totalTimeoutMs', async () => {
    await expect(
      client.fetch({ url: `${srv.origin}/slow-headers`, limits: { totalTimeoutMs: 300 } }),
    ).rejects.toMatchObject({ code: 'TIMEOUT' });
  });

  it('gives up connecting to a host that never completes the handshake after connectTimeoutMs', async () => {
    const started = Date.now();
    await expect(
      client.fetch({ url: `http://127.0.0.1:${hole.port}/`, limits: { connectTimeoutMs: 300 } }),
    ).rejects.toMatchObject({ code: 'TIMEOUT', message: 'connect timed out after 300 ms' });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(2_000);
  });

  it('reports a closed port as CONNECTION_REFUSED', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as { port: number };
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(client.fetch({ url: `http://127.0.0.1:${port}/` })).rejects.toMatchObject({
      code: 'CONNECTION_REFUSED',
    });
  });

  it('reports a connection cut mid-body as CONNECTION_FAILED', async () => {
    await expect(client.fetch({ url: `${srv.origin}/reset` })).rejects.toMatchObject({
      code: 'CONNECTION_FAILED',
    });
  });

  it('reports DNS failures as DNS_FAILURE', async () => {
    for (const name of ['nope.outbound.test', 'broken.outbound.test', 'empty.outbound.test']) {
      await expect(client.fetch({ url: `http://${name}/` }), name).rejects.toMatchObject({
        name: 'OutboundError',
        code: 'DNS_FAILURE',
      });
    }
  });

  it("stops at the caller's signal with ABORTED", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(
      client.fetch({ url: `${srv.origin}/slow-body`, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    const early = new AbortController();
    early.abort();
    await expect(client.fetch({ url: `${srv.origin}/echo`, signal: early.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});

describe('https', () => {
  it('verifies the server against the given CA, sends SNI for names, and the Host header', async () => {
    const res = await client.fetch({ url: `https://tls.outbound.test:${tlsSrv.port}/echo`, ca: pki.ca });
    expect(res.status).toBe(200);
    expect((json(res.body).headers as Record<string, string>).host).toBe(`tls.outbound.test:${tlsSrv.port}`);
    expect(sni.at(-1)).toBe('tls.outbound.test');
  });

  it('verifies an IP target against IP SANs, without SNI', async () => {
    const res = await client.fetch({ url: `https://127.0.0.1:${tlsSrv.port}/echo`, ca: [pki.ca] });
    expect(res.status).toBe(200);
    expect(sni.at(-1)).toBe(false);
  });

  it('fails with TLS_FAILURE for an untrusted certificate or a name it does not cover', async () => {
    await expect(client.fetch({ url: `https://tls.outbound.test:${tlsSrv.port}/` })).rejects.toMatchObject({
      code: 'TLS_FAILURE',
    });
    await expect(
      client.fetch({ url: `https://wrong.outbound.test:${tlsSrv.port}/`, ca: pki.ca }),
    ).rejects.toMatchObject({ code: 'TLS_FAILURE' });
  });

  it('reports plain HTTP on an https URL as TLS_FAILURE', async () => {
    await expect(client.fetch({ url: `https://127.0.0.1:${srv.port}/` })).rejects.toMatchObject({
      code: 'TLS_FAILURE',
    });
  });
});
