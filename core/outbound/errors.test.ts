import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/catalogue.js';
import { invalidUrl, renameField, ssrfBlocked, toOutboundError } from './errors.js';
import { OutboundError } from './outbound.js';

const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('toOutboundError', () => {
  it.each([
    ['ECONNREFUSED', 'CONNECTION_REFUSED'],
    ['ECONNRESET', 'CONNECTION_FAILED'],
    ['EPIPE', 'CONNECTION_FAILED'],
    ['EHOSTUNREACH', 'CONNECTION_FAILED'],
    ['ETIMEDOUT', 'TIMEOUT'],
    ['HPE_INVALID_CONSTANT', 'CONNECTION_FAILED'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'TLS_FAILURE'],
    ['CERT_HAS_EXPIRED', 'TLS_FAILURE'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'TLS_FAILURE'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'TLS_FAILURE'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS_FAILURE'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'TLS_FAILURE'],
    ['EPROTO', 'TLS_FAILURE'],
  ])('%s → %s', (code, expected) => {
    const out = toOutboundError(errno(code));
    expect(out).toBeInstanceOf(OutboundError);
    expect((out as OutboundError).code).toBe(expected);
  });

  it('never copies addresses from socket messages', () => {
    const out = toOutboundError(errno('ECONNREFUSED', 'connect ECONNREFUSED 10.1.2.3:443'));
    expect(out.message).toBe('connection refused');
    expect(toOutboundError(errno('EWEIRD', 'x 10.1.2.3')).message).toBe('connection failed (EWEIRD)');
  });

  it('passes OutboundError and AppError through', () => {
    const a = new OutboundError('TIMEOUT', 't');
    const b = invalidUrl();
    expect(toOutboundError(a)).toBe(a);
    expect(toOutboundError(b)).toBe(b);
  });
});

describe('error helpers', () => {
  it('SSRF_BLOCKED is 403 and keeps where it came from out of the message', () => {
    const err = ssrfBlocked('url: resolves to a non-public address', {
      host: 'x.example',
      address: '10.0.0.1',
      reason: 'Private-Use',
    });
    expect(err).toMatchObject({ code: 'SSRF_BLOCKED', status: 403 });
    expect(err.message).not.toContain('10.0.0.1');
    expect(err.details).toEqual({ host: 'x.example', address: '10.0.0.1', reason: 'Private-Use' });
  });

  it('renameField rewrites the field of a `<field>: <constraint>` message', () => {
    const renamed = renameField(invalidUrl(), 'targetUrl') as AppError;
    expect(renamed).toBeInstanceOf(AppError);
    expect(renamed).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'targetUrl: must be a valid HTTP or HTTPS URL',
    });
    const other = new OutboundError('TIMEOUT', 'slow');
    expect(renameField(other, 'x')).toBe(other);
  });
});
