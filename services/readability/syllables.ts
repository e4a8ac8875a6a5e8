import { numberSyllables, ordinalSyllables } from './numbers.js';

/**
 * Syllable counting: the CMU Pronouncing Dictionary first (a vowel phone carries a stress digit, so the
 * digits in a pronunciation are its syllables), then rules for what the dictionary lacks (names, new words,
 * typos).
 */

/** Word (lower case) → ARPABET phones, as `cmu-pronouncing-dictionary` exports it. */
export type Pronunciations = Readonly<Record<string, string>>;

/** Syllables of one word as splitWords returns it; at least 1. */
export type SyllableCounter = (word: string) => number;

/**
 * Bounds the memory a stream of distinct (say random) words can take; clearing is cheaper than LRU upkeep.
 */
const CACHE_LIMIT = 50_000;
/** Longer strings are not words anyone repeats; caching them would only evict real words. */
const CACHEABLE_LENGTH = 40;

const STRESS_DIGIT = /\d/g;
const NUMERAL = /^\d+(?:,\d{3})*(?:\.\d+)?$/;
/**
 * Digit runs (with an ordinal suffix when one follows) and the letter runs between them: "3rd", "mp3", "4x4".
 */
const ALPHANUMERIC_RUN = /\d+(?:st|nd|rd|th)?(?![a-z])|\d+|\D+/gi;
const SIBILANT_END = /(?:[sxz]|[cs]h|[cgsz]e)$/;

/**
 * A counter backed by `pronunciations` (pass none for rules only), with its own bounded cache. Create it once
 * and share it: the cache is what makes repeated words cheap.
 */
export function createSyllableCounter(pronunciations: Pronunciations = {}): SyllableCounter {
  const cache = new Map<string, number>();

  const lookup = (key: string): number | undefined =>
    Object.hasOwn(pronunciations, key)
      ? Math.max(1, pronunciations[key]!.match(STRESS_DIGIT)?.length ?? 0)
      : undefined;

  const count = (word: string): number => {
    // Upper-case letters without a vowel are read letter by letter: "TV", "HTML", "SQL".
    if (isSpelledAcronym(word)) return spelledOut(word);
    const key = normalizeKey(word);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const n = Math.max(1, compute(word, key));
    if (key.length <= CACHEABLE_LENGTH) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(key, n);
    }
    return n;
  };

  const compute = (word: string, key: string): number => {
    // Dotted abbreviations are listed with their final period ("e.g.", "u.s."), which a word token never
    // keeps; without it "u.s" is the plural of the letter u.
    const known = key.includes('.') ? (lookup(`${key}.`) ?? lookup(key)) : lookup(key);
    if (known !== undefined) return known;
    if (NUMERAL.test(key)) return numberSyllables(key);
    // Compounds and dotted abbreviations: the sum of their parts ("fjord-bank", "COVID-19", "Ph.D").
    if (/[-.\u2010\u2011]/.test(word)) return sum(word.split(/[-.\u2010\u2011]+/).filter(Boolean), count);
    if (/\d/.test(word)) return sum(word.match(ALPHANUMERIC_RUN) ?? [], alphanumericRun);
    const possessive = /^(.+)'s$/.exec(key);
    if (possessive) return count(possessive[1]!) + (SIBILANT_END.test(possessive[1]!) ? 1 : 0);
    return estimateSyllables(key.replaceAll("'", ''));
  };

  const alphanumericRun = (run: string): number => {
    if (/^\d/.test(run)) return /\D$/.test(run) ? ordinalSyllables(run.slice(0, -2)) : numberSyllables(run);
    // Commas and apostrophes between digits are silent; a vowel-less letter run is a set of letters read one
    // by one: "mp3", "3D", "B2B".
    const letters = run.replace(/[^\p{L}]/gu, '');
    if (letters === '') return 0;
    return /[aeiouy]/i.test(letters) ? count(letters) : spelledOut(letters);
  };

  return count;
}

/**
 * Rule-based English syllable estimate for a word the dictionary lacks: vowel groups (y is a vowel except at
 * the start), minus silent endings (-e, -es, -ed, -ely …), plus vowel pairs that are two syllables (-ia-,
 * -io-, -eo-, -ua-, -uo-, -iu-, -ii-, vowel + -ing, -ism, -ea). A diaeresis marks a new syllable ("naïve"); a
 * final é is spoken ("café"). Letters outside a–z (other scripts) count as one syllable per word. At least 1.
 */
export function estimateSyllables(word: string): number {
  const lower = word.toLowerCase().normalize('NFC');
  const spokenFinalE = /é$/.test(lower);
  const w = lower
    .normalize('NFD')
    .replace(/\u0308/g, '|') // diaeresis: a syllable break before the next vowel group
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z|]/g, '');
  if (!/[a-z]/.test(w)) return 1;
  // A diaeresis mark follows its vowel; move the break before it ("nai|ve" → "na|ive").
  const base = w.replace(/([aeiouy])\|/g, '|$1');

  let stem = base;
  if (!spokenFinalE) {
    // Silent final e ("make"), but a consonant + "le" is a syllable ("table"); -es and -ed likewise.
    if (/[b-df-hj-np-tv-xz]e$/.test(stem) && !/[b-df-hj-kmnp-tv-xz]le$/.test(stem)) stem = stem.slice(0, -1);
    else if (/[b-df-hj-np-tv-xz]es$/.test(stem) && !/(?:[sxzcg]|[cs]h|[b-df-hj-kmnp-tv-xz]l)es$/.test(stem)) {
      stem = stem.slice(0, -2);
    } else if (/[b-df-hj-np-tv-xz]ed$/.test(stem) && !/(?:[td]|[b-df-hj-kmnp-tv-xz]l)ed$/.test(stem)) {
      stem = stem.slice(0, -2);
    }
  }
  const groups = stem.replace(/^y/, '').match(/[aeiouy]+/g)?.length ?? 0;

  let adjust = 0;
  for (const [pattern, delta] of ADJUSTMENTS) adjust += delta * (base.match(pattern)?.length ?? 0);
  // Comparatives of -y adjectives: happier, easiest (not pier, which is too short to be one).
  if (base.length > 5 && /[^aeiou]i(?:er|est)$/.test(base)) adjust++;
  return Math.max(1, groups + adjust);
}

/** Vowel pairs read as two syllables (+1), and endings whose vowel groups overcount (−1). */
const ADJUSTMENTS: readonly (readonly [RegExp, number])[] = [
  [/(?<![cgst])ia/g, 1], // dial, media (not social, Asian, Christian)
  [/(?<![cghstx])io/g, 1], // radio, lion, curious (not nation, fashion, region, anxious)
  [/(?<!g)eo|^geo/g, 1], // video, rodeo, geology (not pigeon, surgeon)
  [/(?<![gq])ua/g, 1], // actual, dual (not guard, quality, language)
  [/(?<!q)uo/g, 1], // duo, fluoride (not quote)
  [/iu|ii/g, 1], // medium, skiing
  [/[aeouy]ing/g, 1], // being, seeing, playing
  [/ism$/g, 1], // prism, tourism
  [/[^aeiouy]ea$/g, 1], // idea, area
  [/[^aeiouy]e(?:ly|ful|less|ness|ment)s?$/g, -1], // lovely, hopeful, careless, announcement
  [/ically$/g, -1], // basically, acoustically
  [/(?:que|[aeiou]gue|ngue)$/g, -1], // unique, vague, tongue
];

const normalizeKey = (word: string): string =>
  word
    .toLowerCase()
    .replace(/[’ʼ]/g, "'")
    .replace(/[\u2010\u2011]/g, '-');

const isSpelledAcronym = (word: string): boolean =>
  /^\p{Lu}{2,}$/u.test(word) && !/[AEIOUY]/.test(word.normalize('NFD'));

/** Letter names: one syllable each, except "double-u". */
const spelledOut = (letters: string): number => {
  let n = 0;
  for (const ch of letters.toLowerCase()) n += ch === 'w' ? 3 : 1;
  return n;
};

const sum = (parts: readonly string[], f: (part: string) => number): number =>
  parts.reduce((total, part) => total + f(part), 0);
