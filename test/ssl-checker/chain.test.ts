import type { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeChain, createTrustStore, type TrustStore } from '../../services/ssl-checker/chain.js';
import { daysFromNow, issue, type TestPki, testPki } from './pki.js';

let pki: TestPki;
let trust: TrustStore;
const now = new Date();
const names = (path: readonly X509Certificate[]) => path.map((c) => c.subject.split('\n').at(-1));

beforeAll(async () => {
  pki = await testPki();
  trust = createTrustStore([...rootCertificates, pki.root.cert]);
});

describe('createTrustStore', () => {
  it('holds the system roots and the extra anchor, once each, skipping garbage', () => {
    const store = createTrustStore([
      ...rootCertificates,
      pki.root.cert,
      pki.root.cert,
      'not a certificate',
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
    ]);
    expect(store.anchors.length).toBe(new Set(rootCertificates).size + 1);
    expect(store.fingerprints.has(pki.root.x509.fingerprint256)).toBe(true);
  });

  it('reads several certificates from one PEM string', () => {
    const store = createTrustStore([pki.root.cert + pki.untrustedRoot.cert]);
    expect(store.anchors.map((a) => a.fingerprint256)).toEqual([
      pki.root.x509.fingerprint256,
      pki.untrustedRoot.x509.fingerprint256,
    ]);
  });
});

describe('analyzeChain', () => {
  it('leaf + intermediate sent: the path ends at the trusted root from the store', () => {
    const result = analyzeChain([pki.leaf.x509, pki.intermediate.x509], trust, now);
    expect(result).toMatchObject({ chainValid: true, selfSigned: false, problem: null });
    expect(names(result.path)).toEqual([
      'CN=ssl.test',
      'CN=Toolgate Test Issuing CA',
      'CN=Toolgate Test Root',
    ]);
  });

  it('the root sent by the server too, in any order: the same path of three', () => {
    const result = analyzeChain([pki.leaf.x509, pki.root.x509, pki.intermediate.x509], trust, now);
    expect(result.chainValid).toBe(true);
    expect(result.path).toHaveLength(3);
  });

  it('the intermediate missing: UNKNOWN_ISSUER, the path stops at the leaf', () => {
    const result = analyzeChain([pki.leaf.x509], trust, now);
    expect(result).toMatchObject({ chainValid: false, problem: 'UNKNOWN_ISSUER' });
    expect(result.path).toHaveLength(1);
  });

  it('a root nobody trusts, even when the server sends it: SELF_SIGNED at the top', () => {
    const result = analyzeChain([pki.untrustedLeaf.x509, pki.untrustedRoot.x509], trust, now);
    expect(result).toMatchObject({ chainValid: false, selfSigned: false, problem: 'SELF_SIGNED' });
    expect(result.path).toHaveLength(2);
  });

  it('a self-signed leaf: selfSigned, untrusted, unless it is itself an anchor', () => {
    expect(analyzeChain([pki.selfSigned.x509], trust, now)).toMatchObject({
      chainValid: false,
      selfSigned: true,
      problem: 'SELF_SIGNED',
    });
    const pinned = createTrustStore([pki.selfSigned.cert]);
    expect(analyzeChain([pki.selfSigned.x509], pinned, now)).toMatchObject({
      chainValid: true,
      selfSigned: true,
      problem: null,
    });
  });

  it('the leaf’s own expiry does not break the chain', () => {
    expect(analyzeChain([pki.expired.x509, pki.intermediate.x509], trust, now).chainValid).toBe(true);
  });

  it('an expired or not yet valid intermediate does', async () => {
    const oldCa = await issue({
      commonName: 'Old Issuing CA',
      ca: true,
      issuer: pki.root,
      notBefore: daysFromNow(-400),
      notAfter: daysFromNow(-1),
    });
    const leaf = await issue({ commonName: 'old.example', issuer: oldCa, dns: ['old.example'] });
    expect(analyzeChain([leaf.x509, oldCa.x509], trust, now)).toMatchObject({
      chainValid: false,
      problem: 'INTERMEDIATE_EXPIRED',
    });
    const futureCa = await issue({
      commonName: 'Future Issuing CA',
      ca: true,
      issuer: pki.root,
      notBefore: daysFromNow(5),
      notAfter: daysFromNow(400),
    });
    const leaf2 = await issue({ commonName: 'future.example', issuer: futureCa });
    expect(analyzeChain([leaf2.x509, futureCa.x509], trust, now).problem).toBe('INTERMEDIATE_NOT_YET_VALID');
  });

  it('an intermediate that is not a CA breaks it', async () => {
    const notCa = await issue({ commonName: 'Not A CA', ca: false, issuer: pki.root });
    const leaf = await issue({ commonName: 'x.example', issuer: notCa });
    expect(analyzeChain([leaf.x509, notCa.x509], trust, now)).toMatchObject({
      chainValid: false,
      problem: 'INTERMEDIATE_NOT_CA',
    });
  });

  it('a forged issuer (same name, other key) is not taken for the real one', async () => {
    const forged = await issue({
      commonName: 'Toolgate Test Issuing CA',
      organization: 'Toolgate Tests',
      country: 'DE',
      ca: true,
      issuer: pki.untrustedRoot,
    });
    const result = analyzeChain([pki.leaf.x509, forged.x509], trust, now);
    expect(result).toMatchObject({ chainValid: false, problem: 'UNKNOWN_ISSUER' });
  });
});
