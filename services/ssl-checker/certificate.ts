import type { X509Certificate } from 'node:crypto';
import { type SignatureAlgorithm, signatureAlgorithm } from './signature-algorithm.js';

export interface SubjectName {
  readonly commonName: string | null;
  readonly organization: string | null;
}

export interface IssuerName extends SubjectName {
  readonly country: string | null;
}

export interface PublicKeyInfo {
  /** `rsa`, `rsa-pss`, `ec`, `ed25519`, `ed448`, `dsa`. */
  readonly type: string;
  /** Modulus length (RSA, DSA) or curve size (EC); null when not applicable. */
  readonly bits: number | null;
}

export interface CertificateDetails {
  readonly subject: SubjectName;
  readonly issuer: IssuerName;
  /** Upper-case hexadecimal, as the certificate carries it. */
  readonly serialNumber: string;
  readonly signature: SignatureAlgorithm;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** DNS names and IP addresses, in certificate order; other name types are left out. */
  readonly subjectAlternativeNames: readonly string[];
  readonly publicKey: PublicKeyInfo;
}

type LegacyName = Readonly<Record<string, string | string[] | undefined>>;

/** The first value of an attribute; a name may repeat an attribute (two OUs), the first is the usual one. */
const attribute = (name: LegacyName | undefined, key: string): string | null => {
  const value = name?.[key];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? null : first;
};

/** Node prints validity as `Jan  1 00:00:00 2026 GMT`; Date parses that form. */
export function certificateDate(text: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new Error('unreadable certificate date');
  return date;
}

/** `DNS:a.example, DNS:"b\u002c.example", IP Address:0:0:0:0:0:0:0:1`: quoted values are JSON strings. */
export function parseSubjectAltName(text: string | undefined): string[] {
  if (!text) return [];
  const names: string[] = [];
  let i = 0;
  while (i < text.length) {
    const colon = text.indexOf(':', i);
    if (colon < 0) break;
    const type = text.slice(i, colon);
    let value: string;
    let next: number;
    if (text[colon + 1] === '"') {
      let end = colon + 2;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      value = JSON.parse(text.slice(colon + 1, end + 1)) as string;
      next = text.indexOf(', ', end + 1);
    } else {
      next = text.indexOf(', ', colon + 1);
      value = text.slice(colon + 1, next < 0 ? text.length : next);
    }
    if (type === 'DNS') names.push(value.toLowerCase());
    else if (type === 'IP Address') names.push(canonicalIp(value));
    i = next < 0 ? text.length : next + 2;
  }
  return names;
}

/** Node prints IPv6 SANs uncompressed (`0:0:0:0:0:0:0:1`); the URL parser gives the canonical `::1`. */
function canonicalIp(value: string): string {
  if (!value.includes(':')) return value;
  try {
    return new URL(`http://[${value}]/`).hostname.slice(1, -1);
  } catch {
    return value.toLowerCase();
  }
}

function publicKeyInfo(cert: X509Certificate): PublicKeyInfo {
  const key = cert.publicKey;
  const type = key.asymmetricKeyType ?? 'unknown';
  const details = key.asymmetricKeyDetails ?? {};
  if (details.modulusLength) return { type, bits: details.modulusLength };
  const curveBits: Record<string, number> = {
    prime256v1: 256,
    secp384r1: 384,
    secp521r1: 521,
    secp224r1: 224,
    secp192r1: 192,
    prime192v1: 192,
    secp256k1: 256,
  };
  if (details.namedCurve) return { type, bits: curveBits[details.namedCurve] ?? null };
  return { type, bits: type === 'ed25519' ? 256 : type === 'ed448' ? 456 : null };
}

export function describeCertificate(cert: X509Certificate): CertificateDetails {
  const legacy = cert.toLegacyObject() as unknown as { subject?: LegacyName; issuer?: LegacyName };
  return {
    subject: {
      commonName: attribute(legacy.subject, 'CN'),
      organization: attribute(legacy.subject, 'O'),
    },
    issuer: {
      commonName: attribute(legacy.issuer, 'CN'),
      organization: attribute(legacy.issuer, 'O'),
      country: attribute(legacy.issuer, 'C'),
    },
    serialNumber: cert.serialNumber.toUpperCase(),
    signature: signatureAlgorithm(cert.raw),
    notBefore: certificateDate(cert.validFrom),
    notAfter: certificateDate(cert.validTo),
    subjectAlternativeNames: parseSubjectAltName(cert.subjectAltName),
    publicKey: publicKeyInfo(cert),
  };
}

/** The one-string issuer of conventions S and R: the organization, else the common name, else the full name. */
export function issuerLabel(cert: X509Certificate, issuer: IssuerName): string {
  return issuer.organization ?? issuer.commonName ?? cert.issuer.replaceAll('\n', ', ');
}
