import { describe, expect, it } from 'vitest';
import {
  automatedReadabilityIndex,
  colemanLiau,
  fleschKincaidGrade,
  fleschReadingEase,
  GRADE_LEVELS,
  gradeLevel,
  gunningFog,
  round2,
  smogGrade,
} from './formulas.js';

/**
 * Each formula against worked examples whose counts were published with them. The expected value is computed
 * by hand from those counts (written out, so a wrong coefficient cannot hide), and compared with the
 * published score at the precision it was published. analysis.test.ts checks that the tokenizer finds the
 * same counts.
 */

describe('Flesch reading ease', () => {
  // Wikipedia, "Flesch–Kincaid readability tests" (revision of 30 November 2023): "The cat sat on the mat."
  // scores 116; the highest possible score is 121.22. Counts: 6 words, 6 syllables, 1 sentence.
  it('"The cat sat on the mat." scores 116', () => {
    const expected = 206.835 - 1.015 * (6 / 1) - 84.6 * (6 / 6); // 116.145
    expect(fleschReadingEase({ words: 6, sentences: 1, syllables: 6 })).toBeCloseTo(expected, 10);
    expect(Math.round(expected)).toBe(116);
  });

  it('one one-syllable word per sentence gives the maximum, 121.22', () => {
    const expected = 206.835 - 1.015 - 84.6; // 121.22
    expect(fleschReadingEase({ words: 1, sentences: 1, syllables: 1 })).toBeCloseTo(expected, 10);
    expect(round2(expected)).toBe(121.22);
  });

  // Same article: "This sentence, taken as a reading passage unto itself, is being used to prove a point."
  // has a readability of 69. It gives no counts; by hand: 16 words, 23 syllables
  // (this, sen-tence, ta-ken, as, a, read-ing, pas-sage, un-to, it-self, is, be-ing, used, to, prove, a,
  // point).
  it('"This sentence, taken as a reading passage unto itself, …" scores 69', () => {
    const expected = 206.835 - 1.015 * 16 - 84.6 * (23 / 16); // 68.9825
    expect(fleschReadingEase({ words: 16, sentences: 1, syllables: 23 })).toBeCloseTo(expected, 10);
    expect(Math.round(expected)).toBe(69);
  });

  // Same article: "The Australian platypus is seemingly a hybrid of a mammal and reptilian creature." scores
  // 37.5 "as it has 24 syllables and 13 words".
  it('the platypus sentence (24 syllables, 13 words) scores 37.5', () => {
    const expected = 206.835 - 1.015 * 13 - 84.6 * (24 / 13); // 37.455
    expect(fleschReadingEase({ words: 13, sentences: 1, syllables: 24 })).toBeCloseTo(expected, 10);
    expect(expected.toFixed(1)).toBe('37.5');
  });

  // Same article, Limitations: the pangram "Cwm fjord-bank glyphs vext quiz." has a reading ease of 100 and a
  // grade level of 0.52. Both published scores hold only for 5 words and 6 syllables (fjord-bank: 1 word, 2).
  it('"Cwm fjord-bank glyphs vext quiz." scores 100', () => {
    const expected = 206.835 - 1.015 * 5 - 84.6 * (6 / 5); // 100.24
    expect(fleschReadingEase({ words: 5, sentences: 1, syllables: 6 })).toBeCloseTo(expected, 10);
    expect(Math.round(expected)).toBe(100);
  });
});

describe('Flesch–Kincaid grade', () => {
  it('the platypus sentence (24 syllables, 13 words) is grade 11.3', () => {
    const expected = 0.39 * 13 + 11.8 * (24 / 13) - 15.59; // 11.2646…
    expect(fleschKincaidGrade({ words: 13, sentences: 1, syllables: 24 })).toBeCloseTo(expected, 10);
    expect(expected.toFixed(1)).toBe('11.3');
  });

  it('"Cwm fjord-bank glyphs vext quiz." is grade 0.52', () => {
    const expected = 0.39 * 5 + 11.8 * (6 / 5) - 15.59; // 0.52
    expect(fleschKincaidGrade({ words: 5, sentences: 1, syllables: 6 })).toBeCloseTo(expected, 10);
    expect(round2(expected)).toBe(0.52);
  });

  // Same article: the lowest grade in theory is −3.40; Green Eggs and Ham averages 5.7 words per sentence and
  // 1.02 syllables per word, grade −1.3. Only the averages are published, so the counts are per one sentence.
  it('has a theoretical minimum of −3.40 and gives Green Eggs and Ham −1.3', () => {
    expect(round2(fleschKincaidGrade({ words: 1, sentences: 1, syllables: 1 }))).toBe(-3.4);
    const expected = 0.39 * 5.7 + 11.8 * 1.02 - 15.59; // −1.331
    expect(fleschKincaidGrade({ words: 5.7, sentences: 1, syllables: 5.7 * 1.02 })).toBeCloseTo(expected, 10);
    expect(expected.toFixed(1)).toBe('-1.3');
  });
});

describe('Gunning fog index', () => {
  // Anne Stilman, "Grammatically Correct" (Writer's Digest Books, 1997), chapter on style: a 100-word sample
  // with five sentences (20 words per sentence) and 14 words of three or more syllables: (20 + 14) × 0.4 =
  // 13.6.
  it("Stilman's worked example (100 words, 5 sentences, 14 hard words) is 13.6", () => {
    const expected = 0.4 * (100 / 5 + 100 * (14 / 100)); // 13.6
    expect(gunningFog({ words: 100, sentences: 5, complexWords: 14 })).toBeCloseTo(expected, 10);
    expect(round2(expected)).toBe(13.6);
  });

  // odlt.org, "Gunning Fog Index": the rhyme "Rock-a-bye baby, on the treetop. …" (4 sentences, no hard word)
  // has an index of 3.1, which is 0.4 × 31 / 4: that count takes "Rock-a-bye" as three words. This service
  // counts a hyphenated word as one (as Flesch and McLaughlin do), so the same text gives 29 words and 2.9.
  it('the "Rock-a-bye baby" rhyme is 3.1 with 31 words, 2.9 with our 29', () => {
    expect(gunningFog({ words: 31, sentences: 4, complexWords: 0 })).toBeCloseTo(0.4 * (31 / 4), 10);
    expect(round2(0.4 * (31 / 4))).toBe(3.1);
    expect(round2(gunningFog({ words: 29, sentences: 4, complexWords: 0 }))).toBe(2.9);
  });
});

describe('Coleman–Liau index', () => {
  // Wikipedia, "Coleman–Liau index": the abstract of Coleman and Liau's 1975 paper has 5 sentences, 119 words
  // and 639 letters or digits; L = 639 / 119 × 100 ≈ 537, S = 5 / 119 × 100 ≈ 4.20, grade 14.5.
  it("Coleman and Liau's abstract (5 sentences, 119 words, 639 letters) is grade 14.5", () => {
    const L = (639 / 119) * 100; // 536.97
    const S = (5 / 119) * 100; // 4.2017
    const expected = 0.0588 * L - 0.296 * S - 15.8; // 14.5305
    expect(colemanLiau({ words: 119, sentences: 5, characters: 639 })).toBeCloseTo(expected, 10);
    expect(expected.toFixed(1)).toBe('14.5');
    // Wikipedia rounds L and S before applying the formula; the result is the same to one decimal.
    expect((0.0588 * 537 - 0.296 * 4.2 - 15.8).toFixed(1)).toBe('14.5');
  });
});

describe('SMOG grade', () => {
  // G. Harry McLaughlin, "SMOG Grading — a New Readability Formula", Journal of Reading 12(8), 639–646
  // (1969), step 3: a count of 95 polysyllables in 30 sentences → nearest perfect square 100 → √ = 10, + 3 =
  // grade 13. His regression formula (given with the paper, and on harrymclaughlin.com): 1.0430 √(count) +
  // 3.1291.
  it("McLaughlin's example (95 polysyllables in 30 sentences) is grade 13", () => {
    const expected = 1.043 * Math.sqrt(95) + 3.1291; // 13.2951
    expect(smogGrade({ sentences: 30, polysyllables: 95 })).toBeCloseTo(expected, 10);
    expect(Math.round(expected)).toBe(13);
    expect(3 + Math.sqrt(100)).toBe(13); // his quick approximation of the same count
  });

  it('scales a shorter text to the 30-sentence sample', () => {
    // 10 sentences with 19 polysyllables read as 30 sentences with 57.
    expect(smogGrade({ sentences: 10, polysyllables: 19 })).toBeCloseTo(1.043 * Math.sqrt(57) + 3.1291, 10);
    expect(round2(smogGrade({ sentences: 1, polysyllables: 0 }))).toBe(3.13);
  });
});

describe('Automated readability index', () => {
  // Smith & Senter, "Automated Readability Index", AMRL-TR-66-220 (1967): 4.71 (characters/words) + 0.5
  // (words/sentences) − 21.43, characters being letters and numbers (Wikipedia, "Automated readability
  // index"). Neither source carries a worked example, so this applies it to the published counts of the
  // Coleman–Liau abstract above (639 letters or digits, 119 words, 5 sentences).
  it('the Coleman–Liau abstract counts give 15.76', () => {
    const expected = 4.71 * (639 / 119) + 0.5 * (119 / 5) - 21.43; // 25.2918 + 11.9 − 21.43 = 15.7618
    expect(automatedReadabilityIndex({ words: 119, sentences: 5, characters: 639 })).toBeCloseTo(
      expected,
      10,
    );
    expect(round2(expected)).toBe(15.76);
  });

  it('"The cat sat on the mat." (17 letters, 6 words) is −5.09', () => {
    const expected = 4.71 * (17 / 6) + 0.5 * 6 - 21.43; // −5.085
    expect(automatedReadabilityIndex({ words: 6, sentences: 1, characters: 17 })).toBeCloseTo(expected, 10);
  });
});

describe('round2', () => {
  it('rounds to hundredths, halves away from zero, and never returns -0', () => {
    expect(round2(11.264615)).toBe(11.26);
    expect(round2(116.145)).toBe(116.15);
    expect(round2(-5.085)).toBe(-5.09);
    expect(round2(2.5)).toBe(2.5);
    expect(Object.is(round2(-0.001), 0)).toBe(true);
  });
});

describe('gradeLevel', () => {
  it.each([
    [-3.4, '5th grade'],
    [5.99, '5th grade'],
    [6, '6th grade'],
    [7.5, '7th grade'],
    [8, '8th-9th grade'],
    [9.99, '8th-9th grade'],
    [10, '10th-12th grade'],
    [12.99, '10th-12th grade'],
    [13, 'College'],
    [15.99, 'College'],
    [16, 'College graduate'],
    [17.99, 'College graduate'],
    [18, 'Professional'],
    [250, 'Professional'],
  ])('grade %d → %s', (grade, label) => {
    expect(gradeLevel(grade)).toBe(label);
  });

  it('labels are the school levels of Flesch’s reading-ease table, easiest first', () => {
    expect(GRADE_LEVELS.map((l) => l.label)).toEqual([
      '5th grade',
      '6th grade',
      '7th grade',
      '8th-9th grade',
      '10th-12th grade',
      'College',
      'College graduate',
      'Professional',
    ]);
  });
});
