import { AppError } from '../errors/catalogue.js';
import { OutboundError } from './outbound.js';

/**
 * The errors core/outbound throws. Refusals and bad input are AppErrors (rendered by the gateway); network
 * outcomes are OutboundErrors with messages fit for a result body: no stack, no internal address.
 */

export const invalidUrl = (field = 'url'): AppError =>
  new AppError('VALIDATION_ERROR', `${field}: must be a valid HTTP or HTTPS URL`);

export const invalidHost = (field = 'host'): AppError =>
  new AppError('VALIDATION_ERROR', `${field}: must be a valid host name or IP address`);

export const invalidPort = (field = 'port'): AppError =>
  new AppError('VALIDATION_ERROR', `${field}: must be an integer from 1 to 65535`);

/**
 * 403 SSRF_BLOCKED. The message names neither the address nor the range (an attacker would learn the internal
 * DNS); `details` carries them for logs and tests.
 */
export const ssrfBlocked = (
  message: string,
  details: { readonly host: string; readonly address?: string; readonly reason: string },
): AppError => new AppError('SSRF_BLOCKED', message, details);

/**
 * The same error with another field name in its `<field>: <constraint>` message, for services whose input is
 * not called `url`/`host` (e.g. cron's `targetUrl`). Anything else is returned unchanged.
 */
export function renameField(err: unknown, field: string): unknown {
  if (!(err instanceof AppError)) return err;
  const at = err.message.indexOf(': ');
  if (at < 0) return err;
  return new AppError(err.code, `${field}${err.message.slice(at)}`, err.details);
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|INVALID_CA|PATH_LENGTH|INVALID_PURPOSE|HOSTNAME_MISMATCH|EPROTO$)/;

/** A socket or TLS error as an OutboundError; OutboundErrors and AppErrors pass through. */
export function toOutboundError(err: unknown): Error {
  if (err instanceof OutboundError || err instanceof AppError) return err;
  const e = (err ?? {}) as { code?: string; message?: string; library?: string };
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED') return new OutboundError('CONNECTION_REFUSED', 'connection refused');
  if (code === 'ETIMEDOUT') return new OutboundError('TIMEOUT', 'the connection timed out');
  if (code === 'ECONNRESET') return new OutboundError('CONNECTION_FAILED', 'connection reset by the peer');
  if (TLS_CODE.test(code) || e.library === 'SSL routines') {
    // OpenSSL messages carry its source paths (`…:../deps/openssl/…/ssl3_record.c:350:`): keep the reason only.
    const first = String(e.message ?? code).split('\n')[0] ?? code;
    const reason = /:([^:]+):[^:]*\.c:\d+:?/.exec(first)?.[1] ?? first.replace(/\S*\.c:\d+:?/g, '').trim();
    return new OutboundError('TLS_FAILURE', `TLS failed: ${reason || code}`);
  }
  if (code.startsWith('HPE_')) return new OutboundError('CONNECTION_FAILED', 'the peer sent invalid HTTP');
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new OutboundError('CONNECTION_FAILED', 'the host is unreachable');
  }
  return new OutboundError('CONNECTION_FAILED', code ? `connection failed (${code})` : 'connection failed');
}
