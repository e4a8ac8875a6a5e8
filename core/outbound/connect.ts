import { isIP, type LookupFunction, connect as netConnect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { rootCertificates, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { toOutboundError } from './errors.js';
import { OutboundError, type TlsConnectOptions } from './outbound.js';

/**
 * Sockets to an address that was already vetted. Only IP literals come in here; the `lookup` that always fails
 * makes sure a host name can never slip through to the system resolver.
 */
const noLookup: LookupFunction = (hostname, _options, callback) =>
  callback(new Error(`outbound: refusing to resolve ${hostname} after vetting`), '', 0);

interface Step {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Waits for `doneEvent` on `socket`, failing with TIMEOUT after `timeoutMs`, with the signal's reason, or with the
 * socket's error; on failure the socket is destroyed so nothing lingers.
 */
function settle<T>(socket: Socket, doneEvent: string, step: Step, what: string, onDone: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      step.signal?.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off(doneEvent, onOk);
    };
    const fail = (err: unknown) => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    const onAbort = () => fail(step.signal?.reason);
    const onError = (err: unknown) => fail(toOutboundError(err));
    const onOk = () => {
      cleanup();
      resolve(onDone());
    };
    const timer = setTimeout(
      () => fail(new OutboundError('TIMEOUT', `${what} timed out after ${step.timeoutMs} ms`)),
      step.timeoutMs,
    );
    socket.once('error', onError);
    socket.once(doneEvent, onOk);
    step.signal?.addEventListener('abort', onAbort, { once: true });
    if (step.signal?.aborted) onAbort();
  });
}

/** TCP to a vetted IP literal. */
export function openTcp(
  address: string,
  port: number,
  step: Step,
): Promise<{ socket: Socket; connectMs: number }> {
  if (!isIP(address)) throw new Error(`outbound: not a vetted IP address: ${address}`);
  const started = performance.now();
  const socket = netConnect({ host: address, port, lookup: noLookup });
  return settle(socket, 'connect', step, 'connect', () => ({
    socket,
    connectMs: performance.now() - started,
  }));
}

const LEGACY = new Set(['TLSv1', 'TLSv1.1']);

export interface TlsUpgrade extends Step {
  /** The vetted address, verified against IP SANs when there is no name. */
  readonly address: string;
  /** SNI and the name to verify; never an IP (RFC 6066). */
  readonly servername?: string;
  readonly ca?: TlsConnectOptions['ca'];
  readonly rejectUnauthorized: boolean;
  readonly minVersion?: TlsConnectOptions['minVersion'];
  readonly maxVersion?: TlsConnectOptions['maxVersion'];
  readonly alpn?: readonly string[];
}

/** TLS over a connected socket. Extra `ca` certificates add to the public roots instead of replacing them. */
export function upgradeTls(
  socket: Socket,
  o: TlsUpgrade,
): Promise<{ socket: TLSSocket; handshakeMs: number }> {
  const extra = o.ca === undefined ? [] : typeof o.ca === 'string' ? [o.ca] : [...o.ca];
  const servername = o.servername && !isIP(o.servername) ? o.servername : undefined;
  const started = performance.now();
  const tls = tlsConnect({
    socket,
    host: servername ?? o.address,
    ...(servername ? { servername } : {}),
    ...(extra.length > 0 ? { ca: [...rootCertificates, ...extra] } : {}),
    rejectUnauthorized: o.rejectUnauthorized,
    ...(o.minVersion ? { minVersion: o.minVersion } : {}),
    ...(o.maxVersion ? { maxVersion: o.maxVersion } : {}),
    // Checkers probing TLS 1.0/1.1 need OpenSSL's legacy ciphers, which the default security level refuses.
    ...((o.minVersion && LEGACY.has(o.minVersion)) || (o.maxVersion && LEGACY.has(o.maxVersion))
      ? { ciphers: 'DEFAULT:@SECLEVEL=0' }
      : {}),
    ...(o.alpn ? { ALPNProtocols: [...o.alpn] } : {}),
  });
  return settle(tls, 'secureConnect', o, 'TLS handshake', () => ({
    socket: tls,
    handshakeMs: performance.now() - started,
  })).catch((err: unknown) => {
    socket.destroy();
    throw err;
  });
}
