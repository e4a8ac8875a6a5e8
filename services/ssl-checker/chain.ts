import { X509Certificate } from 'node:crypto';

/** Trust anchors: the system store plus any extra roots the operator (or a test) configured. */
export interface TrustStore {
  readonly anchors: readonly X509Certificate[];
  readonly fingerprints: ReadonlySet<string>;
  /** Anchors by subject name, so finding an issuer costs one lookup, not a pass over every root. */
  readonly bySubject: ReadonlyMap<string, readonly X509Certificate[]>;
}

/** Parses PEM roots; one PEM string may hold several certificates. Unparseable entries are skipped. */
export function createTrustStore(pems: Iterable<string>): TrustStore {
  const anchors: X509Certificate[] = [];
  const fingerprints = new Set<string>();
  const bySubject = new Map<string, X509Certificate[]>();
  for (const pem of pems) {
    for (const block of pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
      try {
        const cert = new X509Certificate(block);
        if (fingerprints.has(cert.fingerprint256)) continue;
        anchors.push(cert);
        fingerprints.add(cert.fingerprint256);
        bySubject.set(cert.subject, [...(bySubject.get(cert.subject) ?? []), cert]);
      } catch {
        // A malformed root in a store must not stop every check; it simply anchors nothing.
      }
    }
  }
  return { anchors, fingerprints, bySubject };
}

export type ChainProblem =
  | 'SELF_SIGNED'
  | 'UNKNOWN_ISSUER'
  | 'INTERMEDIATE_NOT_CA'
  | 'INTERMEDIATE_EXPIRED'
  | 'INTERMEDIATE_NOT_YET_VALID'
  | 'TOO_LONG';

export interface ChainAnalysis {
  /** Leaf first, each certificate followed by its issuer; ends at the trust anchor when one was reached. */
  readonly path: readonly X509Certificate[];
  /** Every link verifies, the path ends at a trust anchor, and every certificate above the leaf is a valid CA. */
  readonly chainValid: boolean;
  /** The leaf names itself as issuer and its signature verifies with its own key. */
  readonly selfSigned: boolean;
  readonly problem: ChainProblem | null;
}

const MAX_PATH = 10;

/** `issuer` signed `cert`: the names agree and the signature verifies with its key. */
function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  if (cert.issuer !== issuer.subject) return false;
  try {
    return cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

export function isSelfSigned(cert: X509Certificate): boolean {
  return signedBy(cert, cert);
}

/**
 * Builds the certification path from the leaf using the certificates the server presented and the trust
 * anchors, preferring an anchor at every step (so a cross-signed intermediate that is also a trusted root ends
 * the path there, as browsers do). The leaf's own validity dates are not judged here: an expired leaf under a
 * trusted chain has a valid chain and an invalid certificate.
 */
export function analyzeChain(
  presented: readonly X509Certificate[],
  trust: TrustStore,
  now: Date,
): ChainAnalysis {
  const leaf = presented[0];
  if (!leaf) throw new Error('no certificate presented');
  const selfSigned = isSelfSigned(leaf);
  const path: X509Certificate[] = [leaf];
  const used = new Set([leaf.fingerprint256]);
  let trusted = false;
  let problem: ChainProblem | null = null;
  for (;;) {
    const current = path[path.length - 1]!;
    if (trust.fingerprints.has(current.fingerprint256)) {
      trusted = true;
      break;
    }
    const anchor = trust.bySubject.get(current.issuer)?.find((a) => signedBy(current, a));
    if (anchor) {
      path.push(anchor);
      trusted = true;
      break;
    }
    if (isSelfSigned(current)) {
      problem = 'SELF_SIGNED';
      break;
    }
    const next = presented.find((c) => !used.has(c.fingerprint256) && signedBy(current, c));
    if (!next) {
      problem = 'UNKNOWN_ISSUER';
      break;
    }
    if (path.length >= MAX_PATH) {
      problem = 'TOO_LONG';
      break;
    }
    path.push(next);
    used.add(next.fingerprint256);
  }
  if (trusted) problem = upperProblem(path, trust, now);
  return { path, chainValid: trusted && problem === null, selfSigned, problem };
}

/** Intermediates must be CAs; every certificate above the leaf must be within its validity period. */
function upperProblem(path: readonly X509Certificate[], trust: TrustStore, now: Date): ChainProblem | null {
  const t = now.getTime();
  for (const cert of path.slice(1)) {
    // Old roots may predate basicConstraints; being in the store is what makes an anchor a CA.
    if (!trust.fingerprints.has(cert.fingerprint256) && !cert.ca) return 'INTERMEDIATE_NOT_CA';
    if (new Date(cert.validTo).getTime() < t) return 'INTERMEDIATE_EXPIRED';
    if (new Date(cert.validFrom).getTime() > t) return 'INTERMEDIATE_NOT_YET_VALID';
  }
  return null;
}
