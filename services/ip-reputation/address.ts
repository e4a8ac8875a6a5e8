import { classifyAddress, parseIpv6 } from '../../core/outbound/address-policy.js';

export const NOT_AN_ADDRESS = 'must be a valid IPv4 or IPv6 address';
export const NOT_PUBLIC = 'must be a public IP address';

const DOTTED_QUAD = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export type IpInput =
  | { readonly kind: 'public'; readonly ip: string; readonly family: 4 | 6 }
  | { readonly kind: 'special' }
  | { readonly kind: 'invalid' };

/**
 * A caller's address: a strict dotted quad or RFC 4291 IPv6 text (no zone, no brackets). Legacy IPv4 spellings
 * such as `127.1` are refused as malformed rather than guessed at: a reputation answer must be about the address
 * the caller meant. IPv4-mapped IPv6 is judged, and answered, as its IPv4 address.
 */
export function parseIpInput(text: string): IpInput {
  const s = text.trim();
  let literal: string;
  if (DOTTED_QUAD.test(s)) literal = s;
  else if (s.includes(':') && parseIpv6(s) && !s.includes('%')) literal = s;
  else return { kind: 'invalid' };
  const c = classifyAddress(literal);
  if (!c.public) return { kind: 'special' };
  if (c.range?.embeds === 'mapped') return { kind: 'public', ip: c.embedded[0]!.address, family: 4 };
  return { kind: 'public', ip: c.address, family: c.family };
}
