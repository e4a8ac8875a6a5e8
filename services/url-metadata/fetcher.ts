import { AppError } from '../../core/errors/catalogue.js';
import { type OutboundClient, OutboundError, type OutboundErrorCode } from '../../core/outbound/outbound.js';
import { extractMetadata, mediaType, type PageMetadata } from './metadata.js';
import { parseTargetUrl } from './urls.js';

export interface UrlMetadataLimits {
  /** Bytes of a page read and parsed; the rest is never downloaded. Metadata lives in the head. */
  readonly htmlBytes: number;
  /** Whole page fetch, redirects included. Undefined: the outbound policy's total timeout (15 s by default). */
  readonly pageTimeoutMs: number | undefined;
  /** The `/favicon.ico` probe, which only runs when no link tag names an icon. */
  readonly faviconTimeoutMs: number;
  /** Pages a batch fetches at once. */
  readonly batchConcurrency: number;
  /** A batch starts no fetch after this long, and aborts those still running. */
  readonly batchBudgetMs: number;
}

export const DEFAULT_LIMITS: UrlMetadataLimits = {
  htmlBytes: 1024 * 1024,
  pageTimeoutMs: undefined,
  faviconTimeoutMs: 3000,
  batchConcurrency: 8,
  batchBudgetMs: 30_000,
};

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** Network outcomes, in words a caller can act on; never the address, the resolver or a stack. */
const FAILURES: Record<OutboundErrorCode, string> = {
  DNS_FAILURE: 'url: the host name could not be resolved',
  CONNECTION_REFUSED: 'url: the server refused the connection',
  CONNECTION_FAILED: 'url: the connection to the server failed',
  TIMEOUT: 'url: the page did not load in time',
  TOO_LARGE: 'url: the response is too large',
  TOO_MANY_REDIRECTS: 'url: the page redirects too many times',
  TLS_FAILURE: 'url: the TLS connection failed (untrusted certificate or handshake error)',
  ABORTED: 'url: not fetched: the batch ran out of time',
};

/**
 * A page that cannot be fetched is the caller's target failing, not us: 422 UNPROCESSABLE with the reason.
 * Refusals of the outbound guard (403 SSRF_BLOCKED, 400 for a URL it will not fetch) pass through unchanged.
 */
export function fetchFailure(err: unknown): unknown {
  if (err instanceof OutboundError) return new AppError('UNPROCESSABLE', FAILURES[err.code]);
  return err;
}

export interface MetadataFetcher {
  /** Fetches `rawUrl` (through the outbound guard) and extracts its metadata, favicon probe included. */
  fetch(rawUrl: string, signal?: AbortSignal): Promise<PageMetadata>;
}

export function createMetadataFetcher(outbound: OutboundClient, limits: UrlMetadataLimits): MetadataFetcher {
  async function probeFavicon(pageUrl: string, signal: AbortSignal | undefined): Promise<string | null> {
    const probe = new URL('/favicon.ico', pageUrl).href;
    try {
      const res = await outbound.fetch({
        url: probe,
        headers: { accept: 'image/*,*/*;q=0.8' },
        readLimitBytes: 1024,
        limits: { totalTimeoutMs: limits.faviconTimeoutMs },
        ...(signal ? { signal } : {}),
      });
      const type = mediaType(res.headers['content-type'], res.body);
      // Sites that answer every path with their HTML shell (a "soft 404") have no /favicon.ico.
      const isPage = type === 'text/html' || mediaType(undefined, res.body) === 'text/html';
      return res.status >= 200 && res.status < 300 && res.body.length > 0 && !isPage ? probe : null;
    } catch {
      // Whatever stops the probe (network, guard, time) means no icon there; the page result stands.
      return null;
    }
  }

  return {
    async fetch(rawUrl, signal) {
      const target = parseTargetUrl(rawUrl);
      if (signal?.aborted) throw fetchFailure(new OutboundError('ABORTED', 'aborted before start'));
      let res: Awaited<ReturnType<OutboundClient['fetch']>>;
      try {
        res = await outbound.fetch({
          url: target.href,
          headers: { accept: ACCEPT },
          readLimitBytes: limits.htmlBytes,
          ...(limits.pageTimeoutMs === undefined ? {} : { limits: { totalTimeoutMs: limits.pageTimeoutMs } }),
          ...(signal ? { signal } : {}),
        });
      } catch (err) {
        throw fetchFailure(err);
      }
      const meta = extractMetadata({
        requestedUrl: rawUrl,
        url: res.url,
        status: res.status,
        headers: res.headers,
        body: res.body,
        redirectChain: res.redirectChain,
      });
      if (meta.favicon !== null) return meta;
      return { ...meta, favicon: await probeFavicon(res.url, signal) };
    },
  };
}
