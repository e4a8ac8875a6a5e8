/**
 * The url-metadata handlers against real HTTP servers on 127.0.0.1, through the real outbound client. The guard
 * refuses loopback, so the client here allows 127.0.0.0/8 (as OUTBOUND_ALLOW_CIDRS would); refusals under the
 * default policy are in gateway.embedded.test.ts.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { CallContext, ServiceDefinition } from '../../core/service/definition.js';
import type { UrlMetadataLimits } from '../../services/url-metadata/fetcher.js';
import type { PageMetadata } from '../../services/url-metadata/metadata.js';
import {
  type BatchItem,
  createUrlMetadataService,
  type PageSummary,
} from '../../services/url-metadata/service.js';
import { ICO, openSite, redirect, type Site, send } from './site.js';

const CTX: CallContext = {
  requestId: 'test',
  accountId: 'acct',
  keyId: 'key',
  roles: ['ROLE_USER'],
  plan: 'PRO',
  batchLimit: 100,
  ip: '127.0.0.1',
  now: () => new Date(),
};

const outbound = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], userAgent: 'Toolgate-test/1' });

function service(limits: Partial<UrlMetadataLimits> = {}): ServiceDefinition {
  return createUrlMetadataService({ outbound, limits });
}

const call = async <T>(svc: ServiceDefinition, operationId: string, body: unknown): Promise<T> => {
  const route = svc.routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return (await route.handler({ params: {}, query: {}, body, headers: {} }, CTX)) as T;
};

const fetchPage = (url: string, svc = service()) => call<PageMetadata>(svc, 'urlMetadataFetch', { url });
const extract = (url: string, svc = service()) => call<PageSummary>(svc, 'urlMetadataExtract', { url });

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

const MiB = 1024 * 1024;
const HUGE_TOTAL = 64 * MiB;
const huge = { sent: 0, closedAt: -1 };

let site: Site;
beforeAll(async () => {
  site = await openSite({
    '/sjis': send(
      iconv.encode(
        '<html lang="ja"><head><title>日本語のページ</title><meta name="description" content="説明文です"></head></html>',
        'shiftjis',
      ),
      { 'content-type': 'text/html; charset=Shift_JIS' },
    ),
    '/cp1251-meta': send(
      iconv.encode(
        '<html><head><meta charset="windows-1251"><title>Новости дня</title>' +
          '<meta property="og:title" content="Заголовок"></head></html>',
        'windows1251',
      ),
      { 'content-type': 'text/html' },
    ),
    '/latin1-meta': send(
      Buffer.concat([
        Buffer.from(
          '<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><title>Caf',
          'latin1',
        ),
        Buffer.from([0xe9, 0x20, 0x80, 0x35]), // "é €5" in windows-1252, which "ISO-8859-1" means on the web
        Buffer.from('</title></head></html>', 'latin1'),
      ]),
      { 'content-type': 'text/html' },
    ),
    '/r1': redirect('/r2', 301),
    '/r2': (_req, res) => {
      res.writeHead(302, { location: `${site.origin}/blog/final` }).end();
    },
    '/blog/final': send(
      '<html><head><title>Final</title><meta property="og:image" content="cover.png">' +
        '<meta property="og:type" content="article"><link rel="icon" href="../icon.png"></head></html>',
    ),
    '/missing-page': send(
      '<html><head><title>Page not found</title></head></html>',
      { 'content-type': 'text/html' },
      404,
    ),
    '/huge': (_req, res) => {
      huge.sent = 0;
      huge.closedAt = -1;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(
        '<html><head><title>Huge page</title><meta property="og:title" content="early"></head><body>',
      );
      const chunk = Buffer.alloc(64 * 1024, 'a');
      res.on('close', () => {
        huge.closedAt = huge.sent;
      });
      const pump = () => {
        while (huge.sent < HUGE_TOTAL && !res.destroyed) {
          huge.sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('<meta name="description" content="after the cap"></body></html>');
      };
      pump();
    },
    '/stall': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><title>Never finishes</title>');
    },
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const parts = ['<html><head>', '<title>Slow ', 'but complete', '</title></head>', '</html>'];
      let i = 0;
      const timer = setInterval(() => {
        const part = parts[i++];
        if (part === undefined) {
          clearInterval(timer);
          res.end();
        } else res.write(part);
      }, 80);
    },
    '/image.png': send(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), {
      'content-type': 'image/png',
    }),
    '/data.json': send('{"title":"not a page"}', { 'content-type': 'application/json' }),
    '/favicon.ico': send(ICO, { 'content-type': 'image/x-icon' }),
  });
});
afterAll(() => site.close());

describe('charsets', () => {
  it('Shift_JIS from the Content-Type header', async () => {
    const m = await fetchPage(site.url('/sjis'));
    expect(m).toMatchObject({
      title: '日本語のページ',
      description: '説明文です',
      language: 'ja',
      charset: 'Shift_JIS',
      contentType: 'text/html',
    });
  });

  it('windows-1251 from <meta charset> alone', async () => {
    const m = await fetchPage(site.url('/cp1251-meta'));
    expect(m).toMatchObject({ title: 'Новости дня', charset: 'windows-1251' });
    expect(m.openGraph).toEqual({ 'og:title': 'Заголовок' });
  });

  it('"ISO-8859-1" from a meta http-equiv alone, decoded as windows-1252 like browsers do', async () => {
    const m = await fetchPage(site.url('/latin1-meta'));
    expect(m).toMatchObject({ title: 'Café €5', charset: 'windows-1252' });
  });
});

describe('redirects and status', () => {
  it('follows redirects, reports them as "<from> -> <to> (<status>)", resolves against the final URL', async () => {
    const m = await fetchPage(site.url('/r1'));
    expect(m).toMatchObject({
      url: site.url('/r1'),
      finalUrl: site.url('/blog/final'),
      statusCode: 200,
      title: 'Final',
      favicon: site.url('/icon.png'),
      redirectChain: [
        `${site.url('/r1')} -> ${site.url('/r2')} (301)`,
        `${site.url('/r2')} -> ${site.url('/blog/final')} (302)`,
      ],
    });
    expect(m.openGraph['og:image']).toBe(site.url('/blog/cover.png'));
    const r = await extract(site.url('/r1'));
    expect(r).toEqual({
      url: site.url('/r1'),
      finalUrl: site.url('/blog/final'),
      statusCode: 200,
      title: 'Final',
      description: null,
      ogImage: site.url('/blog/cover.png'),
      ogType: 'article',
      twitterCard: null,
      favicon: site.url('/icon.png'),
      language: null,
    });
  });

  it('a 404 page is a normal result with statusCode 404', async () => {
    const m = await fetchPage(site.url('/missing-page'));
    expect(m).toMatchObject({ statusCode: 404, title: 'Page not found', redirectChain: [] });
  });
});

describe('size and time', () => {
  it('reads a 64 MiB page only up to the byte cap, and stops the download', async () => {
    const started = performance.now();
    const m = await fetchPage(site.url('/huge'));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(m.title).toBe('Huge page');
    expect(m.openGraph).toEqual({ 'og:title': 'early' });
    // The description sits after 64 MiB: past the cap, never read.
    expect(m.description).toBeNull();
    await expect.poll(() => huge.closedAt, { timeout: 2000 }).toBeGreaterThanOrEqual(0);
    expect(huge.closedAt).toBeLessThan(16 * MiB);
  });

  it('a smaller cap cuts earlier: mid-title, and before the og:title', async () => {
    // '<html><head><title>' is 19 bytes: 23 keep "Huge" of the title.
    const m = await fetchPage(site.url('/huge'), service({ htmlBytes: 23 }));
    expect(m.title).toBe('Huge');
    expect(m.openGraph).toEqual({});
  });

  it('a body that trickles in within the time limit is read whole', async () => {
    const m = await fetchPage(site.url('/trickle'), service({ pageTimeoutMs: 3000 }));
    expect(m.title).toBe('Slow but complete');
  });

  it('a body that never finishes fails with 422 when the page time runs out', async () => {
    const started = performance.now();
    const err = await failure(fetchPage(site.url('/stall'), service({ pageTimeoutMs: 600 })));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(err).toMatchObject({
      code: 'UNPROCESSABLE',
      status: 422,
      message: 'url: the page did not load in time',
    });
  });
});

describe('other media types', () => {
  it('an image is reported with its type, nothing parsed, and the site favicon probed', async () => {
    const m = await fetchPage(site.url('/image.png'));
    expect(m).toMatchObject({
      contentType: 'image/png',
      charset: null,
      title: '',
      description: null,
      openGraph: {},
      twitterCard: {},
      favicon: site.url('/favicon.ico'),
      jsonLdTypes: [],
    });
  });

  it('JSON is not parsed as HTML', async () => {
    expect(await fetchPage(site.url('/data.json'))).toMatchObject({
      contentType: 'application/json',
      title: '',
    });
  });
});

describe('favicon: link tags, then /favicon.ico if it exists', () => {
  const page = send('<html><head><title>No icon link</title></head></html>');
  const sites: Site[] = [];
  const open = async (routes: Parameters<typeof openSite>[0]) => {
    const s = await openSite(routes);
    sites.push(s);
    return s;
  };
  afterAll(() => Promise.all(sites.map((s) => s.close())));

  it('a link tag wins, and /favicon.ico is then not requested', async () => {
    const s = await open({
      '/': send('<link rel="shortcut icon" href="/static/i.png">'),
      '/favicon.ico': send(ICO, { 'content-type': 'image/x-icon' }),
    });
    expect((await fetchPage(s.url('/'))).favicon).toBe(s.url('/static/i.png'));
    expect(s.hits('/favicon.ico')).toBe(0);
  });

  it('without a link tag, /favicon.ico of the final origin when it answers 2xx', async () => {
    const s = await open({
      '/': page,
      '/favicon.ico': send(ICO, { 'content-type': 'image/vnd.microsoft.icon' }),
    });
    expect((await fetchPage(s.url('/'))).favicon).toBe(s.url('/favicon.ico'));
    expect(s.hits('/favicon.ico')).toBe(1);
  });

  it('a /favicon.ico that redirects to the icon counts', async () => {
    const s = await open({
      '/': page,
      '/favicon.ico': redirect('/assets/icon.ico'),
      '/assets/icon.ico': send(ICO, { 'content-type': 'image/x-icon' }),
    });
    expect((await extract(s.url('/'))).favicon).toBe(s.url('/favicon.ico'));
  });

  it('null when /favicon.ico is missing, empty, or an HTML page (a "soft 404")', async () => {
    const missing = await open({ '/': page });
    const empty = await open({ '/': page, '/favicon.ico': send('', { 'content-type': 'image/x-icon' }) });
    const soft = await open({ '/': page, '/favicon.ico': send('<!doctype html><title>Home</title>') });
    const sniffed = await open({
      '/': page,
      '/favicon.ico': send('<html><title>Home</title>', { 'content-type': 'application/octet-stream' }),
    });
    for (const s of [missing, empty, soft, sniffed]) {
      expect((await fetchPage(s.url('/'))).favicon, s.origin).toBeNull();
      expect(s.hits('/favicon.ico')).toBe(1);
    }
  });
});

describe('targets that cannot be fetched', () => {
  it('a URL that is not http(s) is refused with 400 before any connection', async () => {
    for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'javascript:alert(1)', '127.0.0.1/page']) {
      expect(await failure(fetchPage(url))).toMatchObject({
        code: 'VALIDATION_ERROR',
        status: 400,
        message: 'url: must be a valid HTTP or HTTPS URL',
      });
    }
  });

  it('a refused connection is 422 UNPROCESSABLE', async () => {
    const gone = await openSite({});
    await gone.close();
    expect(await failure(fetchPage(gone.url('/')))).toMatchObject({
      code: 'UNPROCESSABLE',
      message: 'url: the server refused the connection',
    });
  });

  it('a host name that does not resolve is 422 UNPROCESSABLE', async () => {
    expect(await failure(fetchPage('http://no-such-host.invalid/'))).toMatchObject({
      code: 'UNPROCESSABLE',
      message: 'url: the host name could not be resolved',
    });
  });
});

describe('R batch', () => {
  const batch = (urls: string[], svc = service()) =>
    call<{ results: BatchItem[] }>(svc, 'urlMetadataExtractBatch', { urls });

  it('answers each URL in order, failures as that item’s error, a repeated URL fetched once', async () => {
    const before = site.hits('/sjis');
    const { results } = await batch([
      site.url('/sjis'),
      'ftp://127.0.0.1/',
      'http://10.0.0.1/',
      site.url('/missing-page'),
      site.url('/sjis'),
    ]);
    expect(results).toHaveLength(5);
    expect(results[0]).toMatchObject({ url: site.url('/sjis'), title: '日本語のページ', language: 'ja' });
    expect(results[1]).toEqual({
      url: 'ftp://127.0.0.1/',
      error: { code: 'VALIDATION_ERROR', status: 400, message: 'url: must be a valid HTTP or HTTPS URL' },
    });
    expect(results[2]).toMatchObject({
      url: 'http://10.0.0.1/',
      error: { code: 'SSRF_BLOCKED', status: 403 },
    });
    expect(results[3]).toMatchObject({ statusCode: 404, title: 'Page not found' });
    expect(results[4]).toEqual(results[0]);
    expect(site.hits('/sjis') - before).toBe(1);
  });

  it('answers within its budget: fetches still running then, and those not started, fail alone', async () => {
    const started = performance.now();
    const { results } = await batch(
      [site.url('/stall'), site.url('/sjis')],
      service({ batchBudgetMs: 500, batchConcurrency: 1 }),
    );
    expect(performance.now() - started).toBeLessThan(3000);
    for (const r of results) {
      expect(r).toMatchObject({
        error: { code: 'UNPROCESSABLE', message: 'url: not fetched: the batch ran out of time' },
      });
    }
  });
});
