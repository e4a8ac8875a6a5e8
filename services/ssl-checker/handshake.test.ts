import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { OutboundError } from '../../core/outbound/outbound.js';
import { asConnectionFailure, ConnectionFailure } from './handshake.js';

const OPENSSL =
  'TLS failed: 80EC252D387F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:' +
  '../deps/openssl/openssl/ssl/record/ssl3_record.c:350:';

describe('asConnectionFailure', () => {
  it('words each network outcome for the caller, keeping only OpenSSL’s reason phrase', () => {
    const cases: [OutboundError, string][] = [
      [
        new OutboundError('DNS_FAILURE', 'x'),
        'no TLS connection to a.example:443: the name does not resolve',
      ],
      [
        new OutboundError('CONNECTION_REFUSED', 'x'),
        'no TLS connection to a.example:443: the connection was refused',
      ],
      [new OutboundError('TIMEOUT', 'x'), 'no TLS connection to a.example:443: the connection timed out'],
      [
        new OutboundError('TLS_FAILURE', OPENSSL),
        'no TLS connection to a.example:443: the TLS handshake failed (wrong version number)',
      ],
      [
        new OutboundError('TLS_FAILURE', 'TLS failed: peer sent no certificate'),
        'no TLS connection to a.example:443: the TLS handshake failed',
      ],
    ];
    for (const [error, message] of cases) {
      const outcome = asConnectionFailure(error, 'a.example', 443);
      expect(outcome).toBeInstanceOf(ConnectionFailure);
      expect((outcome as Error).message).toBe(message);
      expect((outcome as Error).message).not.toMatch(/\.c:\d+|deps\/|0A00/);
    }
  });

  it('brackets an IPv6 host', () => {
    const outcome = asConnectionFailure(new OutboundError('TIMEOUT', 'x'), '2001:db8::1', 8443) as Error;
    expect(outcome.message).toBe('no TLS connection to [2001:db8::1]:8443: the connection timed out');
  });

  it('a raw socket error with a system or TLS code is a connection failure too', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(asConnectionFailure(reset, 'a.example', 443)).toBeInstanceOf(ConnectionFailure);
    const tls = Object.assign(new Error(OPENSSL), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' });
    expect((asConnectionFailure(tls, 'a.example', 443) as Error).message).toBe(
      'no TLS connection to a.example:443: the connection failed (wrong version number)',
    );
  });

  it('refusals and programming errors pass unchanged', () => {
    const blocked = new AppError('SSRF_BLOCKED', 'host: resolves to a non-public address');
    expect(asConnectionFailure(blocked, 'a.example', 443)).toBe(blocked);
    const bug = new TypeError('cannot read properties of undefined');
    expect(asConnectionFailure(bug, 'a.example', 443)).toBe(bug);
  });
});
