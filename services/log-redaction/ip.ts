import {
  at,
  CHAR,
  COLON,
  DASH,
  DIGIT,
  DOT,
  HEX,
  isAlpha,
  isDigit,
  isHex,
  isWord,
  runEnd,
  runStart,
} from './chars.js';
import { type Detector, type Finding, RANK } from './types.js';

const V4 = DIGIT | DOT;
const V6 = HEX | COLON | DOT;
const DASHED_MAC = HEX | DASH;

/** Four decimal octets 0–255 without leading zeros (`010.1.1.1` is an octal spelling, not a log's address). */
export function isIpv4(text: string, start = 0, end = text.length): boolean {
  let parts = 0;
  let i = start;
  while (i <= end) {
    let j = i;
    while (j < end && isDigit(text.charCodeAt(j))) j++;
    const len = j - i;
    if (len < 1 || len > 3) return false;
    if (len > 1 && text.charCodeAt(i) === 48) return false;
    if (Number(text.slice(i, j)) > 255) return false;
    parts++;
    if (j === end) return parts === 4;
    if (text.charCodeAt(j) !== CHAR.DOT) return false;
    i = j + 1;
  }
  return false;
}

/** RFC 4291 text forms: eight groups, or fewer with one `::`, optionally ending in a dotted IPv4 address. */
export function isIpv6(s: string): boolean {
  if (s.length < 2 || s.length > 45) return false;
  const halves = s.split('::');
  if (halves.length > 2) return false;
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const all = [...groups(halves[0]!), ...(halves.length === 2 ? groups(halves[1]!) : [])];
  let count = 0;
  for (let k = 0; k < all.length; k++) {
    const g = all[k]!;
    if (k === all.length - 1 && g.includes('.')) {
      if (!isIpv4(g)) return false;
      count += 2;
      continue;
    }
    if (g.length < 1 || g.length > 4) return false;
    for (let j = 0; j < g.length; j++) if (!isHex(g.charCodeAt(j))) return false;
    count++;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

/**
 * `Version=4.0.0.0`, `"appVersion":"10.4.0.2"`, `release 1.2.3.4`, `Chrome/120.0.0.0`: a dotted quad there is a
 * version, not an address.
 */
function afterVersionWord(text: string, start: number): boolean {
  if (at(text, start - 1) === CHAR.SLASH && isAlpha(at(text, start - 2))) return true;
  let j = start;
  while (j > 0 && start - j < 3 && ' =:"\''.includes(text[j - 1]!)) j--;
  let k = j;
  while (k > 0 && j - k < 16 && isAlpha(text.charCodeAt(k - 1))) k--;
  return isVersionName(text.slice(k, j));
}

/** `version`, `appVersion`, `ver`, `release`: a field or word naming a version. */
export function isVersionName(name: string): boolean {
  const word = name.toLowerCase();
  return word === 'ver' || word.endsWith('version') || word.endsWith('release');
}

const finding = (type: 'IP_ADDRESS' | 'MAC_ADDRESS', start: number, end: number): Finding => ({
  type,
  start,
  end,
  confidence: 'HIGH',
  rank: type === 'IP_ADDRESS' ? RANK.IP_ADDRESS : RANK.MAC_ADDRESS,
});

/** Six two-digit hex groups joined by one separator: a MAC address (EUI-48). */
function isMac(text: string, start: number, end: number, sep: number): boolean {
  if (end - start !== 17) return false;
  for (let k = 0; k < 17; k++) {
    const c = text.charCodeAt(start + k);
    if (k % 3 === 2 ? c !== sep : !isHex(c)) return false;
  }
  return true;
}

function dottedQuads(text: string, out: Finding[]): void {
  for (let s = runStart(text, 0, V4); s < text.length; ) {
    const e = runEnd(text, s, V4);
    let start = s;
    let end = e;
    while (start < end && text.charCodeAt(start) === CHAR.DOT) start++;
    while (end > start && text.charCodeAt(end - 1) === CHAR.DOT) end--;
    const len = end - start;
    if (len >= 7 && len <= 15 && !isWord(at(text, start - 1)) && !isWord(at(text, end))) {
      if (isIpv4(text, start, end) && !afterVersionWord(text, start))
        out.push(finding('IP_ADDRESS', start, end));
    }
    s = runStart(text, e, V4);
  }
}

/** IPv6 addresses and colon-separated MACs, from runs of hex digits, colons and dots. */
function colonForms(text: string, out: Finding[], ip: boolean, mac: boolean): void {
  for (let s = runStart(text, 0, V6); s < text.length; ) {
    const e = runEnd(text, s, V6);
    const next = runStart(text, e, V6);
    if (e - s < 3 || isWord(at(text, s - 1)) || isWord(at(text, e))) {
      s = next;
      continue;
    }
    let end = e;
    // A trailing `.` or `:` is punctuation ("from fe80::1: reset"), unless it completes a `::`.
    while (end > s && (text.charCodeAt(end - 1) === CHAR.DOT || text.charCodeAt(end - 1) === CHAR.COLON)) {
      if (text.charCodeAt(end - 1) === CHAR.COLON && text.charCodeAt(end - 2) === CHAR.COLON) break;
      end--;
    }
    if (mac && isMac(text, s, end, CHAR.COLON)) {
      out.push(finding('MAC_ADDRESS', s, end));
    } else if (ip && end - s <= 45) {
      let colons = 0;
      let digits = 0;
      for (let k = s; k < end; k++) {
        const c = text.charCodeAt(k);
        if (c === CHAR.COLON) colons++;
        else if (isDigit(c)) digits++;
      }
      // Real addresses carry a digit; without one, `dead::beef`-like identifiers (`Abc::Def`) would match.
      if (colons >= 2 && digits > 0 && isIpv6(text.slice(s, end))) out.push(finding('IP_ADDRESS', s, end));
    }
    s = next;
  }
}

function dashedMacs(text: string, out: Finding[]): void {
  for (let s = runStart(text, 0, DASHED_MAC); s < text.length; ) {
    const e = runEnd(text, s, DASHED_MAC);
    if (e - s === 17 && !isWord(at(text, s - 1)) && !isWord(at(text, e)) && isMac(text, s, e, CHAR.DASH)) {
      out.push(finding('MAC_ADDRESS', s, e));
    }
    s = runStart(text, e, DASHED_MAC);
  }
}

/**
 * Three passes over maximal runs of candidate characters (each character belongs to one run per pass): dotted
 * quads, colon forms (IPv6 and MAC) and dashed MACs. A run glued to a letter, digit or `_` is part of a bigger
 * token (`Foo::bar`, `v1.2.3.4`, a hash) and is skipped.
 */
export const ipDetector: Detector = {
  types: ['IP_ADDRESS', 'MAC_ADDRESS'],
  scan(text: string, out: Finding[], options): void {
    const ip = !options.types || options.types.has('IP_ADDRESS');
    const mac = !options.types || options.types.has('MAC_ADDRESS');
    if (ip) dottedQuads(text, out);
    colonForms(text, out, ip, mac);
    if (mac) dashedMacs(text, out);
  },
};
