import { domainToASCII } from 'node:url';
import { endsInNumber, type IpLiteral, parseIpLiteral } from './address-policy.js';

/** What a host string names: an IP literal (connected to as is) or a DNS name (resolved, then vetted). */
export type HostTarget =
  | { readonly kind: 'ip'; readonly literal: IpLiteral }
  | { readonly kind: 'name'; readonly name: string };

/** WHATWG forbidden host code points (and a lone `%`): domainToASCII would cut at them (`a.com/x` → `a.com`). */
const FORBIDDEN = new Set('#%/:<>?@[\\]^|');
const hasForbiddenCodePoint = (text: string): boolean =>
  [...text].some((ch) => ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) === 0x7f || FORBIDDEN.has(ch));

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * Parses a host the way a URL's host is parsed (WHATWG): IP literals in every spelling, then IDNA and
 * percent-decoding (so `１２７.０.０.１` and `%31%32%37.0.0.1` are IPv4 too), then DNS name syntax. Returns null
 * for a host that is neither, e.g. `1.2.3.4.5`, `a b`, or an over-long label.
 */
export function parseHost(input: string): HostTarget | null {
  if (input === '' || input.length > 1024) return null;
  const direct = parseIpLiteral(input);
  if (direct) return { kind: 'ip', literal: direct };
  if (hasForbiddenCodePoint(input.replace(/%[0-9a-f]{2}/gi, ''))) return null;
  const ascii = domainToASCII(input);
  if (ascii === '') return null;
  const decoded = parseIpLiteral(ascii);
  if (decoded) return { kind: 'ip', literal: decoded };
  if (endsInNumber(ascii)) return null;
  const name = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
  if (name.length === 0 || name.length > 253) return null;
  return name.split('.').every((label) => LABEL.test(label)) ? { kind: 'name', name } : null;
}

/**
 * RFC 6761 section 6.3: `localhost` and every name under it are loopback by definition, whatever a resolver says,
 * so they are refused without asking DNS.
 */
export const isLocalhostName = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost');
