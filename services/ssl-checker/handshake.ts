import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { AppError } from '../../core/errors/catalogue.js';
import {
  type OutboundClient,
  OutboundError,
  type OutboundErrorCode,
  type TlsConnectOptions,
} from '../../core/outbound/outbound.js';
import type { CheckTarget } from './hostname.js';
import type { Observation } from './report.js';
import { TLS_VERSIONS, type TlsVersion, toNodeVersion } from './tls-versions.js';

/** No TLS session could be set up; the message is meant for the caller (no internals). */
export class ConnectionFailure extends Error {
  override readonly name = 'ConnectionFailure';
}

const REASONS: Record<OutboundErrorCode, string> = {
  DNS_FAILURE: 'the name does not resolve',
  CONNECTION_REFUSED: 'the connection was refused',
  CONNECTION_FAILED: 'the connection failed',
  TIMEOUT: 'the connection timed out',
  TOO_LARGE: 'the server sent too much data',
  TOO_MANY_REDIRECTS: 'too many redirects',
  TLS_FAILURE: 'the TLS handshake failed',
  ABORTED: 'the check was aborted',
};

/** OpenSSL's text names source files and addresses; its last reason phrase is what a caller can use. */
function tlsReason(message: string): string | null {
  const openssl = /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
  if (openssl) return openssl.trim();
  const alert = /alert [a-z ]+/i.exec(message)?.[0];
  return alert ?? null;
}

/** Network outcomes become a ConnectionFailure; refusals (AppError) and programming errors pass unchanged. */
export function asConnectionFailure(error: unknown, host: string, port: number): unknown {
  if (error instanceof AppError) return error;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (error instanceof OutboundError) {
    const detail = error.code === 'TLS_FAILURE' ? tlsReason(error.message) : null;
    return new ConnectionFailure(
      `no TLS connection to ${where}: ${REASONS[error.code] ?? 'the connection failed'}` +
        (detail ? ` (${detail})` : ''),
    );
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^(E[A-Z]+|ERR_SSL_|ERR_TLS_)/.test(code)) {
    const detail = tlsReason(String((error as Error).message ?? ''));
    return new ConnectionFailure(`no TLS connection to ${where}: the connection failed (${detail ?? code})`);
  }
  return error;
}

/** The chain as node walked it from the peer (leaf first); the root repeats itself as its own issuer. */
function peerChain(socket: TLSSocket): Uint8Array[] {
  const chain: Uint8Array[] = [];
  const seen = new Set<string>();
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (cert?.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new Uint8Array(cert.raw));
    cert = cert.issuerCertificate;
  }
  return chain;
}

export interface HandshakeTimeouts {
  /** The main handshake. */
  readonly handshakeMs: number;
  /** Each version probe. */
  readonly probeMs: number;
}

/**
 * One handshake offering every version from TLS 1.0 up (so a legacy-only server is still examined), with
 * verification left to the checker. Throws ConnectionFailure, or AppError SSRF_BLOCKED from the outbound guard.
 */
export async function observe(
  outbound: OutboundClient,
  target: CheckTarget,
  port: number,
  timeoutMs: number,
): Promise<Observation> {
  // With TLS 1.0 allowed the outbound client lowers OpenSSL's security level, which legacy handshakes need.
  const options: TlsConnectOptions = { timeoutMs, minVersion: 'TLSv1', rejectUnauthorized: false };
  let socket: TLSSocket;
  try {
    ({ socket } = await outbound.connectTls(target.host, port, options));
  } catch (error) {
    throw asConnectionFailure(error, target.host, port);
  }
  try {
    const chain = peerChain(socket);
    if (chain.length === 0) {
      throw new ConnectionFailure(`no certificate from ${target.host}:${port}: the server presented none`);
    }
    const cipher = socket.getCipher();
    return {
      chain,
      protocol: socket.getProtocol(),
      cipher: cipher ? { name: cipher.name, standardName: cipher.standardName } : null,
    };
  } finally {
    socket.destroy();
  }
}

/** Whether a handshake limited to exactly `version` completes. */
async function accepts(
  outbound: OutboundClient,
  target: CheckTarget,
  port: number,
  version: TlsVersion,
  timeoutMs: number,
): Promise<boolean> {
  const node = toNodeVersion(version);
  const options: TlsConnectOptions = {
    timeoutMs,
    minVersion: node,
    maxVersion: node,
    rejectUnauthorized: false,
  };
  try {
    const { socket } = await outbound.connectTls(target.host, port, options);
    socket.destroy();
    return true;
  } catch (error) {
    const outcome = asConnectionFailure(error, target.host, port);
    if (outcome instanceof ConnectionFailure) return false;
    throw outcome;
  }
}

/** Probes every version but `known` (already proven by the main handshake) in parallel. */
export async function acceptedVersions(
  outbound: OutboundClient,
  target: CheckTarget,
  port: number,
  known: TlsVersion | null,
  timeoutMs: number,
): Promise<TlsVersion[]> {
  const results = await Promise.all(
    TLS_VERSIONS.map(async (v) =>
      v === known || (await accepts(outbound, target, port, v, timeoutMs)) ? v : null,
    ),
  );
  return results.filter((v): v is TlsVersion => v !== null);
}
