import { describe, expect, it } from 'vitest';
import { forwardSecret, type GradeInput, gradeOf } from './grading.js';

/** A modern configuration: A+ unless a test changes one thing. */
const best: GradeInput = {
  trusted: true,
  protocols: ['TLSv1.2', 'TLSv1.3'],
  cipherSuite: 'TLS_AES_128_GCM_SHA256',
  publicKey: { type: 'ec', bits: 256 },
  signatureHash: 'SHA-256',
};
const grade = (change: Partial<GradeInput>) => gradeOf({ ...best, ...change });

describe('gradeOf', () => {
  it('A+: trusted, TLS 1.2/1.3 only, forward-secret AEAD suite, strong key and hash', () => {
    expect(gradeOf(best)).toEqual({ grade: 'A+', reasons: [] });
    expect(grade({ protocols: ['TLSv1.3'] }).grade).toBe('A+');
    expect(grade({ publicKey: { type: 'rsa', bits: 2048 } }).grade).toBe('A+');
    expect(grade({ publicKey: { type: 'ed25519', bits: 256 }, signatureHash: null }).grade).toBe('A+');
  });

  it('T whenever the certificate is not trusted for the host, however good the configuration', () => {
    expect(grade({ trusted: false })).toEqual({
      grade: 'T',
      reasons: ['certificate not trusted for this host'],
    });
    expect(grade({ trusted: false, protocols: ['TLSv1.0'] }).grade).toBe('T');
  });

  it('A: TLS 1.3 not accepted, or a non-AEAD (CBC) suite negotiated', () => {
    expect(grade({ protocols: ['TLSv1.2'], cipherSuite: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256' })).toEqual({
      grade: 'A',
      reasons: ['TLS 1.3 not accepted'],
    });
    expect(grade({ cipherSuite: 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384' }).grade).toBe('A');
  });

  it('B: TLS 1.0 or 1.1 accepted, or no forward secrecy', () => {
    expect(grade({ protocols: ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] })).toEqual({
      grade: 'B',
      reasons: ['TLS 1.0 accepted', 'TLS 1.1 accepted'],
    });
    expect(grade({ protocols: ['TLSv1.1', 'TLSv1.2', 'TLSv1.3'] }).grade).toBe('B');
    expect(grade({ cipherSuite: 'TLS_RSA_WITH_AES_128_GCM_SHA256' }).grade).toBe('B');
  });

  it('C: 3DES, a SHA-1 signature, or an RSA key under 2048 bits', () => {
    expect(grade({ cipherSuite: 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA' }).grade).toBe('C');
    expect(grade({ signatureHash: 'SHA-1' }).grade).toBe('C');
    expect(grade({ publicKey: { type: 'rsa', bits: 1024 } })).toEqual({
      grade: 'C',
      reasons: ['RSA key of 1024 bits'],
    });
    expect(grade({ publicKey: { type: 'ec', bits: 192 } }).grade).toBe('C');
  });

  it('F: neither TLS 1.2 nor 1.3, a broken suite, an MD5 signature, or a key under 1024 bits', () => {
    expect(grade({ protocols: ['TLSv1.0', 'TLSv1.1'] }).grade).toBe('F');
    for (const suite of [
      'TLS_RSA_WITH_NULL_SHA256',
      'TLS_RSA_EXPORT_WITH_RC4_40_MD5',
      'TLS_DH_anon_WITH_AES_128_CBC_SHA',
      'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
      'TLS_RSA_WITH_DES_CBC_SHA',
    ]) {
      expect(grade({ cipherSuite: suite }).grade, suite).toBe('F');
    }
    expect(grade({ signatureHash: 'MD5' }).grade).toBe('F');
    expect(grade({ publicKey: { type: 'rsa', bits: 512 } }).grade).toBe('F');
  });

  it('the worst cap wins, and every cap is listed worst first', () => {
    const result = grade({
      protocols: ['TLSv1.0', 'TLSv1.2'],
      signatureHash: 'SHA-1',
      cipherSuite: 'TLS_RSA_WITH_AES_128_CBC_SHA',
    });
    expect(result.grade).toBe('C');
    expect(result.reasons).toEqual([
      'certificate signed with SHA-1',
      'TLS 1.0 accepted',
      'no forward secrecy with TLS_RSA_WITH_AES_128_CBC_SHA',
      'TLS 1.3 not accepted',
      'non-AEAD cipher suite TLS_RSA_WITH_AES_128_CBC_SHA',
    ]);
  });

  it('an unknown suite or key size caps nothing', () => {
    expect(grade({ cipherSuite: null, publicKey: { type: 'unknown', bits: null } }).grade).toBe('A+');
  });
});

describe('forwardSecret', () => {
  it('TLS 1.3 suites always; TLS 1.2 suites only with an ephemeral (EC)DHE key exchange', () => {
    expect(forwardSecret('TLS_AES_256_GCM_SHA384')).toBe(true);
    expect(forwardSecret('TLS_CHACHA20_POLY1305_SHA256')).toBe(true);
    expect(forwardSecret('TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256')).toBe(true);
    expect(forwardSecret('TLS_DHE_RSA_WITH_AES_128_GCM_SHA256')).toBe(true);
    expect(forwardSecret('TLS_RSA_WITH_AES_128_GCM_SHA256')).toBe(false);
    expect(forwardSecret('TLS_ECDH_RSA_WITH_AES_128_GCM_SHA256')).toBe(false);
  });
});
