import { at, CHAR, DIGIT, isAlnum, isDigit, isWord, runEnd } from './chars.js';
import { isCardNumber, nanpValid, ssnValid } from './checksums.js';
import { type Detector, type Finding, RANK, type ScanOptions } from './types.js';

/**
 * Group layouts as decimal codes (a group of 10 digits or more poisons the code): 4444 is 4-4-4-4. Cards as
 * printed: 4-4-4-4, 4-4-4-4-3, Amex 4-6-5, Diners 4-6-4; SSNs 3-2-4; North American phones 3-3-4 and 1-3-3-4.
 */
const CARD_LAYOUTS = new Set([4444, 44443, 465, 464]);
const SSN_LAYOUT = 324;
const PHONE_LAYOUTS = new Set([334, 1334]);
const MAX_GROUPS = 5;
const MAX_DIGITS = 19;
const POISON = -1;

const isSeparator = (c: number): boolean => c === CHAR.SPACE || c === CHAR.DASH || c === CHAR.DOT;

/** Touches a letter, `_`, or `-`/`.` + letter or digit: part of a larger token (`v1.2`, `id-4111…`). */
const gluedBefore = (text: string, start: number): boolean => {
  const c = at(text, start - 1);
  return isWord(c) || ((c === CHAR.DASH || c === CHAR.DOT) && isAlnum(at(text, start - 2)));
};
const gluedAfter = (text: string, end: number): boolean => {
  const c = at(text, end);
  return isWord(c) || ((c === CHAR.DASH || c === CHAR.DOT) && isAlnum(at(text, end + 1)));
};

const want = (options: ScanOptions, type: Finding['type']): boolean =>
  !options.types || options.types.has(type);

/** What a window of `groups` digit groups with layout `code`, joined by `sep`, spells, if anything. */
function classify(
  text: string,
  starts: readonly number[],
  ends: readonly number[],
  a: number,
  groups: number,
  code: number,
  sep: number,
  total: number,
  options: ScanOptions,
): Finding | null {
  const card =
    groups === 1 ? total >= 13 : (sep === CHAR.SPACE || sep === CHAR.DASH) && CARD_LAYOUTS.has(code);
  const ssn = code === SSN_LAYOUT && sep === CHAR.DASH;
  const phone = PHONE_LAYOUTS.has(code) && (sep === CHAR.DASH || sep === CHAR.DOT);
  if (!card && !ssn && !phone) return null;
  let digits = '';
  for (let k = a; k < a + groups; k++) digits += text.slice(starts[k], ends[k]);
  const start = starts[a]!;
  const end = ends[a + groups - 1]!;
  if (card && want(options, 'CREDIT_CARD') && isCardNumber(digits)) {
    return { type: 'CREDIT_CARD', start, end, confidence: 'HIGH', rank: RANK.CREDIT_CARD };
  }
  if (ssn && want(options, 'SSN') && ssnValid(digits.slice(0, 3), digits.slice(3, 5), digits.slice(5))) {
    return { type: 'SSN', start, end, confidence: 'MEDIUM', rank: RANK.SSN };
  }
  const national = code === 1334 ? (digits[0] === '1' ? digits.slice(1) : '') : digits;
  if (phone && want(options, 'PHONE') && nanpValid(national.slice(0, 3), national.slice(3, 6))) {
    return { type: 'PHONE', start, end, confidence: 'MEDIUM', rank: RANK.PHONE };
  }
  return null;
}

/**
 * The digit groups of a chunk (digits joined by single spaces, hyphens or dots) and, at each group, the longest
 * window of at most five groups and 19 digits that spells something. A window inside a chunk must be set off
 * by spaces: `1234-4111…` is one token, not a card. Each group starts at most five windows: linear.
 */
function scanChunk(text: string, start: number, out: Finding[], options: ScanOptions): number {
  const starts: number[] = [];
  const ends: number[] = [];
  const seps: number[] = [];
  for (let s = start; ; ) {
    const e = runEnd(text, s, DIGIT);
    starts.push(s);
    ends.push(e);
    const c = at(text, e);
    if (!isSeparator(c) || !isDigit(at(text, e + 1))) break;
    seps.push(c);
    s = e + 1;
  }
  const g = starts.length;
  const before = gluedBefore(text, start);
  const after = gluedAfter(text, ends[g - 1]!);
  let a = 0;
  while (a < g) {
    let best: Finding | null = null;
    let bestLast = a;
    if (a === 0 ? !before : seps[a - 1] === CHAR.SPACE) {
      let code = 0;
      let total = 0;
      for (let k = 1; k <= MAX_GROUPS && a + k <= g; k++) {
        const last = a + k - 1;
        if (k > 1 && seps[last - 1] !== seps[a]) break;
        const length = ends[last]! - starts[last]!;
        total += length;
        if (total > MAX_DIGITS) break;
        code = code === POISON || length > 9 ? POISON : code * 10 + length;
        const rightOk = a + k === g ? !after : seps[last] === CHAR.SPACE;
        if (!rightOk) continue;
        const found = classify(text, starts, ends, a, k, code, seps[a] ?? -1, total, options);
        if (found) {
          best = found;
          bestLast = last;
        }
      }
    }
    if (best) out.push(best);
    a = best ? bestLast + 1 : a + 1;
  }
  return ends[g - 1]!;
}

/**
 * Card numbers, dashed SSNs and dashed or dotted North American phone numbers, read from digit-group chunks.
 * A lone digit run (the common case: numbers, timestamps, ports) is judged without building a chunk.
 */
export const numbersDetector: Detector = {
  types: ['CREDIT_CARD', 'SSN', 'PHONE'],
  scan(text: string, out: Finding[], options: ScanOptions): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) {
        i++;
        continue;
      }
      const e = runEnd(text, i, DIGIT);
      const next = at(text, e);
      if (isSeparator(next) && isDigit(at(text, e + 1))) {
        i = scanChunk(text, i, out, options);
        continue;
      }
      const length = e - i;
      if (length >= 13 && length <= MAX_DIGITS && want(options, 'CREDIT_CARD')) {
        if (!gluedBefore(text, i) && !gluedAfter(text, e) && isCardNumber(text.slice(i, e))) {
          out.push({ type: 'CREDIT_CARD', start: i, end: e, confidence: 'HIGH', rank: RANK.CREDIT_CARD });
        }
      }
      i = e;
    }
  },
};
