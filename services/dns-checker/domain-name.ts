import { domainToASCII } from 'node:url';

/** RFC 1035 2.3.4: 255 octets on the wire, which is 253 characters written without the final dot. */
export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

/**
 * Characters that make domainToASCII read the input as something other than a name: percent-escapes are decoded
 * (`a%41.com` → `aa.com`), `/ ? #` cut the input (`a/b.com` → `a`), `@ : [ ]` belong to URLs and IPv6 literals.
 * White space and controls are never part of a name.
 */
const NOT_IN_A_NAME = /[\s\p{Cc}%/\\?#@:[\]]/u;

/** LDH labels plus the underscore, which SRV (`_sip._tcp`) and policy names (`_dmarc`) need (RFC 2782, 8552). */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/**
 * The name to query for user input, or null when the input is not a domain name: lower-case, A-labels for
 * internationalized labels (UTS #46 via domainToASCII), no final dot. Refused: IP literals and the odd
 * encodings domainToASCII turns into one (`0x7f.1`, `127.1`), since a name whose last label is all digits is
 * an address (RFC 1123 2.1, RFC 3696 2); empty labels; labels over 63 octets or starting or ending with a
 * hyphen; names over 253 characters; invalid punycode (`xn--abc`).
 */
export function toQueryName(input: string): string | null {
  if (input.length === 0 || input.length > 4 * MAX_NAME_LENGTH || NOT_IN_A_NAME.test(input)) return null;
  const ascii = domainToASCII(input);
  if (ascii === '') return null;
  const name = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return null;
  const labels = name.split('.');
  if (labels.some((label) => label.length > MAX_LABEL_LENGTH || !LABEL.test(label))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null;
  return name;
}
