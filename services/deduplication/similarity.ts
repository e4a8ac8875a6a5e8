/**
 * String similarities in [0, 1], over UTF-16 code units of already normalised text (normalize.ts). Each is
 * bounded by the lengths it is given; callers cap the lengths (normalize.ts) so one comparison stays cheap.
 */

/** Scratch flags for jaro(), grown on demand: one comparison allocates nothing. */
let matchedA = new Uint8Array(128);
let matchedB = new Uint8Array(128);

/** Jaro similarity: matching characters within half the longer length, and their transpositions. */
export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  if (matchedA.length < la) matchedA = new Uint8Array(la * 2);
  if (matchedB.length < lb) matchedB = new Uint8Array(lb * 2);
  matchedA.fill(0, 0, la);
  matchedB.fill(0, 0, lb);
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(lb - 1, i + window);
    const c = a.charCodeAt(i);
    for (let j = from; j <= to; j++) {
      if (matchedB[j] === 0 && b.charCodeAt(j) === c) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let halfTranspositions = 0;
  let j = 0;
  for (let i = 0; i < la; i++) {
    if (matchedA[i] === 0) continue;
    while (matchedB[j] === 0) j++;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) halfTranspositions++;
    j++;
  }
  const m = matches;
  return (m / la + m / lb + (m - halfTranspositions / 2) / m) / 3;
}

/**
 * Jaro–Winkler (Winkler 1990): Jaro raised by 0.1 per character of common prefix, up to four, applied only
 * above 0.7 as Winkler did, so unrelated strings that happen to share a first letter are not boosted.
 */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  if (j <= 0.7) return j;
  let prefix = 0;
  const max = Math.min(4, a.length, b.length);
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return j + prefix * 0.1 * (1 - j);
}

const popcount32 = (x: number): number => {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
};

/** Character codes with a row in the match-mask table; others go to a map (rare after normalisation). */
const TABLE_CODES = 128;
let maskTable = new Uint32Array(TABLE_CODES * 4);
let state = new Uint32Array(4);

/**
 * Length of the longest common subsequence, bit-parallel (Hyyrö 2004): one pass over `b` with ⌈|a|/32⌉ words
 * of state, so O(|a|·|b|/32) instead of the O(|a|·|b|) table. Scratch tables are reused across calls.
 */
export function lcsLength(a: string, b: string): number {
  const m = a.length;
  if (m === 0 || b.length === 0) return 0;
  const words = Math.ceil(m / 32);
  if (maskTable.length < TABLE_CODES * words) maskTable = new Uint32Array(TABLE_CODES * words);
  let others: Map<number, Uint32Array> | null = null;
  for (let i = 0; i < m; i++) {
    const c = a.charCodeAt(i);
    const bit = 1 << (i & 31);
    if (c < TABLE_CODES) {
      maskTable[c * words + (i >>> 5)]! |= bit;
      continue;
    }
    others ??= new Map();
    let mask = others.get(c);
    if (!mask) {
      mask = new Uint32Array(words);
      others.set(c, mask);
    }
    mask[i >>> 5]! |= bit;
  }
  const zeros =
    words === 1
      ? oneWordPass(b, m, others)
      : words <= 4
        ? fourWordPass(b, words, m, others)
        : multiWordPass(b, words, m, others);
  for (let i = 0; i < m; i++) {
    const c = a.charCodeAt(i);
    if (c >= TABLE_CODES) continue;
    const base = c * words;
    for (let w = 0; w < words; w++) maskTable[base + w] = 0;
  }
  return zeros;
}

/** The match mask of code `c` at word `w`, from the table or the map of other codes. */
const maskAt = (c: number, w: number, words: number, others: Map<number, Uint32Array> | null): number =>
  c < TABLE_CODES ? maskTable[c * words + w]! : (others?.get(c)?.[w] ?? 0);

/** Patterns of up to 32 characters (most names, e-mail addresses, phone numbers): the state is one number. */
function oneWordPass(b: string, m: number, others: Map<number, Uint32Array> | null): number {
  let v = 0xffffffff;
  for (let k = 0; k < b.length; k++) {
    const u = (v & maskAt(b.charCodeAt(k), 0, 1, others)) >>> 0;
    // V ← (V + U) | (V − U) with U = V & mask; U's bits are a subset of V's, so V − U is V & ~U (no borrow).
    v = ((v + u) | (v & ~u)) >>> 0;
  }
  return m - popcount32(m === 32 ? v : v & ((1 << m) - 1));
}

/** Up to 128 characters (every normalised value, see normalize.ts): the state in four local numbers. */
function fourWordPass(b: string, words: number, m: number, others: Map<number, Uint32Array> | null): number {
  let v0 = 0xffffffff;
  let v1 = 0xffffffff;
  let v2 = 0xffffffff;
  let v3 = 0xffffffff;
  for (let k = 0; k < b.length; k++) {
    const c = b.charCodeAt(k);
    let masks: Uint32Array = maskTable;
    let base = c * words;
    if (c >= TABLE_CODES) {
      const found = others?.get(c);
      if (!found) continue;
      masks = found;
      base = 0;
    }
    // Words past `words` have no mask bits, so their state only absorbs carries nobody reads.
    const u0 = (v0 & masks[base]!) >>> 0;
    const u1 = (v1 & masks[base + 1]!) >>> 0;
    const u2 = words > 2 ? (v2 & masks[base + 2]!) >>> 0 : 0;
    const u3 = words > 3 ? (v3 & masks[base + 3]!) >>> 0 : 0;
    const s0 = v0 + u0;
    const s1 = v1 + u1 + (s0 > 0xffffffff ? 1 : 0);
    const s2 = v2 + u2 + (s1 > 0xffffffff ? 1 : 0);
    const s3 = v3 + u3 + (s2 > 0xffffffff ? 1 : 0);
    v0 = ((s0 >>> 0) | (v0 & ~u0)) >>> 0;
    v1 = ((s1 >>> 0) | (v1 & ~u1)) >>> 0;
    v2 = ((s2 >>> 0) | (v2 & ~u2)) >>> 0;
    v3 = ((s3 >>> 0) | (v3 & ~u3)) >>> 0;
  }
  if (state.length < 4) state = new Uint32Array(4);
  state[0] = v0;
  state[1] = v1;
  state[2] = v2;
  state[3] = v3;
  return zerosOf(state, words, m);
}

function multiWordPass(b: string, words: number, m: number, others: Map<number, Uint32Array> | null): number {
  if (state.length < words) state = new Uint32Array(words);
  const v = state;
  v.fill(0xffffffff, 0, words);
  for (let k = 0; k < b.length; k++) {
    const c = b.charCodeAt(k);
    let masks: Uint32Array = maskTable;
    let base = c * words;
    if (c >= TABLE_CODES) {
      const found = others?.get(c);
      // A character `a` lacks matches nothing: the state stays as it is.
      if (!found) continue;
      masks = found;
      base = 0;
    }
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w]!;
      const u = (vw & masks[base + w]!) >>> 0;
      const sum = vw + u + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = (sum >>> 0) | (vw & ~u);
    }
  }
  return zerosOf(v, words, m);
}

/** Zero bits among the low `m` bits of the state: the LCS length. */
function zerosOf(v: Uint32Array, words: number, m: number): number {
  let zeros = 0;
  for (let w = 0; w < words; w++) {
    const bits = w === words - 1 && m % 32 !== 0 ? m % 32 : 32;
    const low = bits === 32 ? v[w]! : v[w]! & ((1 << bits) - 1);
    zeros += bits - popcount32(low);
  }
  return zeros;
}

/** Indel similarity (what RapidFuzz's `ratio` computes): 2·LCS / (|a| + |b|). */
export function indelRatio(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  if (a === b) return 1;
  return (2 * lcsLength(a, b)) / total;
}

/**
 * Token-set ratio over two ascending arrays of distinct tokens: the shared tokens first, then each side's own,
 * and the indel ratio of the two strings. Word order and repeated words do not matter, and the shared words
 * line up. Unlike FuzzyWuzzy's token_set_ratio this does not also take the shared words alone against each
 * side: that would score "smith" against "john smith" as 1.0, and a lone shared surname is not a match.
 */
export function tokenSetRatio(a: readonly string[], b: readonly string[]): number {
  const shared: string[] = [];
  const onlyA: string[] = [];
  const onlyB: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x !== undefined && x === y) {
      shared.push(x);
      i++;
      j++;
    } else if (y === undefined || (x !== undefined && x < y)) {
      onlyA.push(x!);
      i++;
    } else {
      onlyB.push(y);
      j++;
    }
  }
  if (onlyA.length === 0 && onlyB.length === 0) return shared.length === 0 ? 0 : 1;
  const common = shared.join(' ');
  const sep = common === '' ? '' : ' ';
  return indelRatio(
    onlyA.length === 0 ? common : common + sep + onlyA.join(' '),
    onlyB.length === 0 ? common : common + sep + onlyB.join(' '),
  );
}

/** The most tokenSetRatio can be for tokens of these total lengths: indel ratio bounded by the shorter. */
export const indelBound = (lengthA: number, lengthB: number): number =>
  lengthA + lengthB === 0 ? 1 : (2 * Math.min(lengthA, lengthB)) / (lengthA + lengthB);

/** Above this many token pairs the per-token Jaro–Winkler alignment is skipped (long free text). */
export const MAX_TOKEN_PAIRS = 64;

/**
 * Symmetric Monge–Elkan with Jaro–Winkler: every token takes its best match on the other side, weighted by its
 * length, and the lower of the two directions counts, so tokens that one side lacks lower the score ("john"
 * against "john smith" is 0.5, "jon smith" against "smith john" 0.97). Returns 0 when there are more than
 * MAX_TOKEN_PAIRS token pairs (the token-set ratio then decides alone).
 */
export function tokenJaroWinkler(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_TOKEN_PAIRS) return 0;
  const best = (from: readonly string[], to: readonly string[]): number => {
    let weighted = 0;
    let weight = 0;
    for (const x of from) {
      let top = 0;
      for (const y of to) {
        const s = x === y ? 1 : jaroWinkler(x, y);
        if (s > top) top = s;
        if (top === 1) break;
      }
      weighted += x.length * top;
      weight += x.length;
    }
    return weighted / weight;
  };
  return Math.min(best(a, b), best(b, a));
}

/** Scratch rows for editDistance(), grown on demand. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two adjacent characters, Damerau 1964), over
 * UTF-16 code units: "2143" is one edit from "1243". O(|a|·|b|) time; callers pass short identifiers.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const width = b.length + 1;
  if (rows[0].length < width)
    rows = [new Int32Array(width * 2), new Int32Array(width * 2), new Int32Array(width * 2)];
  let [before, previous, current] = rows;
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      current[j] = d;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
