import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  validateHeaderName,
  validateHeaderValue,
} from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { AppError } from '../errors/catalogue.js';
import { createAddressPolicy } from './address-policy.js';
import { readBody } from './body.js';
import { openTcp, upgradeTls } from './connect.js';
import { aborted, Deadline } from './deadline.js';
import { invalidPort, invalidUrl, ssrfBlocked, toOutboundError } from './errors.js';
import {
  type ConnectOptions,
  type OutboundClient,
  OutboundError,
  type OutboundLimits,
  type OutboundPolicy,
  type OutboundRequest,
  type OutboundResponse,
  type RedirectHop,
} from './outbound.js';
import { type HopRequest, nextHop } from './redirects.js';
import { createHostVetter, type VettedHost } from './resolver.js';

export const DEFAULT_LIMITS: OutboundLimits = Object.freeze({
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 15_000,
  maxBytes: 5 * 1024 * 1024,
  maxDecompressedBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
});

export const OUTBOUND_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Set by the client, whatever the caller passes: framing and the host are ours to decide. */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'accept-encoding',
  'expect',
]);

/** The caller's URL, or VALIDATION_ERROR: http(s) only, with a host and a usable port. */
function parseTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidUrl();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.port === '0') {
    throw invalidUrl();
  }
  // Userinfo is never sent; the host after `@` is the target and is what gets vetted.
  url.username = '';
  url.password = '';
  return url;
}

function requestHeaders(given: Readonly<Record<string, string>> | undefined, userAgent: string) {
  const headers: Record<string, string> = { 'user-agent': userAgent, accept: '*/*' };
  for (const [name, value] of Object.entries(given ?? {})) {
    const lower = name.toLowerCase();
    try {
      validateHeaderName(lower);
      validateHeaderValue(lower, value);
    } catch {
      throw new AppError('VALIDATION_ERROR', 'headers: must be valid HTTP header names and values');
    }
    if (!RESERVED_HEADERS.has(lower)) headers[lower] = value;
  }
  return headers;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name] = Array.isArray(value) ? (name === 'set-cookie' ? (value[0] ?? '') : value.join(', ')) : value;
  }
  return flat;
}

const defaultPort = (url: URL): number => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

interface Exchange {
  readonly res: IncomingMessage;
  readonly connectMs: number;
  readonly firstByteMs: number;
}

/**
 * Creates the outbound client for one policy (DESIGN.md section 6; contract and errors in outbound.ts).
 * HTTP/1.1 only, one connection per request, no proxies, no connection reuse: every hop is vetted, connected to
 * the vetted address and closed.
 */
export function createOutboundClient(policy: OutboundPolicy): OutboundClient {
  const base: OutboundLimits = { ...DEFAULT_LIMITS, ...policy.limits };
  const vetter = createHostVetter(createAddressPolicy(policy.allowCidrs), policy.dnsServers);

  /** Connects to the vetted address (TLS with SNI and verification for https) and sends one request. */
  async function exchange(
    hop: HopRequest,
    vetted: VettedHost,
    limits: OutboundLimits,
    request: OutboundRequest,
    signal: AbortSignal,
  ): Promise<Exchange> {
    const step = { timeoutMs: limits.connectTimeoutMs, signal };
    const tcp = await openTcp(vetted.address, defaultPort(hop.url), step);
    let socket: Socket = tcp.socket;
    let connectMs = tcp.connectMs;
    if (hop.url.protocol === 'https:') {
      const tls = await upgradeTls(tcp.socket, {
        ...step,
        address: vetted.address,
        ...(vetted.isName ? { servername: vetted.host } : {}),
        ...(request.ca ? { ca: request.ca } : {}),
        rejectUnauthorized: true,
        alpn: ['http/1.1'],
      });
      socket = tls.socket;
      connectMs += tls.handshakeMs;
    }
    const sentAt = performance.now();
    return new Promise<Exchange>((resolve, reject) => {
      // One request per connection; only the codings readBody can undo are offered.
      const headers: Record<string, string> = {
        ...hop.headers,
        host: hop.url.host,
        connection: 'close',
        'accept-encoding': 'gzip, deflate, br',
      };
      if (hop.body) headers['content-length'] = String(hop.body.length);
      const req = httpRequest({
        createConnection: () => socket,
        method: hop.method,
        path: `${hop.url.pathname}${hop.url.search}`,
        headers,
        setHost: false,
      });
      const onAbort = () => req.destroy(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      req.once('response', (res) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ res, connectMs, firstByteMs: performance.now() - sentAt });
      });
      // Stays attached: a late socket error must never become an unhandled 'error' event.
      req.on('error', (err) => {
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        reject(toOutboundError(err));
      });
      req.end(hop.body);
    });
  }

  async function fetchOnce(request: OutboundRequest, limits: OutboundLimits, deadline: Deadline) {
    const started = performance.now();
    const method = (request.method ?? 'GET').toUpperCase();
    if (!(OUTBOUND_METHODS as readonly string[]).includes(method)) {
      throw new AppError('VALIDATION_ERROR', `method: must be one of [${OUTBOUND_METHODS.join(', ')}]`);
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    let hop: HopRequest = {
      url: parseTargetUrl(request.url),
      method,
      headers: requestHeaders(request.headers, policy.userAgent),
      ...(body ? { body } : {}),
    };
    const chain: RedirectHop[] = [];
    for (;;) {
      const vetted = await vetter.vet(hop.url.hostname, {
        field: 'url',
        verb: chain.length === 0 ? 'resolves' : 'redirects',
        timeoutMs: limits.connectTimeoutMs,
        signal: deadline.signal,
      });
      const { res, connectMs, firstByteMs } = await exchange(hop, vetted, limits, request, deadline.signal);
      const status = res.statusCode ?? 0;
      const next = request.followRedirects === false ? null : nextHop(hop, status, res.headers.location);
      if (next && next.kind !== 'final') {
        res.destroy();
        if (next.kind === 'not-http') {
          throw ssrfBlocked('url: redirects to a non-HTTP(S) URL', {
            host: hop.url.hostname,
            reason: `redirect to ${next.location.split(':')[0]}:`,
          });
        }
        if (chain.length >= limits.maxRedirects) {
          throw new OutboundError('TOO_MANY_REDIRECTS', `more than ${limits.maxRedirects} redirects`);
        }
        chain.push({ from: hop.url.href, to: next.request.url.href, status });
        hop = next.request;
        continue;
      }
      const bodyless =
        hop.method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
      if (bodyless) res.resume();
      const read = bodyless
        ? { body: Buffer.alloc(0), truncated: false }
        : await readBody(
            res,
            {
              maxBytes: limits.maxBytes,
              maxDecompressedBytes: limits.maxDecompressedBytes,
              ...(request.readLimitBytes !== undefined ? { readLimitBytes: request.readLimitBytes } : {}),
            },
            deadline.signal,
          );
      res.socket?.destroy();
      const response: OutboundResponse = {
        url: hop.url.href,
        status,
        headers: flattenHeaders(res.headers),
        body: read.body,
        truncated: read.truncated,
        redirectChain: chain,
        remoteAddress: vetted.address,
        timings: { dnsMs: vetted.dnsMs, connectMs, firstByteMs, totalMs: performance.now() - started },
      };
      return response;
    }
  }

  return {
    async fetch(request) {
      const limits: OutboundLimits = { ...base, ...request.limits };
      const deadline = new Deadline(limits.totalTimeoutMs, request.signal);
      try {
        return await fetchOnce(request, limits, deadline);
      } catch (err) {
        throw toOutboundError(deadline.explain(err));
      } finally {
        deadline.dispose();
      }
    },

    async vet(host) {
      const vetted = await vetter.vet(host, { field: 'host', timeoutMs: base.connectTimeoutMs });
      return vetted.address;
    },

    async connectTcp(host, port, options = {}) {
      checkPort(port);
      const step = connectStep(options);
      try {
        const vetted = await vetter.vet(host, { field: 'host', ...step });
        const { socket, connectMs } = await openTcp(vetted.address, port, step);
        return { socket: handed(socket), address: vetted.address, connectMs };
      } catch (err) {
        throw options.signal?.aborted ? aborted() : toOutboundError(err);
      }
    },

    async connectTls(host, port, options = {}) {
      checkPort(port);
      const step = connectStep(options);
      try {
        const vetted = await vetter.vet(host, { field: 'host', ...step });
        const tcp = await openTcp(vetted.address, port, step);
        const servername = options.servername ?? (vetted.isName ? vetted.host : undefined);
        const tls = await upgradeTls(tcp.socket, {
          ...step,
          address: vetted.address,
          ...(servername ? { servername } : {}),
          ...(options.ca ? { ca: options.ca } : {}),
          rejectUnauthorized: options.rejectUnauthorized ?? false,
          ...(options.minVersion ? { minVersion: options.minVersion } : {}),
          ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}),
        });
        return {
          socket: handed(tls.socket),
          address: vetted.address,
          connectMs: tcp.connectMs,
          handshakeMs: tls.handshakeMs,
        };
      } catch (err) {
        throw options.signal?.aborted ? aborted() : toOutboundError(err);
      }
    },
  };

  function connectStep(options: ConnectOptions): { timeoutMs: number; signal?: AbortSignal } {
    return {
      timeoutMs: options.timeoutMs ?? base.connectTimeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    };
  }
}

/**
 * A socket handed to a caller keeps a no-op 'error' listener: a late network error then only closes it (the
 * caller sees 'close', or its own 'error' listener) instead of crashing the process as an unhandled event.
 */
function handed<T extends Socket>(socket: T): T {
  socket.on('error', () => {});
  return socket;
}

function checkPort(port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalidPort();
}
