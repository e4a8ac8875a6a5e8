import { webcrypto, X509Certificate } from 'node:crypto';

type CryptoKeyPair = webcrypto.CryptoKeyPair;
type Algorithm = webcrypto.Algorithm;
type RsaHashedKeyGenParams = webcrypto.RsaHashedKeyGenParams;
type EcKeyGenParams = webcrypto.EcKeyGenParams;

import './reflect-metadata.js';
import * as x509 from '@peculiar/x509';

/**
 * A throw-away PKI for the SSL checker's tests: certificate authorities and leaves made in memory with WebCrypto,
 * so every test owns its trust anchor and no certificate file is shipped or fetched.
 */
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const DAY = 86_400_000;

export type KeySpec = 'ec-p256' | 'ec-p384' | 'rsa-2048' | 'rsa-1024' | 'rsa-pss-2048' | 'ed25519';
export type HashName = 'SHA-1' | 'SHA-256' | 'SHA-384';

export interface Issued {
  /** PEM, as tls.createServer and the checker's trustedCa take it. */
  readonly cert: string;
  readonly key: string;
  readonly x509: X509Certificate;
  readonly der: Buffer;
  /** For issuing below this certificate. */
  readonly keys: CryptoKeyPair;
  readonly name: string;
  readonly signing: Algorithm;
}

export interface IssueOptions {
  readonly commonName: string;
  readonly organization?: string;
  readonly country?: string;
  /** Signed by this authority; self-signed when omitted. */
  readonly issuer?: Issued;
  readonly dns?: readonly string[];
  readonly ips?: readonly string[];
  readonly ca?: boolean;
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  readonly key?: KeySpec;
  readonly hash?: HashName;
  readonly serialNumber?: string;
}

type KeyAlgorithm = RsaHashedKeyGenParams | EcKeyGenParams | Algorithm;

function algorithm(key: KeySpec, hash: HashName): KeyAlgorithm {
  switch (key) {
    case 'ed25519':
      return { name: 'Ed25519' };
    case 'rsa-pss-2048':
      return {
        name: 'RSA-PSS',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash,
        saltLength: 32,
      } as RsaHashedKeyGenParams;
    case 'ec-p256':
      return { name: 'ECDSA', namedCurve: 'P-256', hash } as EcKeyGenParams;
    case 'ec-p384':
      return { name: 'ECDSA', namedCurve: 'P-384', hash } as EcKeyGenParams;
    case 'rsa-2048':
    case 'rsa-1024':
      return {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: key === 'rsa-2048' ? 2048 : 1024,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash,
      };
  }
}

/** `CN=…, O=…, C=…` with the characters RFC 4514 makes special escaped. */
function distinguishedName(o: IssueOptions): string {
  const esc = (v: string) => v.replace(/([,+"\\<>;=])/g, '\\$1');
  return [
    o.country ? `C=${esc(o.country)}` : null,
    o.organization ? `O=${esc(o.organization)}` : null,
    `CN=${esc(o.commonName)}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Eight random bytes, the top bit clear: a positive INTEGER whose encoding keeps all eight bytes. */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(8));
  bytes[0] = (bytes[0]! & 0x7f) | 0x10;
  return Buffer.from(bytes).toString('hex');
}

export async function issue(o: IssueOptions): Promise<Issued> {
  const hash = o.hash ?? 'SHA-256';
  const keyAlg = algorithm(o.key ?? 'ec-p256', hash);
  const keys = (await webcrypto.subtle.generateKey(keyAlg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const name = distinguishedName(o);
  const signer = o.issuer;
  // The issuer's key type decides the signature algorithm; the hash is this certificate's choice.
  const withHash = (a: Algorithm): Algorithm => (a.name === 'Ed25519' ? a : ({ ...a, hash } as Algorithm));
  const signing = withHash(signer ? signer.signing : keyAlg);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(o.ca ?? false, undefined, true),
    new x509.KeyUsagesExtension(
      o.ca
        ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
        : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
      true,
    ),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  if (signer) {
    extensions.push(await x509.AuthorityKeyIdentifierExtension.create(new x509.X509Certificate(signer.der)));
  }
  const sans = [
    ...(o.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(o.ips ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  if (sans.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(sans));
  if (!o.ca) extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]));

  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: o.serialNumber ?? randomSerial(),
    subject: name,
    issuer: signer?.name ?? name,
    notBefore: o.notBefore ?? new Date(now - DAY),
    notAfter: o.notAfter ?? new Date(now + 90 * DAY),
    signingAlgorithm: signing,
    publicKey: keys.publicKey,
    signingKey: signer?.keys.privateKey ?? keys.privateKey,
    extensions,
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const der = Buffer.from(cert.rawData);
  return {
    // A final newline, so PEM blocks can be concatenated into a chain.
    cert: `${cert.toString('pem').trim()}\n`,
    key: `${x509.PemConverter.encode(pkcs8, 'PRIVATE KEY').trim()}\n`,
    x509: new X509Certificate(der),
    der,
    keys,
    name,
    signing,
  };
}

/** The name the test certificates are made for; tests resolve it to 127.0.0.1 with their own DNS server. */
export const TEST_HOST = 'ssl.test';

export const daysFromNow = (days: number): Date => new Date(Date.now() + days * DAY);

export interface TestPki {
  readonly root: Issued;
  readonly intermediate: Issued;
  /** ssl.test and 127.0.0.1, issued by the intermediate, valid for 30 more days. */
  readonly leaf: Issued;
  readonly expired: Issued;
  readonly wrongHost: Issued;
  readonly selfSigned: Issued;
  /** A root nobody trusts, and a leaf for ssl.test under it. */
  readonly untrustedLeaf: Issued;
  readonly untrustedRoot: Issued;
}

/** The certificates most tests need; the root is the trust anchor the tests hand to the checker. */
export async function testPki(): Promise<TestPki> {
  const local = { dns: [TEST_HOST], ips: ['127.0.0.1'] };
  const root = await issue({
    commonName: 'Toolgate Test Root',
    organization: 'Toolgate Tests',
    country: 'DE',
    ca: true,
    notBefore: daysFromNow(-30),
    notAfter: daysFromNow(3650),
  });
  const intermediate = await issue({
    commonName: 'Toolgate Test Issuing CA',
    organization: 'Toolgate Tests',
    country: 'DE',
    ca: true,
    issuer: root,
    notBefore: daysFromNow(-30),
    notAfter: daysFromNow(1825),
  });
  const untrustedRoot = await issue({ commonName: 'Nobody Trusts Me', ca: true, key: 'ec-p384' });
  const [leaf, expired, wrongHost, selfSigned, untrustedLeaf] = await Promise.all([
    issue({
      commonName: TEST_HOST,
      organization: 'Toolgate Tests',
      issuer: intermediate,
      ...local,
      notAfter: daysFromNow(30.5),
    }),
    issue({
      commonName: TEST_HOST,
      issuer: intermediate,
      ...local,
      notBefore: daysFromNow(-60),
      notAfter: daysFromNow(-2.5),
    }),
    issue({ commonName: 'other.example', issuer: intermediate, dns: ['other.example', '*.other.example'] }),
    issue({ commonName: TEST_HOST, ...local }),
    issue({ commonName: TEST_HOST, issuer: untrustedRoot, ...local }),
  ]);
  return { root, intermediate, leaf, expired, wrongHost, selfSigned, untrustedLeaf, untrustedRoot };
}
