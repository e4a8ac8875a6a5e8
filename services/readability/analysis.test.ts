import { beforeAll, describe, expect, it } from 'vitest';
import { isComplexWord, measureText, readabilityReport } from './analysis.js';
import { loadSyllableCounter } from './dictionary.js';
import type { SyllableCounter } from './syllables.js';

/** The sample texts of the worked examples in formulas.test.ts, with the counts their sources publish. */
const CAT = 'The cat sat on the mat.';
const THIS_SENTENCE =
  'This sentence, taken as a reading passage unto itself, is being used to prove a point.';
const PLATYPUS = 'The Australian platypus is seemingly a hybrid of a mammal and reptilian creature.';
const PANGRAM = 'Cwm fjord-bank glyphs vext quiz.';
// Coleman & Liau (1975), abstract, as quoted by Wikipedia's "Coleman–Liau index".
const COLEMAN_LIAU_ABSTRACT =
  'Existing computer programs that measure readability are based largely upon subroutines which estimate ' +
  'number of syllables, usually by counting vowels. The shortcoming in estimating syllables is that it ' +
  'necessitates keypunching the prose into the computer. There is no need to estimate syllables since word ' +
  'length in letters is a better predictor of readability than word length in syllables. Therefore, a new ' +
  'readability formula was computed that has for its predictors letters per 100 words and sentences ' +
  'per 100 words. Both predictors can be counted by an optical scanning device, and thus the formula ' +
  'makes it economically feasible for an organization such as the U.S. Office of Education to calibrate ' +
  'the readability of all textbooks for the public school system.';
const ROCK_A_BYE =
  'Rock-a-bye baby, on the treetop.\nWhen the wind blows, the cradle will rock.\n' +
  'When the bough breaks, the cradle will fall.\nAnd down will come baby, cradle and all.';

let syllables: SyllableCounter;
beforeAll(async () => {
  syllables = await loadSyllableCounter();
});
const measure = (text: string) => measureText(text, syllables);
const report = (text: string) => readabilityReport(measure(text));

describe('the tokenizer finds the published counts of the worked examples', () => {
  it('"The cat sat on the mat.": 6 words, 6 syllables, 1 sentence → reading ease 116', () => {
    expect(measure(CAT)).toMatchObject({ words: 6, syllables: 6, sentences: 1 });
    expect(report(CAT).fleschReadingEase).toBe(116.15);
  });

  it('"This sentence, taken as a reading passage …": 16 words, 23 syllables → reading ease 69', () => {
    expect(measure(THIS_SENTENCE)).toMatchObject({ words: 16, syllables: 23, sentences: 1 });
    expect(Math.round(report(THIS_SENTENCE).fleschReadingEase)).toBe(69);
  });

  it('the platypus sentence: 13 words, 24 syllables → reading ease 37.5, grade 11.3', () => {
    expect(measure(PLATYPUS)).toMatchObject({ words: 13, syllables: 24, sentences: 1 });
    expect(report(PLATYPUS)).toMatchObject({ fleschReadingEase: 37.46, fleschKincaidGrade: 11.26 });
  });

  it('the "Cwm fjord-bank" pangram: 5 words, 6 syllables → reading ease 100, grade 0.52', () => {
    expect(measure(PANGRAM)).toMatchObject({ words: 5, syllables: 6, sentences: 1 });
    expect(report(PANGRAM)).toMatchObject({ fleschReadingEase: 100.24, fleschKincaidGrade: 0.52 });
  });

  it("Coleman and Liau's abstract: 5 sentences, 119 words, 639 letters or digits → grade 14.5", () => {
    expect(measure(COLEMAN_LIAU_ABSTRACT)).toMatchObject({ sentences: 5, words: 119, characters: 639 });
    expect(report(COLEMAN_LIAU_ABSTRACT)).toMatchObject({ colemanLiau: 14.53, ari: 15.76 });
  });

  it('the "Rock-a-bye baby" rhyme: 4 sentences, 29 words (hyphenated as one), no hard word → fog 2.9', () => {
    expect(measure(ROCK_A_BYE)).toMatchObject({ sentences: 4, words: 29, complexWords: 0 });
    expect(report(ROCK_A_BYE).gunningFog).toBe(2.9);
  });
});

describe("Gunning's hard words", () => {
  it('exclude proper nouns, hyphenated compounds, figures and -ed/-es/-ing made third syllables', () => {
    // Gunning's own examples of the suffix rule: "created", "trespasses".
    expect(isComplexWord('created', syllables('created'), false)).toBe(false);
    expect(isComplexWord('trespasses', syllables('trespasses'), false)).toBe(false);
    expect(isComplexWord('remembering', syllables('remembering'), false)).toBe(true); // 4 − 1 = 3
    expect(isComplexWord('Djibouti', 3, false)).toBe(false);
    expect(isComplexWord('Yesterday', 3, true)).toBe(true); // capitalized only as the first word
    expect(isComplexWord('well-organized', 5, false)).toBe(false);
    expect(isComplexWord('1999', 5, false)).toBe(false);
    expect(isComplexWord('beautiful', 3, false)).toBe(true);
    expect(isComplexWord('into', 2, false)).toBe(false);
  });

  it('in the platypus sentence: platypus, seemingly, reptilian (Australian is a proper noun)', () => {
    expect(measure(PLATYPUS)).toMatchObject({ complexWords: 3, polysyllables: 4 });
    const expected = 0.4 * (13 + 100 * (3 / 13)); // 14.4308
    expect(report(PLATYPUS).gunningFog).toBe(Math.round(expected * 100) / 100);
  });
});

describe("McLaughlin's SMOG counting rules", () => {
  it('count proper nouns, hyphenated words as a whole and figures as spoken', () => {
    // Australian (3), twenty-seven (3), 1969 (nineteen sixty-nine, 5); "cat" and "sat" are not.
    expect(measure('The Australian cat sat twenty-seven times in 1969.')).toMatchObject({ polysyllables: 3 });
  });
});

describe('readabilityReport', () => {
  it('rounds every score to two decimals and labels the rounded grade', () => {
    const r = report(COLEMAN_LIAU_ABSTRACT);
    for (const value of [r.fleschReadingEase, r.fleschKincaidGrade, r.gunningFog, r.smogGrade, r.ari]) {
      expect(Math.round(value * 100) / 100).toBe(value);
    }
    expect(r).toMatchObject({
      wordCount: 119,
      sentenceCount: 5,
      avgWordsPerSentence: 23.8,
      gradeLevel: 'College',
    });
  });
});

describe('edge cases', () => {
  it('one word without punctuation is one sentence', () => {
    expect(measure('Hello')).toMatchObject({ words: 1, sentences: 1, syllables: 2 });
    expect(report('Hello')).toMatchObject({ wordCount: 1, sentenceCount: 1, avgWordsPerSentence: 1 });
  });

  it('text without a word measures zero words (the service refuses it)', () => {
    expect(measure('!!! ... 😀 — %')).toMatchObject({ words: 0, sentences: 0 });
    expect(measure('   ')).toMatchObject({ words: 0, sentences: 0 });
  });

  it('numbers are words, spoken for syllables, their digits counted as characters', () => {
    expect(measure('It costs 3.14 dollars.')).toMatchObject({
      words: 4,
      syllables: 1 + 1 + 4 + 2,
      characters: 17,
    });
    expect(measure('42')).toMatchObject({ words: 1, sentences: 1, syllables: 3 });
  });

  it('Unicode punctuation: curly quotes, ellipsis, dashes, interrobangs and full-width stops', () => {
    expect(measure('“Stop!” she said… Then—quietly—she left‽ Done。Fine')).toMatchObject({ sentences: 4 });
    expect(measure('It’s the dog’s bone')).toMatchObject({ words: 4 });
  });

  it('four times the text takes about four times as long (linear, not quadratic)', () => {
    const extra = 'Dr. Smith, e.g., paid $3.14 at 5 p.m.… "Really?!" she asked.';
    const paragraph = `${COLEMAN_LIAU_ABSTRACT} ${extra}\n\n`;
    const text = (size: number) => paragraph.repeat(Math.ceil(size / paragraph.length)).slice(0, size);
    // Median of five runs, so a garbage collection or a busy machine does not decide the result.
    const time = (size: number) => {
      const input = text(size);
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        measure(input);
        runs.push(performance.now() - start);
      }
      return runs.sort((a, b) => a - b)[2]!;
    };
    time(64 * 1024); // warm the JIT and the syllable cache
    const kb64 = time(64 * 1024);
    const kb256 = time(256 * 1024);
    // Linear work gives a ratio near 4; quadratic work would give 16.
    expect(kb256 / Math.max(kb64, 2)).toBeLessThan(10);
  });

  it.each([
    ['one 64 KB word', 'a'.repeat(65_536)],
    ['64 KB of periods', '.'.repeat(65_536)],
    ['64 KB of one-letter sentences', 'a. '.repeat(21_845)],
    ['64 KB of abbreviations', 'e.g. '.repeat(13_107)],
    ['a 64 KB hyphenated chain', 'ab-'.repeat(21_845)],
    ['a 64 KB dotted chain', 'a.'.repeat(32_768)],
    ['64 KB of digits and commas', '1,'.repeat(32_768)],
    ['64 KB of list lines', '- x\n'.repeat(16_384)],
    ['64 KB of quotes after a period', `a. ${'"'.repeat(65_530)}`],
  ])(
    'pathological input finishes (a backtracking pattern would hit the test timeout): %s',
    (_name, input) => {
      const stats = measure(input);
      expect(stats.words).toBeGreaterThanOrEqual(0);
    },
  );
});
