import './reflect-metadata.js';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { signatureAlgorithm } from '../../services/ssl-checker/signature-algorithm.js';
import { type HashName, type IssueOptions, issue, type KeySpec } from './pki.js';

/** Certificates signed with each algorithm, read by our DER walk and, independently, by @peculiar/x509. */
const CASES: [KeySpec, HashName, string, string | null][] = [
  ['ec-p256', 'SHA-256', 'ecdsa-with-SHA256', 'SHA-256'],
  ['ec-p384', 'SHA-384', 'ecdsa-with-SHA384', 'SHA-384'],
  ['ec-p256', 'SHA-1', 'ecdsa-with-SHA1', 'SHA-1'],
  ['rsa-2048', 'SHA-256', 'sha256WithRSAEncryption', 'SHA-256'],
  ['rsa-2048', 'SHA-384', 'sha384WithRSAEncryption', 'SHA-384'],
  ['rsa-1024', 'SHA-1', 'sha1WithRSAEncryption', 'SHA-1'],
  ['rsa-pss-2048', 'SHA-256', 'RSASSA-PSS', 'SHA-256'],
  ['rsa-pss-2048', 'SHA-384', 'RSASSA-PSS', 'SHA-384'],
  ['ed25519', 'SHA-256', 'ED25519', null],
];

describe('signatureAlgorithm', () => {
  it.each(CASES)('%s signed with %s → %s', async (key, hash, name, expectedHash) => {
    const options: IssueOptions = { commonName: 'sig.example', key, hash };
    const { der } = await issue(options);
    const ours = signatureAlgorithm(der);
    expect(ours.name).toBe(name);
    expect(ours.hash).toBe(expectedHash);
    // Control: an independent ASN.1 parser agrees on the digest.
    const theirs = new x509.X509Certificate(der).signatureAlgorithm as { hash?: { name: string } };
    if (expectedHash) expect(theirs.hash?.name).toBe(expectedHash);
  });

  it('reports an unknown algorithm by its dotted OID', async () => {
    const { der } = await issue({ commonName: 'oid.example' });
    const copy = Buffer.from(der);
    // ecdsa-with-SHA256 is 2A 86 48 CE 3D 04 03 02; the outer AlgorithmIdentifier is the second occurrence.
    const oid = Buffer.from([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]);
    const at = copy.lastIndexOf(oid);
    copy[at + oid.length - 1] = 0x09;
    expect(signatureAlgorithm(copy)).toEqual({
      name: '1.2.840.10045.4.3.9',
      oid: '1.2.840.10045.4.3.9',
      hash: null,
    });
  });

  it('throws on bytes that are not a certificate', async () => {
    const { der } = await issue({ commonName: 'cut.example' });
    expect(() => signatureAlgorithm(der.subarray(0, der.length / 2))).toThrow();
    expect(() => signatureAlgorithm(Buffer.from([0x04, 0x01, 0x00]))).toThrow();
    expect(() => signatureAlgorithm(Buffer.alloc(0))).toThrow();
  });
});
