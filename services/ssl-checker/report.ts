import { X509Certificate } from 'node:crypto';
import {
  describeCertificate,
  type IssuerName,
  issuerLabel,
  type PublicKeyInfo,
  type SubjectName,
} from './certificate.js';
import { analyzeChain, type ChainProblem, type TrustStore } from './chain.js';
import { type Grade, gradeOf } from './grading.js';
import type { CheckTarget } from './hostname.js';
import type { SignatureHash } from './signature-algorithm.js';
import { fromNodeProtocol, TLS_VERSIONS, type TlsVersion } from './tls-versions.js';

const DAY_MS = 86_400_000;

/** What one TLS handshake showed (and, when probed, which versions further handshakes were accepted with). */
export interface Observation {
  /** DER certificates as the server's chain was walked: leaf first. */
  readonly chain: readonly Uint8Array[];
  /** `socket.getProtocol()`. */
  readonly protocol: string | null;
  /** `socket.getCipher()`: the IANA `standardName` is preferred over OpenSSL's `name`. */
  readonly cipher: { readonly name: string; readonly standardName?: string } | null;
  /** Versions accepted; absent when not probed (convention D and S need no grade). */
  readonly protocols?: readonly TlsVersion[];
}

/** Everything the checker learned about one endpoint; the conventions' shapes are cut from it. */
export interface SslReport {
  /** As the caller wrote it. */
  readonly hostname: string;
  readonly port: number;
  readonly valid: boolean;
  readonly selfSigned: boolean;
  readonly issuer: IssuerName;
  /** Conventions S and R: one string for the issuer. */
  readonly issuerName: string;
  readonly subject: SubjectName;
  readonly serialNumber: string;
  readonly signatureAlgorithm: string;
  readonly signatureHash: SignatureHash;
  readonly publicKey: PublicKeyInfo;
  readonly notBefore: string;
  readonly notAfter: string;
  readonly daysUntilExpiry: number;
  readonly subjectAlternativeNames: readonly string[];
  readonly protocol: string;
  readonly cipherSuite: string;
  readonly chainLength: number;
  readonly chainValid: boolean;
  readonly chainProblem: ChainProblem | null;
  readonly hostnameMatch: boolean;
  /** Null when not probed. */
  readonly protocols: readonly TlsVersion[] | null;
  readonly grade: Grade | null;
}

/**
 * Whole days from now to expiry, rounded down: 0 on the last day, negative once expired (-1 during the first day
 * after `notAfter`).
 */
export const daysUntil = (instant: Date, now: Date): number =>
  Math.floor((instant.getTime() - now.getTime()) / DAY_MS);

/** Browsers' rule: only the subjectAltName counts (no common-name fallback); no partial-label wildcards. */
export function hostnameMatches(leaf: X509Certificate, target: CheckTarget): boolean {
  if (target.kind === 'ip') return leaf.checkIP(target.host) !== undefined;
  return leaf.checkHost(target.host, { subject: 'never', partialWildcards: false }) !== undefined;
}

export function buildReport(
  request: { readonly hostname: string; readonly target: CheckTarget; readonly port: number },
  observation: Observation,
  trust: TrustStore,
  now: Date,
): SslReport {
  const presented = observation.chain.map((der) => new X509Certificate(Buffer.from(der)));
  const leaf = presented[0];
  if (!leaf) throw new Error('the observation carries no certificate');
  const details = describeCertificate(leaf);
  const chain = analyzeChain(presented, trust, now);
  const hostnameMatch = hostnameMatches(leaf, request.target);
  const current = details.notBefore <= now && now <= details.notAfter;
  const valid = chain.chainValid && hostnameMatch && current;
  const protocol = fromNodeProtocol(observation.protocol) ?? observation.protocol ?? 'unknown';
  const cipherSuite = observation.cipher?.standardName || observation.cipher?.name || 'unknown';
  let protocols: TlsVersion[] | null = null;
  if (observation.protocols) {
    // The main handshake is itself proof that its version is accepted.
    const accepted = new Set<string>([...observation.protocols, protocol]);
    protocols = TLS_VERSIONS.filter((v) => accepted.has(v));
  }
  const grade = protocols
    ? gradeOf({
        trusted: valid,
        protocols,
        cipherSuite,
        publicKey: details.publicKey,
        signatureHash: details.signature.hash,
      }).grade
    : null;
  return {
    hostname: request.hostname,
    port: request.port,
    valid,
    selfSigned: chain.selfSigned,
    issuer: details.issuer,
    issuerName: issuerLabel(leaf, details.issuer),
    subject: details.subject,
    serialNumber: details.serialNumber,
    signatureAlgorithm: details.signature.name,
    signatureHash: details.signature.hash,
    publicKey: details.publicKey,
    notBefore: details.notBefore.toISOString(),
    notAfter: details.notAfter.toISOString(),
    daysUntilExpiry: daysUntil(details.notAfter, now),
    subjectAlternativeNames: details.subjectAlternativeNames,
    protocol,
    cipherSuite,
    chainLength: chain.path.length,
    chainValid: chain.chainValid,
    chainProblem: chain.problem,
    hostnameMatch,
    protocols,
    grade,
  };
}
