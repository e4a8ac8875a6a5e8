import type { PublicKeyInfo } from './certificate.js';
import type { SignatureHash } from './signature-algorithm.js';
import type { TlsVersion } from './tls-versions.js';

/** Best to worst; T stands apart: the certificate is not trusted for the name, whatever the configuration. */
export const GRADES = ['A+', 'A', 'B', 'C', 'F', 'T'] as const;
export type Grade = (typeof GRADES)[number];

export interface GradeInput {
  /** The certificate is trusted for this host: chain trusted, hostname matches, within its validity period. */
  readonly trusted: boolean;
  /** Versions the server accepted, each probed with its own handshake. */
  readonly protocols: readonly TlsVersion[];
  /** IANA name of the suite negotiated by the main handshake. */
  readonly cipherSuite: string | null;
  readonly publicKey: PublicKeyInfo;
  /** Digest of the leaf's signature. */
  readonly signatureHash: SignatureHash;
}

export interface GradeResult {
  readonly grade: Grade;
  /** Every rule that capped the grade, worst first; empty for A+. */
  readonly reasons: readonly string[];
}

type Cap = 'A' | 'B' | 'C' | 'F';

/** Suites that protect nothing worth the name: no encryption, export strength, no authentication, RC4, DES. */
const BROKEN_CIPHER = /_WITH_NULL_|_EXPORT|_anon_|_RC4_|_WITH_DES_|_DES40_|_MD5$/;
const AEAD = /_GCM_|_GCM$|CHACHA20_POLY1305|_CCM/;

/** TLS 1.3 suites (no `_WITH_`) always have forward secrecy; older ones need an ephemeral key exchange. */
export const forwardSecret = (suite: string): boolean =>
  !suite.includes('_WITH_') || /_(EC)?DHE_/.test(suite);

function keyCaps(key: PublicKeyInfo): [Cap, string][] {
  if (key.bits === null) return [];
  const rsaLike = key.type === 'rsa' || key.type === 'rsa-pss' || key.type === 'dsa';
  if (rsaLike && key.bits < 1024) return [['F', `${key.type.toUpperCase()} key of ${key.bits} bits`]];
  if (rsaLike && key.bits < 2048) return [['C', `${key.type.toUpperCase()} key of ${key.bits} bits`]];
  if (key.type === 'ec' && key.bits < 160) return [['F', `EC key of ${key.bits} bits`]];
  if (key.type === 'ec' && key.bits < 224) return [['C', `EC key of ${key.bits} bits`]];
  return [];
}

/**
 * Rules (README.md, "Grading"): T when the certificate is not trusted for the host; otherwise the worst cap
 * that applies (F, C, B), A+ when none applies and TLS 1.3 is accepted with an AEAD suite negotiated, else A.
 */
export function gradeOf(input: GradeInput): GradeResult {
  if (!input.trusted) return { grade: 'T', reasons: ['certificate not trusted for this host'] };
  const caps: [Cap, string][] = [];
  const accepts = (v: TlsVersion) => input.protocols.includes(v);
  const suite = input.cipherSuite;

  if (!accepts('TLSv1.2') && !accepts('TLSv1.3')) caps.push(['F', 'neither TLS 1.2 nor TLS 1.3 accepted']);
  if (suite && BROKEN_CIPHER.test(suite)) caps.push(['F', `broken cipher suite ${suite}`]);
  if (input.signatureHash === 'MD5' || input.signatureHash === 'MD2') {
    caps.push(['F', `certificate signed with ${input.signatureHash}`]);
  }
  caps.push(...keyCaps(input.publicKey));
  if (suite?.includes('3DES')) caps.push(['C', `64-bit block cipher suite ${suite}`]);
  if (input.signatureHash === 'SHA-1') caps.push(['C', 'certificate signed with SHA-1']);
  if (accepts('TLSv1.0')) caps.push(['B', 'TLS 1.0 accepted']);
  if (accepts('TLSv1.1')) caps.push(['B', 'TLS 1.1 accepted']);
  if (suite && !forwardSecret(suite)) caps.push(['B', `no forward secrecy with ${suite}`]);
  if (!accepts('TLSv1.3')) caps.push(['A', 'TLS 1.3 not accepted']);
  if (suite && !AEAD.test(suite)) caps.push(['A', `non-AEAD cipher suite ${suite}`]);

  const order: readonly Cap[] = ['F', 'C', 'B', 'A'];
  caps.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
  return { grade: caps[0]?.[0] ?? 'A+', reasons: caps.map(([, reason]) => reason) };
}
