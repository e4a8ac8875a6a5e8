import { at, CHAR, isAlnum, isAlpha, isSpace } from './chars.js';
import { type Detector, type Finding, RANK } from './types.js';

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

/** The dot-atom characters people actually use; `=`, `/` and `%` are left out: they separate fields in logs. */
const isLocal = (c: number): boolean =>
  isAlnum(c) || c === CHAR.DOT || c === CHAR.UNDERSCORE || c === CHAR.PLUS || c === CHAR.DASH;
const isDomain = (c: number): boolean => isAlnum(c) || c === CHAR.DOT || c === CHAR.DASH;

/**
 * Labels of 1–63 letters, digits and inner hyphens; at least two; a top-level label of two or more letters (or
 * an `xn--` one). So `Foo@1a2b3c` (a Java identity hash) and `pkg@1.2.3` (a version) are not addresses.
 */
function validDomain(text: string, start: number, end: number): boolean {
  let labels = 0;
  let labelStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && text.charCodeAt(i) !== CHAR.DOT) continue;
    const len = i - labelStart;
    if (len < 1 || len > 63) return false;
    if (text.charCodeAt(labelStart) === CHAR.DASH || text.charCodeAt(i - 1) === CHAR.DASH) return false;
    labels++;
    if (i === end) {
      if (labels < 2) return false;
      if (text.slice(labelStart, labelStart + 4).toLowerCase() === 'xn--') return true;
      for (let j = labelStart; j < end; j++) if (!isAlpha(text.charCodeAt(j))) return false;
      return len >= 2;
    }
    labelStart = i + 1;
  }
  return false;
}

/** Where a URL's user information could start: white space, quotes and brackets end the look-back. */
const endsAuthorityScan = (c: number): boolean =>
  isSpace(c) || c === CHAR.SLASH || c === CHAR.AT || c === CHAR.QUOTE || c === CHAR.APOS || c === CHAR.LT;

/**
 * `//user@host` and `//user:p4ss@host` are a URL's user information, not an address (url-credentials
 * redacts the password): found by looking back, at most 256 characters, for the `//` before the user name.
 */
function inUrlAuthority(text: string, localStart: number): boolean {
  let j = localStart - 1;
  const limit = Math.max(-1, localStart - 257);
  while (j > limit && !endsAuthorityScan(text.charCodeAt(j))) j--;
  return at(text, j) === CHAR.SLASH && at(text, j - 1) === CHAR.SLASH;
}

/**
 * Anchored on each `@` (and `%40`, the `@` of a URL-encoded query string): the local part is read leftwards
 * and the domain rightwards, each over at most 64 and 254 characters that cannot be `@`, so the regions read
 * for successive anchors barely overlap; the URL look-back is bounded too. Linear overall.
 */
export const emailDetector: Detector = {
  types: ['EMAIL'],
  scan(text: string, out: Finding[]): void {
    for (let p = text.indexOf('@'); p !== -1; p = text.indexOf('@', p + 1)) {
      const found = matchAt(text, p, 1);
      if (found) out.push(found);
    }
    for (let p = text.indexOf('%40'); p !== -1; p = text.indexOf('%40', p + 3)) {
      const found = matchAt(text, p, 3);
      if (found) out.push(found);
    }
  },
};

/** The address around the `@` spelled with `width` characters at `p`. */
function matchAt(text: string, p: number, width: number): Finding | null {
  let s = p;
  while (s > 0 && p - s <= MAX_LOCAL && isLocal(text.charCodeAt(s - 1))) s--;
  if (p - s > MAX_LOCAL) return null;
  // Leading punctuation belongs to the surrounding text (`--alice@…`, `...alice@…`).
  while (s < p && !isAlnum(text.charCodeAt(s))) s++;
  if (s === p) return null;
  for (let i = s + 1; i < p; i++) {
    if (text.charCodeAt(i) === CHAR.DOT && text.charCodeAt(i - 1) === CHAR.DOT) return null;
  }
  if (text.charCodeAt(p - 1) === CHAR.DOT) return null;

  const d = p + width;
  let e = d;
  while (e < text.length && e - d <= MAX_DOMAIN && isDomain(text.charCodeAt(e))) e++;
  if (e - d > MAX_DOMAIN) return null;
  // A sentence-ending dot or a trailing hyphen is punctuation, not part of the domain.
  while (e > d && !isAlnum(text.charCodeAt(e - 1))) e--;
  if (e === d || !validDomain(text, d, e)) return null;
  if (at(text, e) === CHAR.UNDERSCORE || inUrlAuthority(text, s)) return null;
  return { type: 'EMAIL', start: s, end: e, confidence: 'HIGH', rank: RANK.EMAIL };
}
