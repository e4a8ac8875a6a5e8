import { dictionary } from 'cmu-pronouncing-dictionary';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSyllableCounter } from './dictionary.js';
import { numberSyllables, ordinalSyllables } from './numbers.js';
import { createSyllableCounter, estimateSyllables, type SyllableCounter } from './syllables.js';

let cmu: SyllableCounter;
beforeAll(async () => {
  cmu = await loadSyllableCounter();
});

describe('dictionary-backed counter', () => {
  it('counts the stress digits of the CMU pronunciation', () => {
    // readability: R IY2 D AH0 B IH1 L IH0 T IY0; fire: F AY1 ER0 (the dictionary's, not a spelling guess).
    expect(cmu('readability')).toBe(5);
    expect(cmu('fire')).toBe(2);
    expect(cmu('the')).toBe(1);
    expect(cmu('Australian')).toBe(3);
    expect(cmu("don't")).toBe(1);
    expect(cmu('don’t')).toBe(1);
  });

  it('loads the dictionary once and shares the counter', async () => {
    expect(await loadSyllableCounter()).toBe(cmu);
  });

  it('uses the first pronunciation of a word that has several', () => {
    const counter = createSyllableCounter({ often: 'AO1 F AH0 N', 'often(2)': 'AO1 F T AH0 N' });
    expect(counter('often')).toBe(2);
  });

  it('never answers 0, even for a pronunciation without a vowel', () => {
    expect(createSyllableCounter({ hmm: 'HH M' })('hmm')).toBe(1);
  });

  it('ignores Object.prototype names that are not entries', () => {
    const counter = createSyllableCounter({});
    expect(counter('constructor')).toBe(3);
    expect(counter('__proto__')).toBe(2);
  });

  it('prefers the dotted abbreviation over the plural of a letter ("U.S" is not "u\'s")', () => {
    expect(cmu('U.S')).toBe(2);
    expect(cmu('e.g')).toBe(2);
    expect(cmu('i.e')).toBe(2);
  });

  it('sums the parts of a hyphenated compound it does not list', () => {
    expect(cmu('fjord-bank')).toBe(2);
    expect(cmu('rock-a-bye')).toBe(3);
    expect(cmu('well-known')).toBe(2);
    expect(cmu('COVID-19')).toBe(4); // co-vid nine-teen
  });

  it('reads possessives of unknown words with the extra syllable after a sibilant', () => {
    const counter = createSyllableCounter({});
    expect(counter("Smith's")).toBe(1);
    expect(counter("Jones's")).toBe(2);
    expect(counter("judge's")).toBe(2);
  });

  it('spells out upper-case letters without a vowel, and letters beside digits', () => {
    expect(cmu('HTTP')).toBe(4);
    expect(cmu('TV')).toBe(2);
    expect(cmu('WWW')).toBe(9);
    expect(cmu('mp3')).toBe(3);
    expect(cmu('3D')).toBe(2);
  });

  it('counts figures as spoken', () => {
    expect(cmu('1999')).toBe(5);
    expect(cmu('3.14')).toBe(4);
    expect(cmu('21st')).toBe(3);
    expect(cmu('1,000,000')).toBe(3);
  });

  it('answers the same for a word after it is cached, and copes with more words than the cache holds', () => {
    const counter = createSyllableCounter({});
    const first = counter('incomprehensibility');
    for (let i = 0; i < 60_000; i++) counter(`zq${i.toString(36)}`);
    expect(counter('incomprehensibility')).toBe(first);
  });
});

describe('rule-based fallback (estimateSyllables)', () => {
  it.each([
    ['cat', 1],
    ['make', 1], // silent e
    ['table', 2], // consonant + le
    ['little', 2],
    ['whole', 1],
    ['jumped', 1], // -ed without a syllable
    ['wanted', 2], // -ed after t
    ['loaded', 2], // -ed after d
    ['makes', 1], // -es without a syllable
    ['boxes', 2], // -es after a sibilant
    ['pages', 2],
    ['happy', 2], // y as a vowel
    ['yellow', 2], // y as a consonant at the start
    ['play', 1], // vowel group
    ['beautiful', 3],
    ['radio', 3], // i-o hiatus
    ['nation', 2], // -tion is one syllable
    ['dial', 2],
    ['social', 2],
    ['actual', 3],
    ['being', 2],
    ['lovely', 2], // silent e before -ly
    ['unique', 2],
    ['idea', 3],
    ['prism', 2],
    ['naïve', 2], // diaeresis
    ['zoë', 2],
    ['café', 2], // spoken final é
    ['cwm', 1], // no vowel letter: still a syllable
    ['привет', 1], // other scripts: one per word
  ])('%s → %i', (word, expected) => {
    expect(estimateSyllables(word)).toBe(expected);
  });

  it('agrees with the CMU dictionary on at least 90% of its plain words, and within one on 99%', () => {
    let total = 0;
    let exact = 0;
    let withinOne = 0;
    for (const [word, phones] of Object.entries(dictionary)) {
      if (!/^[a-z]{2,}$/.test(word)) continue;
      const expected = Math.max(1, phones.match(/\d/g)?.length ?? 0);
      const got = estimateSyllables(word);
      total++;
      if (got === expected) exact++;
      if (Math.abs(got - expected) <= 1) withinOne++;
    }
    expect(total).toBeGreaterThan(100_000);
    expect(exact / total).toBeGreaterThan(0.9);
    expect(withinOne / total).toBeGreaterThan(0.99);
  });
});

describe('numerals', () => {
  it.each([
    ['0', 2], // zero
    ['7', 2], // seven
    ['11', 3], // eleven
    ['42', 3], // forty-two
    ['100', 3], // one hundred
    ['342', 6], // three hundred forty-two
    ['1,250', 8], // one thousand two hundred fifty
    ['2005', 4], // two thousand five
    ['1999', 5], // nineteen ninety-nine (a year)
    ['1900', 4], // nineteen hundred
    ['1905', 4], // nineteen oh five
    ['2024', 5], // twenty twenty-four
    ['1,999', 9], // one thousand nine hundred ninety-nine (a quantity)
    ['3.14', 4], // three point one four
    ['007', 6], // zero zero seven
    ['12345678901234567', 20], // too long for a cardinal: digit by digit
  ])('%s → %i', (numeral, expected) => {
    expect(numberSyllables(numeral)).toBe(expected);
  });

  it.each([
    ['1', 1], // first
    ['2', 2], // second
    ['12', 1], // twelfth
    ['20', 3], // twentieth
    ['22', 4], // twenty-second
    ['100', 3], // one hundredth
  ])('ordinal %s → %i', (digits, expected) => {
    expect(ordinalSyllables(digits)).toBe(expected);
  });
});
