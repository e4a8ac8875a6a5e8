import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * The one way to contact a host a user named (DESIGN.md section 6). Every URL metadata fetch, SSL check, monitor
 * probe, cron callback, webhook replay, screenshot sub-request, rate test and callback goes through an
 * OutboundClient: http/https only; the host is resolved once, every non-public address is refused (403
 * SSRF_BLOCKED) unless an operator allowed its range (OUTBOUND_ALLOW_CIDRS), and the connection goes to the vetted
 * address itself, so a second, different DNS answer (rebinding) can never be used. Redirects are followed by hand
 * with the same check on every hop. Time and bytes are capped.
 *
 * Errors: AppError SSRF_BLOCKED (403) for a refused address or redirect; AppError VALIDATION_ERROR for a URL that
 * is not http(s) or is malformed (`url: must be a valid HTTP or HTTPS URL`); OutboundError for network outcomes
 * (DNS failure, refused, reset, timeout, too large, too many redirects) that services report in their results.
 */
export interface OutboundLimits {
  /** Per connection attempt. Default 5,000 ms. */
  readonly connectTimeoutMs: number;
  /** Whole request including redirects and body. Default 15,000 ms. */
  readonly totalTimeoutMs: number;
  /** Bytes read off the wire per response. Default 5 MiB. */
  readonly maxBytes: number;
  /** Bytes after gzip/deflate/br decoding. Default 10 MiB. */
  readonly maxDecompressedBytes: number;
  /** Default 5. */
  readonly maxRedirects: number;
}

export interface OutboundRequest {
  readonly url: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Default true. When false, a 3xx is returned as the response. */
  readonly followRedirects?: boolean;
  /**
   * Stop reading after this many bytes and return what arrived with `truncated: true` (instead of failing with
   * TOO_LARGE): e.g. the first bytes of a file, or HTML up to a parse cap.
   */
  readonly readLimitBytes?: number;
  readonly limits?: Partial<OutboundLimits>;
  /** Extra trust anchors (PEM) for https targets, e.g. a test CA. */
  readonly ca?: string | readonly string[];
  readonly signal?: AbortSignal;
}

export interface RedirectHop {
  readonly from: string;
  readonly to: string;
  readonly status: number;
}

export interface OutboundResponse {
  /** URL of the final response, after redirects. */
  readonly url: string;
  readonly status: number;
  /** Lower-case names; repeated headers joined with `, ` (set-cookie kept as the first value). */
  readonly headers: Readonly<Record<string, string>>;
  /** Decoded (gzip, deflate, br) body. */
  readonly body: Buffer;
  readonly truncated: boolean;
  readonly redirectChain: readonly RedirectHop[];
  /** The vetted address the final response came from. */
  readonly remoteAddress: string;
  readonly timings: {
    readonly dnsMs: number;
    readonly connectMs: number;
    readonly firstByteMs: number;
    readonly totalMs: number;
  };
}

export interface ConnectOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface TlsConnectOptions extends ConnectOptions {
  /** SNI and hostname to verify; default the host. */
  readonly servername?: string;
  readonly ca?: string | readonly string[];
  readonly minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  readonly maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  /** Default false here: checkers inspect the certificate themselves (`socket.authorized`, `authorizationError`). */
  readonly rejectUnauthorized?: boolean;
}

export type OutboundErrorCode =
  | 'DNS_FAILURE'
  | 'CONNECTION_REFUSED'
  | 'CONNECTION_FAILED'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'TOO_MANY_REDIRECTS'
  | 'TLS_FAILURE'
  | 'ABORTED';

/** A network outcome, not a refusal: services report it in their result (e.g. SSL's CONNECTION_FAILED). */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundClient {
  fetch(request: OutboundRequest): Promise<OutboundResponse>;
  /** Resolves and vets `host`; returns the address to connect to. */
  vet(host: string): Promise<string>;
  connectTcp(
    host: string,
    port: number,
    options?: ConnectOptions,
  ): Promise<{ socket: Socket; address: string; connectMs: number }>;
  connectTls(
    host: string,
    port: number,
    options?: TlsConnectOptions,
  ): Promise<{ socket: TLSSocket; address: string; connectMs: number; handshakeMs: number }>;
}

export interface OutboundPolicy {
  /** CIDR ranges that may be reached although not public (OUTBOUND_ALLOW_CIDRS). Empty by default. */
  readonly allowCidrs: readonly string[];
  /** Resolvers (ip or ip:port) for target names; the system's when omitted (DNS_SERVERS). */
  readonly dnsServers?: readonly string[];
  /** Names the platform, e.g. `Toolgate/0.1 (+https://toolgate.example)`. */
  readonly userAgent: string;
  readonly limits?: Partial<OutboundLimits>;
}
