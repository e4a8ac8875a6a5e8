import { type AddressClass, classifyAddress, parseIpv6 } from '../../core/outbound/address-policy.js';
import { reasonFor } from './reasons.js';

/** SPEC.md 7.3's constraint for anything that is not an IP address. */
export const INVALID_IP = 'must be a valid IPv4 or IPv6 address';

/**
 * What an `ip` input is: an address to look up, a special-purpose one answered as such, or not an address.
 */
export type IpTarget =
  | {
      readonly kind: 'public';
      readonly family: 4;
      /** Dotted quad handed to the database reader. */
      readonly address: string;
      /** The address as an unsigned 32-bit number. */
      readonly value: number;
    }
  | {
      readonly kind: 'public';
      readonly family: 6;
      /** Eight full hex groups handed to the database reader. */
      readonly address: string;
      /** The address as four unsigned 32-bit words, most significant first. */
      readonly words: readonly [number, number, number, number];
    }
  | { readonly kind: 'reserved'; readonly reason: string }
  | { readonly kind: 'invalid' };

/** Decimal octets without leading zeros: `010.0.0.1` would be octal to inet_aton and decimal to others. */
const DOTTED_QUAD = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** `ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255`: no valid address is longer. */
const MAX_LENGTH = 45;

/**
 * Reads `text` strictly: a dotted quad, or RFC 4291 IPv6 text (any case and compression, an optional
 * dotted-quad tail). Legacy IPv4 spellings (`127.1`, `0x7f.0.0.1`, `2130706433`), brackets, zone ids, prefix
 * lengths and surrounding white space are not addresses here: a geolocation caller sends what a log line or a
 * socket shows.
 */
export function parseIpInput(text: string): IpTarget {
  if (text.length === 0 || text.length > MAX_LENGTH) return { kind: 'invalid' };
  if (DOTTED_QUAD.test(text)) return judge(classifyAddress(text));
  if (!text.includes(':') || text.includes('%') || parseIpv6(text) === null) return { kind: 'invalid' };
  return judge(classifyAddress(text));
}

/**
 * Special-purpose ranges are answered as reserved, with the range's reason. IPv6 that carries an IPv4 address
 * is located by that address: IPv4-mapped and NAT64 (the IPv4 host itself), 6to4 (the site's IPv4 router),
 * and Teredo (the client's public NAT address, not the relay server's); it is reserved when that IPv4 address
 * is.
 */
function judge(c: AddressClass): IpTarget {
  if (c.range?.embeds) {
    const inner = c.range.embeds === 'teredo' ? c.embedded[1]! : c.embedded[0]!;
    return judge(inner);
  }
  if (c.range) return { kind: 'reserved', reason: reasonFor(c.range) };
  if (c.family === 4) {
    const value = c.address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
    return { kind: 'public', family: 4, address: c.address, value };
  }
  const parts = parseIpv6(c.address)!.parts;
  const word = (i: number) => ((parts[i]! << 16) | parts[i + 1]!) >>> 0;
  return {
    kind: 'public',
    family: 6,
    address: parts.map((p) => p.toString(16)).join(':'),
    words: [word(0), word(2), word(4), word(6)],
  };
}
