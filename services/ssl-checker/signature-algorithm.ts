/**
 * The certificate's signature algorithm, read from its DER encoding: node's X509Certificate does not expose it.
 * Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, signatureAlgorithm AlgorithmIdentifier, signature BIT STRING }
 */

export type SignatureHash = 'MD2' | 'MD5' | 'SHA-1' | 'SHA-224' | 'SHA-256' | 'SHA-384' | 'SHA-512' | null;

export interface SignatureAlgorithm {
  /** OpenSSL's name (`sha256WithRSAEncryption`, `ecdsa-with-SHA256`, `ED25519`), or the dotted OID. */
  readonly name: string;
  readonly oid: string;
  /** The digest signed, null when the algorithm has none of its own (Ed25519, Ed448) or it is unknown. */
  readonly hash: SignatureHash;
}

const KNOWN: Record<string, [name: string, hash: SignatureHash]> = {
  '1.2.840.113549.1.1.2': ['md2WithRSAEncryption', 'MD2'],
  '1.2.840.113549.1.1.4': ['md5WithRSAEncryption', 'MD5'],
  '1.2.840.113549.1.1.5': ['sha1WithRSAEncryption', 'SHA-1'],
  '1.2.840.113549.1.1.11': ['sha256WithRSAEncryption', 'SHA-256'],
  '1.2.840.113549.1.1.12': ['sha384WithRSAEncryption', 'SHA-384'],
  '1.2.840.113549.1.1.13': ['sha512WithRSAEncryption', 'SHA-512'],
  '1.2.840.113549.1.1.14': ['sha224WithRSAEncryption', 'SHA-224'],
  '1.2.840.10045.4.1': ['ecdsa-with-SHA1', 'SHA-1'],
  '1.2.840.10045.4.3.1': ['ecdsa-with-SHA224', 'SHA-224'],
  '1.2.840.10045.4.3.2': ['ecdsa-with-SHA256', 'SHA-256'],
  '1.2.840.10045.4.3.3': ['ecdsa-with-SHA384', 'SHA-384'],
  '1.2.840.10045.4.3.4': ['ecdsa-with-SHA512', 'SHA-512'],
  '1.2.840.10040.4.3': ['dsa-with-SHA1', 'SHA-1'],
  '2.16.840.1.101.3.4.3.1': ['dsa_with_SHA224', 'SHA-224'],
  '2.16.840.1.101.3.4.3.2': ['dsa_with_SHA256', 'SHA-256'],
  '1.3.101.112': ['ED25519', null],
  '1.3.101.113': ['ED448', null],
};

const RSASSA_PSS = '1.2.840.113549.1.1.10';

const DIGESTS: Record<string, SignatureHash> = {
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
  '2.16.840.1.101.3.4.2.4': 'SHA-224',
};

interface Tlv {
  readonly tag: number;
  /** First content byte. */
  readonly start: number;
  /** One past the last content byte. */
  readonly end: number;
}

function readTlv(der: Uint8Array, offset: number, limit: number): Tlv {
  if (offset + 2 > limit) throw new Error('truncated DER');
  const tag = der[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('multi-byte DER tags are not used in certificates');
  let length = der[offset + 1]!;
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > limit) throw new Error('bad DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  const end = start + length;
  if (end > limit) throw new Error('DER value runs past its container');
  return { tag, start, end };
}

function decodeOid(der: Uint8Array, tlv: Tlv): string {
  if (tlv.tag !== 0x06 || tlv.end === tlv.start) throw new Error('expected an OBJECT IDENTIFIER');
  const arcs: number[] = [];
  let value = 0;
  for (let i = tlv.start; i < tlv.end; i++) {
    const byte = der[i]!;
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      if (arcs.length === 0)
        arcs.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else arcs.push(value);
      value = 0;
    }
  }
  return arcs.join('.');
}

/** RSASSA-PSS-params ::= SEQUENCE { hashAlgorithm [0] AlgorithmIdentifier DEFAULT sha1, … } */
function pssHash(der: Uint8Array, params: Tlv | null): SignatureHash {
  if (params?.tag !== 0x30 || params.start === params.end) return 'SHA-1';
  const first = readTlv(der, params.start, params.end);
  if (first.tag !== 0xa0) return 'SHA-1';
  const algorithm = readTlv(der, first.start, first.end);
  const oid = decodeOid(der, readTlv(der, algorithm.start, algorithm.end));
  return DIGESTS[oid] ?? null;
}

/** Throws on DER that is not a certificate; the checker only passes certificates a TLS stack already parsed. */
export function signatureAlgorithm(der: Uint8Array): SignatureAlgorithm {
  const certificate = readTlv(der, 0, der.length);
  if (certificate.tag !== 0x30) throw new Error('expected a certificate SEQUENCE');
  const tbs = readTlv(der, certificate.start, certificate.end);
  const identifier = readTlv(der, tbs.end, certificate.end);
  if (identifier.tag !== 0x30) throw new Error('expected an AlgorithmIdentifier');
  const oidTlv = readTlv(der, identifier.start, identifier.end);
  const oid = decodeOid(der, oidTlv);
  if (oid === RSASSA_PSS) {
    const params = oidTlv.end < identifier.end ? readTlv(der, oidTlv.end, identifier.end) : null;
    return { name: 'RSASSA-PSS', oid, hash: pssHash(der, params) };
  }
  const known = KNOWN[oid];
  return known ? { name: known[0], oid, hash: known[1] } : { name: oid, oid, hash: null };
}
