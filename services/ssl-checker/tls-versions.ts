/** The protocol versions the checker reports, oldest first, with the names node's TLS options use for them. */
export const TLS_VERSIONS = ['TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export type TlsVersion = (typeof TLS_VERSIONS)[number];

export type NodeTlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export const toNodeVersion = (v: TlsVersion): NodeTlsVersion => (v === 'TLSv1.0' ? 'TLSv1' : v);

/** `socket.getProtocol()` → our name; null for anything else (SSLv3, DTLS, unknown). */
export function fromNodeProtocol(protocol: string | null | undefined): TlsVersion | null {
  if (protocol === 'TLSv1') return 'TLSv1.0';
  return (TLS_VERSIONS as readonly string[]).includes(protocol ?? '') ? (protocol as TlsVersion) : null;
}
