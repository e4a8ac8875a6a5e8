import { rootCertificates } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTrustStore, type TrustStore } from '../../services/ssl-checker/chain.js';
import { parseHostname } from '../../services/ssl-checker/hostname.js';
import { buildReport, daysUntil, type Observation } from '../../services/ssl-checker/report.js';
import { dResult, rResult, sResult, unionResult } from '../../services/ssl-checker/shapes.js';
import { daysFromNow, type Issued, issue, type TestPki, testPki } from './pki.js';

let pki: TestPki;
let trust: TrustStore;

beforeAll(async () => {
  pki = await testPki();
  trust = createTrustStore([...rootCertificates, pki.root.cert]);
});

const TLS13 = { name: 'TLS_AES_256_GCM_SHA384', standardName: 'TLS_AES_256_GCM_SHA384' };
const observed = (chain: Issued[], extra: Partial<Observation> = {}): Observation => ({
  chain: chain.map((c) => c.der),
  protocol: 'TLSv1.3',
  cipher: TLS13,
  ...extra,
});
const report = (hostname: string, obs: Observation, now = new Date()) =>
  buildReport({ hostname, target: parseHostname(hostname)!, port: 8443 }, obs, trust, now);

describe('buildReport', () => {
  it('a good leaf under the test CA: valid, every SPEC field filled from the certificate', () => {
    const r = report('ssl.test', observed([pki.leaf, pki.intermediate]));
    expect(r).toMatchObject({
      hostname: 'ssl.test',
      port: 8443,
      valid: true,
      selfSigned: false,
      issuer: { commonName: 'Toolgate Test Issuing CA', organization: 'Toolgate Tests', country: 'DE' },
      issuerName: 'Toolgate Tests',
      subject: { commonName: 'ssl.test', organization: 'Toolgate Tests' },
      serialNumber: pki.leaf.x509.serialNumber.toUpperCase(),
      signatureAlgorithm: 'ecdsa-with-SHA256',
      notBefore: new Date(pki.leaf.x509.validFrom).toISOString(),
      notAfter: new Date(pki.leaf.x509.validTo).toISOString(),
      daysUntilExpiry: 30,
      subjectAlternativeNames: ['ssl.test', '127.0.0.1'],
      protocol: 'TLSv1.3',
      cipherSuite: 'TLS_AES_256_GCM_SHA384',
      chainLength: 3,
      chainValid: true,
      hostnameMatch: true,
      protocols: null,
      grade: null,
    });
  });

  it('the IP address is matched against IP SANs', () => {
    expect(report('127.0.0.1', observed([pki.leaf, pki.intermediate]))).toMatchObject({
      valid: true,
      hostnameMatch: true,
    });
    expect(report('127.0.0.2', observed([pki.leaf, pki.intermediate]))).toMatchObject({
      valid: false,
      hostnameMatch: false,
    });
  });

  it('expired: chain still valid, certificate not; days negative', () => {
    const r = report('ssl.test', observed([pki.expired, pki.intermediate]));
    expect(r).toMatchObject({ valid: false, chainValid: true, hostnameMatch: true, daysUntilExpiry: -3 });
  });

  it('not yet valid: not valid either', async () => {
    const future = await issue({
      commonName: 'ssl.test',
      issuer: pki.intermediate,
      dns: ['ssl.test'],
      notBefore: daysFromNow(2),
      notAfter: daysFromNow(60),
    });
    expect(report('ssl.test', observed([future, pki.intermediate]))).toMatchObject({
      valid: false,
      chainValid: true,
    });
  });

  it('wrong hostname: chain valid, hostname mismatch, not valid; wildcards cover one label only', () => {
    const obs = observed([pki.wrongHost, pki.intermediate]);
    expect(report('ssl.test', obs)).toMatchObject({ valid: false, chainValid: true, hostnameMatch: false });
    expect(report('other.example', obs)).toMatchObject({ valid: true, hostnameMatch: true });
    expect(report('www.other.example', obs).hostnameMatch).toBe(true);
    expect(report('a.b.other.example', obs).hostnameMatch).toBe(false);
  });

  it('a wildcard covers one whole label: not the bare domain, not two labels, no partial labels', async () => {
    const wild = await issue({
      commonName: 'wild',
      issuer: pki.intermediate,
      dns: ['*.wild.example', 'w*.part.example'],
    });
    const obs = observed([wild, pki.intermediate]);
    expect(report('a.wild.example', obs).hostnameMatch).toBe(true);
    expect(report('wild.example', obs).hostnameMatch).toBe(false);
    expect(report('a.b.wild.example', obs).hostnameMatch).toBe(false);
    expect(report('www.part.example', obs).hostnameMatch).toBe(false);
  });

  it('the common name alone does not match (browsers ignore it)', async () => {
    const cnOnly = await issue({ commonName: 'cn-only.example', issuer: pki.intermediate });
    expect(report('cn-only.example', observed([cnOnly, pki.intermediate])).hostnameMatch).toBe(false);
  });

  it('self-signed: selfSigned, chain invalid, length 1', () => {
    expect(report('ssl.test', observed([pki.selfSigned]))).toMatchObject({
      valid: false,
      selfSigned: true,
      chainValid: false,
      chainLength: 1,
      issuer: { commonName: 'ssl.test', organization: null, country: null },
      issuerName: 'ssl.test',
    });
  });

  it('days until expiry count whole days down, from the injected clock', () => {
    const notAfter = new Date('2030-06-15T12:00:00Z');
    expect(daysUntil(notAfter, new Date('2030-06-15T11:59:59Z'))).toBe(0);
    expect(daysUntil(notAfter, new Date('2030-06-14T12:00:00Z'))).toBe(1);
    expect(daysUntil(notAfter, new Date('2030-06-15T12:00:01Z'))).toBe(-1);
    expect(daysUntil(notAfter, new Date('2030-06-05T11:00:00Z'))).toBe(10);
    const later = new Date(Date.now() + 40 * 86_400_000);
    expect(report('ssl.test', observed([pki.leaf, pki.intermediate]), later)).toMatchObject({
      valid: false,
      daysUntilExpiry: -10,
    });
  });

  it('with probed versions: protocols sorted, the negotiated one included, and a grade', () => {
    const r = report(
      'ssl.test',
      observed([pki.leaf, pki.intermediate], {
        protocol: 'TLSv1.2',
        cipher: {
          name: 'ECDHE-ECDSA-AES128-GCM-SHA256',
          standardName: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
        },
        protocols: ['TLSv1.3'],
      }),
    );
    expect(r).toMatchObject({ protocols: ['TLSv1.2', 'TLSv1.3'], grade: 'A+', protocol: 'TLSv1.2' });
    const legacy = report(
      'ssl.test',
      observed([pki.leaf, pki.intermediate], { protocol: 'TLSv1', protocols: [] }),
    );
    expect(legacy).toMatchObject({ protocol: 'TLSv1.0', protocols: ['TLSv1.0'], grade: 'F' });
    const untrusted = report('ssl.test', observed([pki.selfSigned], { protocols: ['TLSv1.3'] }));
    expect(untrusted.grade).toBe('T');
  });
});

describe('the convention shapes', () => {
  const full = () =>
    report('SSL.Test', observed([pki.leaf, pki.intermediate], { protocols: ['TLSv1.2', 'TLSv1.3'] }));

  it('D: exactly the SPEC fields (the gateway adds processingTimeMs)', () => {
    expect(Object.keys(dResult(full())).sort()).toEqual(
      [
        'hostname',
        'port',
        'valid',
        'selfSigned',
        'issuer',
        'subject',
        'serialNumber',
        'signatureAlgorithm',
        'notBefore',
        'notAfter',
        'daysUntilExpiry',
        'subjectAlternativeNames',
        'protocol',
        'cipherSuite',
        'chainLength',
        'chainValid',
      ].sort(),
    );
    expect(dResult(full()).hostname).toBe('SSL.Test');
  });

  it('R: the SPEC fields plus the port, issuer as a string', () => {
    const r = rResult(full());
    expect(Object.keys(r).sort()).toEqual(
      [
        'hostname',
        'port',
        'grade',
        'issuer',
        'validFrom',
        'validUntil',
        'daysRemaining',
        'chainValid',
        'hostnameMatch',
        'protocols',
      ].sort(),
    );
    expect(r).toMatchObject({ issuer: 'Toolgate Tests', grade: 'A+', daysRemaining: 30 });
    expect(r.validUntil).toBe(dResult(full()).notAfter);
  });

  it('the union: D’s issuer object by default, R’s string when asked', () => {
    const d = unionResult(full(), 'D');
    const r = unionResult(full(), 'R');
    expect(d.issuer).toEqual({
      commonName: 'Toolgate Test Issuing CA',
      organization: 'Toolgate Tests',
      country: 'DE',
    });
    expect(r.issuer).toBe('Toolgate Tests');
    const { issuer: _d, ...restD } = d;
    const { issuer: _r, ...restR } = r;
    expect(restD).toEqual(restR);
    expect(Object.keys(d)).toHaveLength(16 + 6);
  });

  it('an R result without probed versions is a programming error', () => {
    expect(() => rResult(report('ssl.test', observed([pki.leaf, pki.intermediate])))).toThrow();
  });

  it('S: domain, valid, issuer string, expiresAt, daysRemaining', () => {
    expect(sResult(full())).toEqual({
      domain: 'SSL.Test',
      valid: true,
      issuer: 'Toolgate Tests',
      expiresAt: dResult(full()).notAfter,
      daysRemaining: 30,
    });
  });
});
