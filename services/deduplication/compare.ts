import type { Email, FieldValue } from './normalize.js';
import {
  editDistance,
  indelBound,
  indelRatio,
  jaroWinkler,
  MAX_TOKEN_PAIRS,
  tokenJaroWinkler,
  tokenSetRatio,
} from './similarity.js';

/** Fewest digits for which one number ending in the other counts as the same number (a country code added). */
const MIN_NATIONAL_DIGITS = 7;
/** Jaro–Winkler is meant for short strings such as names; longer single tokens are compared by indel ratio. */
const MAX_JARO_WINKLER_CHARS = 32;

/**
 * A typo-tolerant but strict similarity for identifiers (phone numbers, e-mail local parts): each edit (a
 * wrong, missing, extra or swapped character) costs `perEdit` times its share of the length, so one typo in
 * ten characters keeps 0.7 and three or four edits reach 0. Unlike Jaro–Winkler, a long common prefix
 * ("+1 555", "john.smith") earns nothing by itself: two different numbers are different numbers.
 */
export function identifierScore(a: string, b: string, perEdit = 3): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  return Math.max(0, 1 - (perEdit * editDistance(a, b)) / longer);
}

/**
 * Two phone numbers (digits without leading zeros): equal, or one ending in the other (+1 555 123 4567 and
 * (555) 123-4567), score 1; otherwise identifierScore over the national digits (the shorter number's length).
 */
export function phoneScore(a: string, b: string): number {
  if (a === b) return 1;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= MIN_NATIONAL_DIGITS && long.endsWith(short)) return 1;
  const tail = short.length >= MIN_NATIONAL_DIGITS ? long.slice(-short.length) : long;
  return identifierScore(short, tail);
}

/**
 * Two e-mail addresses: the local parts (without dots and +tags) weigh 0.8 and are identifiers (one typo in
 * ten characters keeps 0.7), the domains weigh 0.2 (1 when equal, else Jaro–Winkler). So a@example.com
 * against b@example.com scores 0.2 and john.smith@ against johnsmith+news@ on the same domain 1.
 */
export function emailScore(a: Email, b: Email): number {
  const domain = a.domain === b.domain ? 1 : jaroWinkler(a.domain, b.domain);
  return 0.8 * identifierScore(a.local, b.local) + 0.2 * domain;
}

/** The most Jaro–Winkler can give two strings of these lengths (every character of the shorter matched). */
function jaroWinklerBound(la: number, lb: number): number {
  const jaro = (2 + Math.min(la, lb) / Math.max(la, lb)) / 3;
  return jaro + 0.4 * (1 - jaro);
}

/**
 * Free text: the better of the token-set ratio and the token-wise Jaro–Winkler (similarity.ts); one token
 * each: the better of Jaro–Winkler and the indel ratio. When a bound from the lengths alone shows the score
 * stays below `floor`, that bound is returned instead (the caller only needs to know it is too low).
 */
export function textScore(a: FieldValue, b: FieldValue, floor = 0): number {
  if (a.text === b.text) return 1;
  if (a.tokens.length === 1 && b.tokens.length === 1) {
    const short = Math.max(a.text.length, b.text.length) <= MAX_JARO_WINKLER_CHARS;
    const bound = short
      ? jaroWinklerBound(a.text.length, b.text.length)
      : indelBound(a.text.length, b.text.length);
    if (bound < floor) return bound;
    const indel = indelRatio(a.text, b.text);
    return short ? Math.max(jaroWinkler(a.text, b.text), indel) : indel;
  }
  const aligned = a.tokens.length * b.tokens.length <= MAX_TOKEN_PAIRS;
  const bound = aligned ? 1 : indelBound(a.tokenText.length, b.tokenText.length);
  if (bound < floor) return bound;
  const set = tokenSetRatio(a.tokens, b.tokens);
  return aligned ? Math.max(set, tokenJaroWinkler(a.tokens, b.tokens)) : set;
}

/**
 * One field of two records, both present: phone numbers as numbers, addresses as addresses, else text.
 * May return any value below `floor` once the score is known to be below it.
 */
export function fieldScore(a: FieldValue, b: FieldValue, floor = 0): number {
  if (a.digits !== null && b.digits !== null) return phoneScore(a.digits, b.digits);
  if (a.email !== null && b.email !== null) return emailScore(a.email, b.email);
  return textScore(a, b, floor);
}

export interface PairScore {
  /** Mean of the comparable fields' scores. */
  readonly similarity: number;
  /** Per match field; null where neither record has a value. */
  readonly scores: readonly (number | null)[];
}

/**
 * Two records over their match fields. A field neither record has is left out; a field only one has scores 0
 * (a missing e-mail is no evidence of a match). Stops as soon as `threshold` is out of reach and returns null;
 * also null when no field is comparable.
 */
export function comparePair(
  a: readonly (FieldValue | null)[],
  b: readonly (FieldValue | null)[],
  threshold: number,
): PairScore | null {
  let comparable = 0;
  for (let f = 0; f < a.length; f++) if (a[f] || b[f]) comparable++;
  if (comparable === 0) return null;
  const scores: (number | null)[] = new Array(a.length).fill(null);
  let sum = 0;
  let left = comparable;
  for (let f = 0; f < a.length; f++) {
    const x = a[f];
    const y = b[f];
    if (!x && !y) continue;
    left--;
    // What this field must score for the mean to reach the threshold even if every later field scores 1.
    const floor = threshold * comparable - sum - left - 1e-9;
    const score = x && y ? fieldScore(x, y, floor) : 0;
    if (score < floor) return null;
    scores[f] = score;
    sum += score;
  }
  return { similarity: sum / comparable, scores };
}
