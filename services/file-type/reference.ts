import { AppError } from '../../core/errors/catalogue.js';
import { type OutboundClient, OutboundError, type OutboundErrorCode } from '../../core/outbound/outbound.js';

/** Bytes of a referenced file that are read; the rest is never downloaded. */
export const REFERENCE_READ_BYTES = 64 * 1024;

export interface FetchedHead {
  /** The first REFERENCE_READ_BYTES of the body (fewer when the file is smaller). */
  readonly bytes: Buffer;
  /** URL of the final response, after redirects. */
  readonly finalUrl: string;
  /** From Content-Disposition, else the last segment of the final URL's path; null when neither names one. */
  readonly filename: string | null;
  readonly contentType: string | null;
}

/** Network outcomes in words a caller can act on; never the address, the resolver or a stack. */
const FAILURES: Record<OutboundErrorCode, string> = {
  DNS_FAILURE: 'url: the host name could not be resolved',
  CONNECTION_REFUSED: 'url: the server refused the connection',
  CONNECTION_FAILED: 'url: the connection to the server failed',
  TIMEOUT: 'url: the file did not arrive in time',
  TOO_LARGE: 'url: the response is too large',
  TOO_MANY_REDIRECTS: 'url: the URL redirects too many times',
  TLS_FAILURE: 'url: the TLS connection failed (untrusted certificate or handshake error)',
  ABORTED: 'url: the request was aborted',
};

/**
 * The first bytes of the file at `url`, fetched with GET through the outbound guard (SSRF refusals: 403; a URL
 * that is not http(s): 400). A file that cannot be fetched, answers other than 2xx or is empty: 422.
 */
export async function fetchHead(outbound: OutboundClient, url: string): Promise<FetchedHead> {
  let res: Awaited<ReturnType<OutboundClient['fetch']>>;
  try {
    res = await outbound.fetch({ url, readLimitBytes: REFERENCE_READ_BYTES });
  } catch (err) {
    if (err instanceof OutboundError) throw new AppError('UNPROCESSABLE', FAILURES[err.code]);
    throw err;
  }
  if (res.status < 200 || res.status >= 300) {
    throw new AppError('UNPROCESSABLE', `url: the server answered with status ${res.status}`);
  }
  if (res.body.length === 0) throw new AppError('UNPROCESSABLE', 'url: the file is empty');
  return {
    bytes: res.body,
    finalUrl: res.url,
    filename: dispositionFilename(res.headers['content-disposition']) ?? lastSegment(res.url),
    contentType: res.headers['content-type'] ?? null,
  };
}

/** `filename*=UTF-8''na%C3%AFve.pdf` (RFC 6266, preferred) or `filename="report.pdf"`. */
export function dispositionFilename(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;\s]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name ? name : null;
}

function lastSegment(url: string): string | null {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || null;
  } catch {
    return segment || null;
  }
}
