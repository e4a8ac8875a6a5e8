/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), as published, for lower-case
 * English words. Used only to tell near-duplicate keywords apart ("right" / "rights", "governed" /
 * "government"); a stem is never shown to the caller.
 */

const isConsonant = (w: string, i: number): boolean => {
  const c = w[i]!;
  if ('aeiou'.includes(c)) return false;
  if (c === 'y') return i === 0 || !isConsonant(w, i - 1);
  return true;
};

/** m in [C](VC)^m[V]: the number of vowel–consonant sequences of `stem`. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    m++;
    while (i < n && isConsonant(stem, i)) i++;
  }
  return m;
}

const hasVowel = (stem: string): boolean => {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
};

/** *d: ends with a double consonant. */
const endsDoubleConsonant = (w: string): boolean =>
  w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1);

/** *o: ends consonant–vowel–consonant, the last not w, x or y. */
const endsCvc = (w: string): boolean => {
  const n = w.length;
  if (n < 3) return false;
  if (!isConsonant(w, n - 1) || isConsonant(w, n - 2) || !isConsonant(w, n - 3)) return false;
  return !'wxy'.includes(w[n - 1]!);
};

type Rule = readonly [suffix: string, replacement: string];

/** Replaces the longest matching suffix when the remaining stem passes `ok`; otherwise leaves the word. */
function applyRules(
  w: string,
  rules: readonly Rule[],
  ok: (stem: string, suffix: string) => boolean,
): string {
  let best: Rule | undefined;
  for (const rule of rules) {
    if (w.endsWith(rule[0]) && (!best || rule[0].length > best[0].length)) best = rule;
  }
  if (!best) return w;
  const stem = w.slice(0, w.length - best[0].length);
  return ok(stem, best[0]) ? stem + best[1] : w;
}

const STEP2: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['abli', 'able'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
];

const STEP3: readonly Rule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4: readonly Rule[] = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
].map((s) => [s, ''] as const);

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);

  if (w.endsWith('eed')) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  let stripped: string | undefined;
  if (w.endsWith('ed') && hasVowel(w.slice(0, -2))) stripped = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w.slice(0, -3))) stripped = w.slice(0, -3);
  if (stripped === undefined) return w;
  w = stripped;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  if (endsDoubleConsonant(w) && !'lsz'.includes(w[w.length - 1]!)) return w.slice(0, -1);
  if (measure(w) === 1 && endsCvc(w)) return `${w}e`;
  return w;
}

/** The stem of a lower-case English word; words of one or two letters, and non-ASCII words, are kept. */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = step1ab(word);
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = applyRules(w, STEP2, (stem) => measure(stem) > 0);
  w = applyRules(w, STEP3, (stem) => measure(stem) > 0);
  w = applyRules(
    w,
    STEP4,
    (stem, suffix) => measure(stem) > 1 && (suffix !== 'ion' || stem.endsWith('s') || stem.endsWith('t')),
  );
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}
