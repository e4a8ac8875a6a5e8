import { domainToASCII } from 'node:url';

/** An address split for the layers: the domain is what every list, override and DNS lookup is keyed by. */
export interface EmailAddress {
  /** As given. */
  readonly input: string;
  readonly localPart: string;
  /** Lower case, internationalized labels in punycode (`bücher.de` → `xn--bcher-kva.de`). */
  readonly domain: string;
}

const MAX_ADDRESS = 254;
const MAX_LOCAL_OCTETS = 64;
const MAX_DOMAIN = 253;
// RFC 5322 atext, plus any non-ASCII character but white space and controls (RFC 6531 addresses).
const ATOM = /^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\p{ASCII}\p{Z}\p{C}])+$/u;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A host name that mail can be addressed to: two labels at least, letters/digits/hyphens, a top-level label that
 * is not numeric (so `127.0.0.1` is not a domain). `trailingDot` accepts `example.com.` (path parameters,
 * overrides); an e-mail address never ends in a dot. Returns the normalized form, or null.
 */
export function normalizeDomain(text: string, options: { trailingDot?: boolean } = {}): string | null {
  let name = text;
  if (options.trailingDot && name.endsWith('.')) name = name.slice(0, -1);
  if (name === '' || name.length > MAX_DOMAIN * 4) return null;
  // domainToASCII also maps full-width dots and letters (UTS #46), but lets through what DNS would refuse.
  const ascii = /^[\x21-\x7e]*$/.test(name) ? name.toLowerCase() : domainToASCII(name);
  if (ascii === '' || ascii.length > MAX_DOMAIN) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  return TLD.test(labels[labels.length - 1]!) ? ascii : null;
}

/**
 * Dot-atom addresses (`local@domain`) as mail systems accept them. Quoted local parts (`"a b"@x.com`) and
 * address literals (`a@[192.0.2.1]`) are refused: no disposable-mail service hands them out, and a literal has
 * no domain to judge.
 */
export function parseEmail(input: string): EmailAddress | null {
  if (input.length === 0 || input.length > MAX_ADDRESS) return null;
  const at = input.lastIndexOf('@');
  if (at <= 0 || at === input.length - 1) return null;
  const localPart = input.slice(0, at);
  if (Buffer.byteLength(localPart, 'utf8') > MAX_LOCAL_OCTETS) return null;
  if (!localPart.split('.').every((atom) => ATOM.test(atom))) return null;
  const domainPart = input.slice(at + 1);
  if (domainPart.endsWith('.')) return null;
  const domain = normalizeDomain(domainPart);
  return domain ? { input, localPart, domain } : null;
}

/** `a.b.example.com` → `b.example.com`, `example.com`: the parents that are still domains (two labels or more). */
export function parentDomains(domain: string): string[] {
  const out: string[] = [];
  let rest = domain;
  for (let dot = rest.indexOf('.'); dot !== -1; dot = rest.indexOf('.')) {
    rest = rest.slice(dot + 1);
    if (!rest.includes('.')) break;
    out.push(rest);
  }
  return out;
}
