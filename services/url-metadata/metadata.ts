import { decodeBody, detectCharset } from './charset.js';
import { type HtmlFacts, type MetaTag, scanHtml } from './html.js';
import { jsonLdTypes } from './jsonld.js';
import { documentBase, resolveHttpUrl } from './urls.js';

/** A fetched response, as the outbound port returns it (body already cut at the byte cap). */
export interface FetchedPage {
  /** The URL the caller asked for, as given. */
  readonly requestedUrl: string;
  /** The URL of the final response, after redirects. */
  readonly url: string;
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly redirectChain: readonly { readonly from: string; readonly to: string; readonly status: number }[];
}

/** Everything extracted from one page; the favicon is the one its link tags name (the probe comes later). */
export interface PageMetadata {
  readonly url: string;
  readonly finalUrl: string;
  readonly statusCode: number;
  readonly title: string;
  readonly description: string | null;
  readonly language: string | null;
  readonly contentType: string;
  readonly charset: string | null;
  readonly openGraph: Readonly<Record<string, string>>;
  readonly twitterCard: Readonly<Record<string, string>>;
  readonly favicon: string | null;
  readonly redirectChain: readonly string[];
  readonly jsonLdTypes: readonly string[];
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** Open Graph and Twitter properties whose values are URLs: given absolute, like og:image, in the maps. */
const URL_PROPERTIES = new Set([
  'og:url',
  'og:image',
  'og:image:url',
  'og:image:secure_url',
  'og:video',
  'og:video:url',
  'og:video:secure_url',
  'og:audio',
  'og:audio:url',
  'og:audio:secure_url',
  'twitter:image',
  'twitter:image:src',
  'twitter:player',
  'twitter:player:stream',
]);

const NO_FACTS: HtmlFacts = {
  title: null,
  lang: null,
  baseHref: null,
  metas: [],
  httpEquiv: [],
  icons: [],
  jsonLd: [],
};

export function extractMetadata(page: FetchedPage): PageMetadata {
  const contentType = mediaType(page.headers['content-type'], page.body);
  const html = HTML_TYPES.has(contentType);
  const charset = html ? detectCharset(page.body, page.headers['content-type']).encoding : null;
  const facts = charset === null ? NO_FACTS : scanHtml(decodeBody(page.body, charset));
  const base = documentBase(page.url, facts.baseHref);
  const first = (key: string) => firstContent(facts.metas, key);
  return {
    url: page.requestedUrl,
    finalUrl: page.url,
    statusCode: page.status,
    title: facts.title || first('og:title') || first('twitter:title') || '',
    description: first('description') ?? first('og:description') ?? first('twitter:description'),
    language: language(facts, page.headers['content-language']),
    contentType,
    charset,
    openGraph: prefixed(facts.metas, 'og:', base),
    twitterCard: prefixed(facts.metas, 'twitter:', base),
    favicon: faviconFromLinks(facts, base),
    redirectChain: page.redirectChain.map((h) => `${h.from} -> ${h.to} (${h.status})`),
    jsonLdTypes: jsonLdTypes(facts.jsonLd),
  };
}

const firstContent = (metas: readonly MetaTag[], key: string): string | null =>
  metas.find((m) => m.key === key && m.content !== '')?.content ?? null;

/**
 * The first value of every `prefix*` property (the Open Graph protocol: "the first tag takes precedence" for
 * repeated properties such as several og:image), URL-valued ones made absolute.
 */
function prefixed(metas: readonly MetaTag[], prefix: string, base: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, content } of metas) {
    if (!key.startsWith(prefix) || key.length === prefix.length || content === '' || key in out) continue;
    out[key] = URL_PROPERTIES.has(key) ? (resolveHttpUrl(content, base) ?? content) : content;
  }
  return out;
}

/**
 * `rel="icon"` (or "shortcut icon") first, in document order, then Apple touch icons; an href that is not
 * http(s) after resolution (a data: URI, say) is passed over. Null sends the caller to the /favicon.ico probe.
 */
export function faviconFromLinks(facts: HtmlFacts, base: string): string | null {
  const pick = (wanted: (rel: readonly string[]) => boolean) => {
    for (const icon of facts.icons) {
      if (!wanted(icon.rel)) continue;
      const url = resolveHttpUrl(icon.href, base);
      if (url) return url;
    }
    return null;
  };
  return (
    pick((rel) => rel.includes('icon')) ?? pick((rel) => rel.some((r) => r.startsWith('apple-touch-icon')))
  );
}

/**
 * The page's language as the HTML standard determines it: `<html lang>`, then a `Content-Language` pragma,
 * then the Content-Language header; then og:locale (`en_US`). Each candidate must be a well-formed BCP 47 tag
 * and is returned in canonical case (`en-US`); null when no source gives one.
 */
function language(facts: HtmlFacts, header: string | undefined): string | null {
  const pragma = firstContent(facts.httpEquiv, 'content-language');
  const candidates = [
    facts.lang,
    pragma?.split(',')[0],
    header?.split(',')[0],
    firstContent(facts.metas, 'og:locale')?.replaceAll('_', '-'),
  ];
  for (const c of candidates) {
    const tag = canonicalTag(c);
    if (tag) return tag;
  }
  return null;
}

function canonicalTag(raw: string | null | undefined): string | null {
  const t = raw?.trim();
  if (!t) return null;
  try {
    return Intl.getCanonicalLocales(t)[0] ?? null;
  } catch {
    return null;
  }
}

/** Byte patterns of the MIME Sniffing standard that identify HTML (7.1, "text/html" rows). */
const HTML_SIGNATURES = [
  '<!doctype html',
  '<html',
  '<head',
  '<script',
  '<iframe',
  '<h1',
  '<div',
  '<font',
  '<table',
  '<a',
  '<style',
  '<title',
  '<b',
  '<body',
  '<br',
  '<p',
  '<!--',
];

/**
 * The media type of the response in lower case, without parameters. A missing or malformed Content-Type is
 * sniffed for HTML as browsers do (leading white space, then a tag from the standard's list followed by a space
 * or `>`); anything else is application/octet-stream, the RFC 9110 default.
 */
export function mediaType(header: string | undefined, body: Buffer): string {
  const essence = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(essence)) return essence;
  const head = body
    .subarray(0, 512)
    .toString('latin1')
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '');
  const start = head.replace(/^[\t\n\f\r ]+/, '').toLowerCase();
  for (const sig of HTML_SIGNATURES) {
    if (!start.startsWith(sig)) continue;
    const next = start[sig.length];
    if (next === ' ' || next === '>') return 'text/html';
  }
  return 'application/octet-stream';
}
