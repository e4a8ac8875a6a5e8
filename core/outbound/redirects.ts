/**
 * The request a redirect leads to, by the rules of the Fetch standard (pure). The caller vets the new host again
 * before connecting: a redirect is just another user-named target, chosen by the server.
 */

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export interface HopRequest {
  readonly url: URL;
  readonly method: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

export type NextHop =
  | { readonly kind: 'follow'; readonly request: HopRequest }
  /** Location missing or unparseable: the 3xx is the final response. */
  | { readonly kind: 'final' }
  /** Location is not http(s) (`file:`, `gopher:`, …): refused like an internal address. */
  | { readonly kind: 'not-http'; readonly location: string };

/** Headers that describe a body, dropped with it. */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];
/** Credentials meant for one origin never follow a redirect to another. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export function nextHop(current: HopRequest, status: number, location: string | undefined): NextHop {
  if (!REDIRECT_STATUSES.has(status) || !location) return { kind: 'final' };
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch {
    return { kind: 'final' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'not-http', location };
  // Credentials in a Location are never sent (the host after `@` is what counts, and it is vetted).
  url.username = '';
  url.password = '';

  const toGet =
    (status === 303 && current.method !== 'HEAD') ||
    ((status === 301 || status === 302) && current.method === 'POST');
  const headers: Record<string, string> = { ...current.headers };
  if (toGet) for (const h of BODY_HEADERS) delete headers[h];
  if (url.origin !== current.url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
  const body = toGet ? undefined : current.body;
  return {
    kind: 'follow',
    request: { url, method: toGet ? 'GET' : current.method, headers, ...(body ? { body } : {}) },
  };
}
