import type { IssuerName, SubjectName } from './certificate.js';
import type { Grade } from './grading.js';
import type { SslReport } from './report.js';
import type { TlsVersion } from './tls-versions.js';

/** Convention D (SPEC.md 4.3, "SSL result fields"); the gateway adds `processingTimeMs`. */
export interface DResult {
  readonly hostname: string;
  readonly port: number;
  readonly valid: boolean;
  readonly selfSigned: boolean;
  readonly issuer: IssuerName;
  readonly subject: SubjectName;
  readonly serialNumber: string;
  readonly signatureAlgorithm: string;
  readonly notBefore: string;
  readonly notAfter: string;
  readonly daysUntilExpiry: number;
  readonly subjectAlternativeNames: readonly string[];
  readonly protocol: string;
  readonly cipherSuite: string;
  readonly chainLength: number;
  readonly chainValid: boolean;
}

/** Convention R's fields (SPEC.md 4.4), less `issuer`, whose type depends on the convention. */
interface RFields {
  readonly grade: Grade;
  readonly validFrom: string;
  readonly validUntil: string;
  readonly daysRemaining: number;
  readonly chainValid: boolean;
  readonly hostnameMatch: boolean;
  readonly protocols: readonly TlsVersion[];
}

/** Convention R, one item of the batch: the input (`hostname`, `port`) and the R result. */
export interface RResult extends RFields {
  readonly hostname: string;
  readonly port: number;
  readonly issuer: string;
}

/** `POST /api/v1/ssl/check`: the union of D and R (DESIGN.md section 7); `issuer` is D's unless R is asked for. */
export type UnionResult = Omit<DResult, 'issuer'> & RFields & { readonly issuer: IssuerName | string };

/** Convention S `data`. */
export interface SResult {
  readonly domain: string;
  readonly valid: boolean;
  readonly issuer: string | null;
  readonly expiresAt: string | null;
  readonly daysRemaining: number | null;
  readonly error?: 'CONNECTION_FAILED';
  readonly message?: string;
}

/** No TLS connection could be made (SPEC.md 4.3): the same shape in D, R and the batches. */
export interface ConnectionFailed {
  readonly hostname: string;
  readonly port: number;
  readonly valid: false;
  readonly error: 'CONNECTION_FAILED';
  readonly message: string;
}

export function dResult(r: SslReport): DResult {
  return {
    hostname: r.hostname,
    port: r.port,
    valid: r.valid,
    selfSigned: r.selfSigned,
    issuer: r.issuer,
    subject: r.subject,
    serialNumber: r.serialNumber,
    signatureAlgorithm: r.signatureAlgorithm,
    notBefore: r.notBefore,
    notAfter: r.notAfter,
    daysUntilExpiry: r.daysUntilExpiry,
    subjectAlternativeNames: r.subjectAlternativeNames,
    protocol: r.protocol,
    cipherSuite: r.cipherSuite,
    chainLength: r.chainLength,
    chainValid: r.chainValid,
  };
}

function rFields(r: SslReport): RFields {
  if (r.grade === null || r.protocols === null) throw new Error('an R result needs the probed protocols');
  return {
    grade: r.grade,
    validFrom: r.notBefore,
    validUntil: r.notAfter,
    daysRemaining: r.daysUntilExpiry,
    chainValid: r.chainValid,
    hostnameMatch: r.hostnameMatch,
    protocols: r.protocols,
  };
}

export function rResult(r: SslReport): RResult {
  return { hostname: r.hostname, port: r.port, issuer: r.issuerName, ...rFields(r) };
}

export function unionResult(r: SslReport, issuer: 'D' | 'R'): UnionResult {
  return { ...dResult(r), ...rFields(r), issuer: issuer === 'R' ? r.issuerName : r.issuer };
}

export function sResult(r: SslReport): SResult {
  return {
    domain: r.hostname,
    valid: r.valid,
    issuer: r.issuerName,
    expiresAt: r.notAfter,
    daysRemaining: r.daysUntilExpiry,
  };
}

export function connectionFailed(hostname: string, port: number, message: string): ConnectionFailed {
  return { hostname, port, valid: false, error: 'CONNECTION_FAILED', message };
}

export function sConnectionFailed(domain: string, message: string): SResult {
  return {
    domain,
    valid: false,
    issuer: null,
    expiresAt: null,
    daysRemaining: null,
    error: 'CONNECTION_FAILED',
    message,
  };
}
