/**
 * R POST /api/v1/file-types/classify/reference through the real gateway: files served by a real local HTTP
 * server (allowed by an app whose outbound policy admits 127.0.0.0/8), only their first bytes read; the SSRF
 * guard under the default policy and the shared 87-case SSRF table.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';
import { runSsrfTable, type SsrfFixtures, startSsrfFixtures } from '../support/ssrf-cases.js';
import * as f from './fixtures.js';
import { fileTypeApp } from './gateway-app.js';

const REFERENCE = '/api/v1/file-types/classify/reference';
const HUGE_BYTES = 32 * 1024 * 1024;

let tp: TestPlatform;
let local: FastifyInstance;
let guarded: FastifyInstance;
let server: Server;
let origin: string;
let key: string;
const hits = new Map<string, number>();
let hugeWritten = 0;
let hugeClosed: Promise<void>;

const send = (res: ServerResponse, type: string, body: Buffer, headers: Record<string, string> = {}) =>
  res.writeHead(200, { 'content-type': type, 'content-length': String(body.length), ...headers }).end(body);

const ROUTES: Record<string, (res: ServerResponse) => void> = {
  '/files/report.pdf': (res) => send(res, 'application/pdf', f.pdf()),
  '/download?id=7': (res) =>
    send(res, 'application/octet-stream', f.pe(), {
      'content-disposition': 'attachment; filename="invoice.pdf"',
    }),
  '/get/1': (res) =>
    send(res, 'image/png; charset=binary', f.png(), {
      'content-disposition': 'attachment; filename="fallback.png"; filename*=UTF-8\'\'%C3%A9t%C3%A9.png',
    }),
  '/logo.svg': (res) =>
    send(res, 'image/svg+xml', gzipSync(f.text(f.SVG_WITH_SCRIPT)), { 'content-encoding': 'gzip' }),
  '/redirect': (res) => res.writeHead(302, { location: '/files/report.pdf' }).end(),
  '/missing': (res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'),
  '/empty': (res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '0' }).end(),
  '/huge.png': (res) => {
    // Written until the client hangs up: how much left tells whether only the first bytes were read.
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(HUGE_BYTES) });
    const chunk = Buffer.alloc(64 * 1024);
    f.png().copy(chunk);
    hugeClosed = new Promise((resolve) => res.on('close', resolve));
    const pump = () => {
      while (hugeWritten < HUGE_BYTES && !res.destroyed) {
        hugeWritten += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
        chunk.fill(0, 0, 8);
      }
      res.end();
    };
    pump();
  },
};

beforeAll(async () => {
  tp = await openTestPlatform({
    plans: { FREE: { perMinute: 100_000, perDay: 1_000_000, perMonth: 1_000_000 } },
  });
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = ROUTES[path];
    if (route) route(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [local, guarded] = await Promise.all([fileTypeApp(tp, { allowCidrs: ['127.0.0.0/8'] }), fileTypeApp(tp)]);
  const user = await tp.createAccount();
  key = (await tp.createApiKey(user.token, { scopes: ['file-type'] })).key;
}, 60_000);

afterAll(async () => {
  await Promise.all([local?.close(), guarded?.close()]);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await tp?.close();
});

const classify = (app: FastifyInstance, url: unknown) =>
  app.inject({ method: 'POST', url: REFERENCE, headers: { 'x-api-key': key }, payload: { url } as object });

function expectProblem(res: LightMyRequestResponse, status: number, code: string, detail?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toMatchObject({
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    status,
    instance: REFERENCE,
    ...(detail === undefined ? {} : { detail }),
  });
}

describe('classifying by URL', () => {
  it('answers the upload shape plus url and finalUrl, the name and type taken from the response', async () => {
    const url = `${origin}/files/report.pdf`;
    const res = await classify(local, url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      url,
      finalUrl: url,
      filename: 'report.pdf',
      mimeType: 'application/pdf',
      category: 'DOCUMENT',
      extension: 'pdf',
      magicBytesMatch: true,
      safe: true,
      confidence: 1,
      description: 'PDF document',
      magicBytes: '255044462D',
      declaredExtension: 'pdf',
      declaredMimeType: 'application/pdf',
      mismatches: [],
      risks: [],
    });
  });

  it('takes the Content-Disposition name (RFC 6266 filename* first) over the path', async () => {
    expect((await classify(local, `${origin}/download?id=7`)).json()).toMatchObject({
      filename: 'invoice.pdf',
      extension: 'exe',
      declaredMimeType: 'application/octet-stream',
      mismatches: ['EXTENSION'],
      safe: false,
      risks: ['EXECUTABLE'],
    });
    expect((await classify(local, `${origin}/get/1`)).json()).toMatchObject({
      filename: 'été.png',
      declaredMimeType: 'image/png',
      magicBytesMatch: true,
    });
  });

  it('follows redirects, decodes content codings, and reads active content in what it got', async () => {
    expect((await classify(local, `${origin}/redirect`)).json()).toMatchObject({
      url: `${origin}/redirect`,
      finalUrl: `${origin}/files/report.pdf`,
      filename: 'report.pdf',
      extension: 'pdf',
    });
    expect((await classify(local, `${origin}/logo.svg`)).json()).toMatchObject({
      mimeType: 'image/svg+xml',
      magicBytesMatch: true,
      safe: false,
      risks: ['ACTIVE_CONTENT'],
    });
  });

  it('reads only the first bytes of a large file and hangs up', async () => {
    const res = await classify(local, `${origin}/huge.png`);
    expect(res.json()).toMatchObject({ extension: 'png', magicBytesMatch: true });
    await hugeClosed;
    expect(hugeWritten, 'bytes the server got to write before the connection closed').toBeLessThan(
      HUGE_BYTES / 2,
    );
  });

  it('answers 422 for a file it cannot get: an error status, an empty body, a closed port', async () => {
    expectProblem(
      await classify(local, `${origin}/missing`),
      422,
      'UNPROCESSABLE',
      'url: the server answered with status 404',
    );
    expectProblem(await classify(local, `${origin}/empty`), 422, 'UNPROCESSABLE', 'url: the file is empty');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expectProblem(
      await classify(local, `http://127.0.0.1:${port}/x`),
      422,
      'UNPROCESSABLE',
      'url: the server refused the connection',
    );
  });

  it.each([
    ['a non-HTTP URL', 'ftp://example.com/a.pdf', 'url: must be a valid HTTP or HTTPS URL'],
    ['a bare host name', 'example.com/a.pdf', 'url: must be a valid HTTP or HTTPS URL'],
    ['an empty url', '', 'url: must not be blank'],
    ['a number', 5, 'url: must be a string'],
    [
      'a URL over 2,048 characters',
      `https://example.com/${'a'.repeat(2040)}`,
      'url: must be at most 2048 characters',
    ],
  ])('refuses %s with a 400 problem', async (_what, url, detail) => {
    expectProblem(await classify(guarded, url), 400, 'VALIDATION_ERROR', detail);
  });
});

describe('the SSRF guard', () => {
  it('refuses local and internal targets under the default policy, before any request', async () => {
    const port = new URL(origin).port;
    const before = hits.get('/files/report.pdf') ?? 0;
    for (const url of [
      `${origin}/files/report.pdf`,
      `http://localhost:${port}/files/report.pdf`,
      `http://[::1]:${port}/files/report.pdf`,
      `http://0x7f.1:${port}/files/report.pdf`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/a.pdf',
    ]) {
      const res = await classify(guarded, url);
      expectProblem(res, 403, 'SSRF_BLOCKED');
      expect(res.json().detail, url).toMatch(/^url: /);
    }
    expect(hits.get('/files/report.pdf') ?? 0).toBe(before);
  });

  describe('the shared SSRF table', () => {
    let fx: SsrfFixtures;
    let app: FastifyInstance;
    beforeAll(async () => {
      fx = await startSsrfFixtures();
      app = await fileTypeApp(tp, fx.policy);
    });
    afterAll(async () => {
      await app?.close();
      await fx?.close();
    });

    it('refuses every URL case with 403 SSRF_BLOCKED without touching the sentinel', async () => {
      const run = await runSsrfTable(fx, async (url) => {
        const res = await classify(app, url);
        return { status: res.statusCode, body: res.json() as unknown };
      });
      expect(run.failures).toEqual([]);
      expect(run.sentinelConnections).toEqual([]);
    }, 60_000);

    it('positive control: the allow-listed public server is reached', async () => {
      const res = await classify(app, `${fx.publicHttp.origin}/ok`);
      expect(res.statusCode, res.body).toBe(200);
      expect(fx.publicHttp.requests).toContain('GET /ok');
    });
  });
});
