import { AppError } from '../../core/errors/catalogue.js';

const INVALID_URL = 'url: must be a valid HTTP or HTTPS URL';

/**
 * The target as the caller gave it, checked: an absolute http(s) URL with a host (WHATWG URL parsing, so
 * international host names and unescaped spaces in paths are accepted as browsers accept them). Anything else,
 * `ftp:`, `file:`, `javascript:`, a bare host name, is refused with 400 before any connection is made.
 */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError('VALIDATION_ERROR', INVALID_URL);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new AppError('VALIDATION_ERROR', INVALID_URL);
  }
  return url;
}

/** `href` resolved against `base`, when the result is an http(s) URL; null otherwise (data:, javascript:, junk). */
export function resolveHttpUrl(href: string | null | undefined, base: string): string | null {
  if (href === null || href === undefined) return null;
  const trimmed = href.trim();
  if (trimmed === '') return null;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The base URL of a document: its `<base href>` resolved against where it was fetched, when that is http(s). */
export const documentBase = (finalUrl: string, baseHref: string | null): string =>
  resolveHttpUrl(baseHref, finalUrl) ?? finalUrl;
