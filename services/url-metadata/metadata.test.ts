import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { extractMetadata, type FetchedPage, mediaType } from './metadata.js';

const page = (over: Partial<FetchedPage> & { html?: string } = {}): FetchedPage => ({
  requestedUrl: over.requestedUrl ?? 'http://site.example/start',
  url: over.url ?? 'https://site.example/blog/post',
  status: over.status ?? 200,
  headers: over.headers ?? { 'content-type': 'text/html; charset=utf-8' },
  body: over.body ?? Buffer.from(over.html ?? '', 'utf8'),
  redirectChain: over.redirectChain ?? [],
});

const FULL = `<!doctype html><html lang="en-us"><head>
  <title>Post title</title>
  <meta name="description" content="The description">
  <meta property="og:title" content="OG title">
  <meta property="og:type" content="article">
  <meta property="og:image" content="/img/cover.png">
  <meta property="og:image" content="/img/second.png">
  <meta property="og:image:width" content="1200">
  <meta property="og:url" content="//site.example/canonical">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="twitter:image" content="thumb.jpg">
  <meta name="twitter:site" content="@site">
  <meta property="og:" content="no name">
  <meta property="og:description" content="">
  <link rel="icon" href="data:image/png;base64,AAAA">
  <link rel="icon" href="icons/fav.png">
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting"}</script>
</head><body><svg><title>not this</title></svg></body></html>`;

describe('extractMetadata', () => {
  it('extracts every field of the D result from a full page', () => {
    const m = extractMetadata(
      page({
        html: FULL,
        redirectChain: [
          { from: 'http://site.example/start', to: 'https://site.example/start', status: 301 },
          { from: 'https://site.example/start', to: 'https://site.example/blog/post', status: 302 },
        ],
      }),
    );
    expect(m).toEqual({
      url: 'http://site.example/start',
      finalUrl: 'https://site.example/blog/post',
      statusCode: 200,
      title: 'Post title',
      description: 'The description',
      language: 'en-US',
      contentType: 'text/html',
      charset: 'UTF-8',
      openGraph: {
        'og:title': 'OG title',
        'og:type': 'article',
        'og:image': 'https://site.example/img/cover.png',
        'og:image:width': '1200',
        'og:url': 'https://site.example/canonical',
      },
      twitterCard: {
        'twitter:card': 'summary_large_image',
        'twitter:image': 'https://site.example/blog/thumb.jpg',
        'twitter:site': '@site',
      },
      favicon: 'https://site.example/blog/icons/fav.png',
      redirectChain: [
        'http://site.example/start -> https://site.example/start (301)',
        'https://site.example/start -> https://site.example/blog/post (302)',
      ],
      jsonLdTypes: ['BlogPosting'],
    });
  });

  it('resolves og:image and icons against <base href>', () => {
    const m = extractMetadata(
      page({
        html: '<base href="https://cdn.example/assets/"><meta property=og:image content=a.png><link rel=icon href=i.ico>',
      }),
    );
    expect(m.openGraph['og:image']).toBe('https://cdn.example/assets/a.png');
    expect(m.favicon).toBe('https://cdn.example/assets/i.ico');
  });

  it('falls back: title to og:title then twitter:title, description to og: then twitter:', () => {
    const og = extractMetadata(
      page({
        html: '<title> </title><meta property=og:title content=OG><meta property=og:description content=D>',
      }),
    );
    expect(og).toMatchObject({ title: 'OG', description: 'D' });
    const tw = extractMetadata(
      page({ html: '<meta name=twitter:title content=TW><meta name=twitter:description content=TD>' }),
    );
    expect(tw).toMatchObject({ title: 'TW', description: 'TD' });
    expect(extractMetadata(page({ html: '<p>nothing</p>' }))).toMatchObject({
      title: '',
      description: null,
      language: null,
      favicon: null,
      openGraph: {},
      twitterCard: {},
      jsonLdTypes: [],
    });
  });

  it('language: <html lang>, then the pragma, then the header, then og:locale; malformed tags skipped', () => {
    const lang = (html: string, header?: string) =>
      extractMetadata(
        page({
          html,
          headers: { 'content-type': 'text/html', ...(header ? { 'content-language': header } : {}) },
        }),
      ).language;
    expect(lang('<html lang="DE-at">', 'fr')).toBe('de-AT');
    expect(lang('<html lang="not a tag!"><meta http-equiv=content-language content="fr-CA, en">', 'it')).toBe(
      'fr-CA',
    );
    expect(lang('<html lang="">', 'pt-BR, pt')).toBe('pt-BR');
    expect(lang('<meta property=og:locale content=en_GB>')).toBe('en-GB');
    expect(lang('<html>')).toBeNull();
  });

  it('favicon: an apple-touch icon when no rel=icon is usable', () => {
    const m = extractMetadata(
      page({
        html: '<link rel=icon href="javascript:x"><link rel="apple-touch-icon-precomposed" href=/t.png>',
      }),
    );
    expect(m.favicon).toBe('https://site.example/t.png');
  });

  it('a 404 page is a normal result carrying its status', () => {
    const m = extractMetadata(page({ status: 404, html: '<title>Not found</title>' }));
    expect(m).toMatchObject({ statusCode: 404, title: 'Not found' });
  });

  it('decodes legacy encodings from the header or from <meta> alone', () => {
    const sjis = extractMetadata(
      page({
        headers: { 'content-type': 'text/html; charset=Shift_JIS' },
        body: iconv.encode('<title>日本語のタイトル</title>', 'shiftjis'),
      }),
    );
    expect(sjis).toMatchObject({ title: '日本語のタイトル', charset: 'Shift_JIS' });
    const cp1251 = extractMetadata(
      page({
        headers: { 'content-type': 'text/html' },
        body: iconv.encode('<meta charset="windows-1251"><title>Заголовок</title>', 'windows1251'),
      }),
    );
    expect(cp1251).toMatchObject({ title: 'Заголовок', charset: 'windows-1251' });
    const latin1 = extractMetadata(
      page({
        headers: { 'content-type': 'text/html' },
        body: Buffer.concat([
          Buffer.from(
            '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><title>Caf',
            'latin1',
          ),
          Buffer.from([0xe9, 0x20, 0x80, 0x35]),
          Buffer.from('</title>', 'latin1'),
        ]),
      }),
    );
    expect(latin1).toMatchObject({ title: 'Café €5', charset: 'windows-1252' });
  });

  it('does not parse other media types, but still reports status and redirects', () => {
    const m = extractMetadata(
      page({ headers: { 'content-type': 'IMAGE/PNG' }, body: Buffer.from('<title>not html</title>') }),
    );
    expect(m).toMatchObject({
      contentType: 'image/png',
      title: '',
      charset: null,
      openGraph: {},
      favicon: null,
    });
    const text = extractMetadata(
      page({ headers: { 'content-type': 'text/plain' }, html: '<title>x</title>' }),
    );
    expect(text).toMatchObject({ contentType: 'text/plain', title: '' });
  });

  it('sniffs HTML when the server sends no usable Content-Type', () => {
    const m = extractMetadata(page({ headers: {}, html: '\n  <!DOCTYPE html><title>Sniffed</title>' }));
    expect(m).toMatchObject({ contentType: 'text/html', title: 'Sniffed' });
  });
});

describe('mediaType', () => {
  it.each([
    ['text/html; charset=utf-8', '<p>', 'text/html'],
    [' Application/XHTML+XML ', '', 'application/xhtml+xml'],
    [undefined, '<html lang=en>', 'text/html'],
    [undefined, '\uFEFF<HTML>', 'text/html'],
    ['nonsense', '<!-- c --><p>', 'text/html'],
    [undefined, '<htmlx>', 'application/octet-stream'],
    [undefined, '%PDF-1.7', 'application/octet-stream'],
    ['', '', 'application/octet-stream'],
  ])('%j with %j → %s', (header, body, type) => {
    expect(mediaType(header, Buffer.from(body, 'utf8'))).toBe(type);
  });
});
