import type { OutboundClient } from '../../core/outbound/outbound.js';
import type { ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { type ItemError, runBatch } from './batch.js';
import { createMetadataFetcher, DEFAULT_LIMITS, type UrlMetadataLimits } from './fetcher.js';
import type { PageMetadata } from './metadata.js';

export interface UrlMetadataDeps {
  /** Every fetch (page, redirects, favicon probe) goes through it: the SSRF guard, time and byte caps. */
  readonly outbound: OutboundClient;
  /** The clock of the batch budget. */
  readonly now?: () => Date;
  /** Overrides of DEFAULT_LIMITS (tests use small ones). */
  readonly limits?: Partial<UrlMetadataLimits>;
}

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface UrlRequest {
  readonly url: string;
}

interface BatchRequest {
  readonly urls: readonly string[];
}

/** R body: SPEC.md 4.4, plus finalUrl and statusCode so that a redirect or a 404 page is visible. */
export interface PageSummary {
  readonly url: string;
  readonly finalUrl: string;
  readonly statusCode: number;
  readonly title: string;
  readonly description: string | null;
  readonly ogImage: string | null;
  readonly ogType: string | null;
  readonly twitterCard: string | null;
  readonly favicon: string | null;
  readonly language: string | null;
}

/** One result of the R batch: the page, or why that URL alone failed. */
export type BatchItem = PageSummary | { readonly url: string; readonly error: ItemError };

/** The most URLs one batch may carry, whatever the plan allows (FREE 10, BASIC 50, PRO 100). */
export const BATCH_MAX = 100;

export function summarize(m: PageMetadata): PageSummary {
  const og = m.openGraph;
  return {
    url: m.url,
    finalUrl: m.finalUrl,
    statusCode: m.statusCode,
    title: m.title,
    description: m.description,
    ogImage: og['og:image'] ?? og['og:image:url'] ?? og['og:image:secure_url'] ?? null,
    ogType: og['og:type'] ?? null,
    twitterCard: m.twitterCard['twitter:card'] ?? null,
    favicon: m.favicon,
    language: m.language,
  };
}

const FETCH_RULES =
  'The page is fetched with GET through the outbound guard: http and https only, every address checked ' +
  '(private, loopback, link-local and other internal ranges give 403 SSRF_BLOCKED), every redirect re-checked ' +
  '(at most 5). Only the first MiB of the body is read and parsed. The encoding comes from the byte order ' +
  'mark, the Content-Type charset or a <meta> charset in the first 1,024 bytes, else UTF-8 or windows-1252. ' +
  'Relative URLs (og:image, icons) are resolved against the final URL and <base href>. When no link tag names ' +
  'an icon, /favicon.ico of the final origin is probed. A page that answers 4xx or 5xx is still a result; a ' +
  'page that cannot be fetched at all (unknown host, refused, TLS failure, timeout) gives 422 UNPROCESSABLE.';

export function createUrlMetadataService(deps: UrlMetadataDeps): ServiceDefinition {
  const limits: UrlMetadataLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const fetcher = createMetadataFetcher(deps.outbound, limits);
  const now = deps.now ?? (() => new Date());

  return {
    slug: 'url-metadata',
    title: 'URL metadata',
    description:
      'Title, description, language, Open Graph and Twitter Card tags, favicon, JSON-LD types, redirects and ' +
      'status of a web page, fetched safely.',
    routes: [
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/url-metadata/fetch',
        operationId: 'urlMetadataFetch',
        summary: 'Fetch a page and extract its metadata',
        description:
          'Returns the final URL after redirects, the status code, title, description, language, media type ' +
          'and charset, every og:* and twitter:* tag, the favicon, the JSON-LD types and the redirect chain. ' +
          FETCH_RULES,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('url-metadata/fetch-request.json'),
          response: { 200: apiSchema('url-metadata/fetch-response.json') },
        },
        async handler({ body }): Promise<PageMetadata> {
          return fetcher.fetch((body as UrlRequest).url);
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/metadata/extract',
        operationId: 'urlMetadataExtract',
        summary: 'Extract the metadata of a page',
        description:
          'Returns the title, description, og:image (absolute), og:type, twitter:card, favicon and language ' +
          `of the page, with its final URL and status code. ${FETCH_RULES}`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('url-metadata/extract-request.json'),
          response: { 200: apiSchema('url-metadata/extract-response.json') },
        },
        async handler({ body }): Promise<PageSummary> {
          return summarize(await fetcher.fetch((body as UrlRequest).url));
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/metadata/extract/batch',
        operationId: 'urlMetadataExtractBatch',
        summary: 'Extract the metadata of several pages',
        description:
          `Up to the plan's batch size (at most ${BATCH_MAX}) URLs, fetched ${DEFAULT_LIMITS.batchConcurrency} at ` +
          'a time; one result per URL in request order: the extract result, or {url, error:{code, status, ' +
          'message}} for that URL alone (not an http(s) URL, refused by the SSRF guard, not fetchable). The ' +
          `batch answers within about ${DEFAULT_LIMITS.batchBudgetMs / 1000} s: URLs not fetched by then get ` +
          `an UNPROCESSABLE error. A batch counts as one call. ${FETCH_RULES}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'urls', max: BATCH_MAX },
        bodyLimit: 256 * 1024,
        schemas: {
          body: apiSchema('url-metadata/extract-batch-request.json'),
          response: { 200: apiSchema('url-metadata/extract-batch-response.json') },
        },
        async handler({ body }): Promise<{ results: BatchItem[] }> {
          const outcomes = await runBatch(
            (body as BatchRequest).urls,
            async (url, signal) => summarize(await fetcher.fetch(url, signal)),
            { concurrency: limits.batchConcurrency, budgetMs: limits.batchBudgetMs, now },
          );
          return { results: outcomes.map((o) => ('value' in o ? o.value : { url: o.url, error: o.error })) };
        },
      },
    ],
  };
}
