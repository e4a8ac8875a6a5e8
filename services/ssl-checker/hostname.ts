import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { parseLegacyIpv4 } from '../../core/outbound/address-policy.js';

/** A host to check, as the TLS handshake and the certificate match use it. */
export interface CheckTarget {
  /** Lower-case ASCII (IDNA) name without a final dot, or the IP address (IPv6 without brackets). */
  readonly host: string;
  readonly kind: 'dns' | 'ip';
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A domain name (Unicode names are converted to their ASCII form) or an IP address; `[v6]` brackets and one
 * final dot are accepted. Nothing else: no scheme, path, port, user info or wildcard. Odd spellings of IPv4
 * addresses (`127.1`, `0x7f.1`, `2130706433`) are read as the address they spell, as a resolver would, so the
 * outbound guard judges that address (and refuses it with SSRF_BLOCKED when it is not public).
 */
export function parseHostname(input: string): CheckTarget | null {
  const raw = input.trim();
  if (raw === '' || raw.length > 255) return null;
  const unbracketed = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  if (isIP(unbracketed) !== 0) return { host: unbracketed.toLowerCase(), kind: 'ip' };
  if (unbracketed !== raw) return null;
  const legacy = parseLegacyIpv4(raw.endsWith('.') ? raw.slice(0, -1) : raw);
  if (legacy) return { host: legacy, kind: 'ip' };
  const name = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  // Full-width digits and ideographic dots normalise to an address too (`１２７。０。０。１`).
  const normalised = domainToASCII(name.toLowerCase());
  const spelledAddress = normalised === '' ? null : parseLegacyIpv4(normalised);
  if (spelledAddress) return { host: spelledAddress, kind: 'ip' };
  if (/[^\p{L}\p{M}\p{N}.-]/u.test(name)) return null;
  // WHATWG host parsing reads `0x7f.1` or `127.1` as an IPv4 address: such a spelling is not a name.
  const ascii = domainToASCII(name.toLowerCase());
  if (ascii === '' || ascii.length > 253 || isIP(ascii) !== 0) return null;
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) return null;
  if (/^\d+$/.test(labels[labels.length - 1]!)) return null;
  return { host: ascii, kind: 'dns' };
}

export const HOSTNAME_CONSTRAINT = 'must be a valid domain name';
