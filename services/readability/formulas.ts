/**
 * The readability formulas, as published, over the counts of a text. Each returns the raw value; rounding is
 * the report's job (round2) so that tests can check the formulas to full precision against worked examples.
 */

/** The counts every formula draws on. Callers guarantee words ≥ 1 and sentences ≥ 1. */
export interface TextStatistics {
  readonly sentences: number;
  readonly words: number;
  readonly syllables: number;
  /** Letters and digits: Coleman–Liau's "letters" and the ARI's "characters". */
  readonly characters: number;
  /** Words of three or more syllables, every one counted (SMOG). */
  readonly polysyllables: number;
  /** Gunning's hard words: three or more syllables, with his exclusions (see isComplexWord). */
  readonly complexWords: number;
}

type Counts<K extends keyof TextStatistics> = Pick<TextStatistics, K>;

const wordsPerSentence = (s: Counts<'words' | 'sentences'>): number => s.words / s.sentences;
const syllablesPerWord = (s: Counts<'words' | 'syllables'>): number => s.syllables / s.words;

/** Flesch (1948): 206.835 − 1.015 (words/sentences) − 84.6 (syllables/words). Higher is easier; unbounded. */
export function fleschReadingEase(s: Counts<'words' | 'sentences' | 'syllables'>): number {
  return 206.835 - 1.015 * wordsPerSentence(s) - 84.6 * syllablesPerWord(s);
}

/** Kincaid et al. (1975): 0.39 (words/sentences) + 11.8 (syllables/words) − 15.59. A US school grade. */
export function fleschKincaidGrade(s: Counts<'words' | 'sentences' | 'syllables'>): number {
  return 0.39 * wordsPerSentence(s) + 11.8 * syllablesPerWord(s) - 15.59;
}

/** Gunning (1952): 0.4 ((words/sentences) + 100 (complex words/words)). */
export function gunningFog(s: Counts<'words' | 'sentences' | 'complexWords'>): number {
  return 0.4 * (wordsPerSentence(s) + (100 * s.complexWords) / s.words);
}

/** Coleman & Liau (1975): 0.0588 L − 0.296 S − 15.8, L letters and S sentences per 100 words. */
export function colemanLiau(s: Counts<'words' | 'sentences' | 'characters'>): number {
  const lettersPer100 = (100 * s.characters) / s.words;
  const sentencesPer100 = (100 * s.sentences) / s.words;
  return 0.0588 * lettersPer100 - 0.296 * sentencesPer100 - 15.8;
}

/**
 * McLaughlin (1969): 1.0430 √(polysyllables × 30 / sentences) + 3.1291, his regression formula with the
 * polysyllable count scaled to a 30-sentence sample (texts shorter than 30 sentences are extrapolated).
 */
export function smogGrade(s: Counts<'sentences' | 'polysyllables'>): number {
  return 1.043 * Math.sqrt((s.polysyllables * 30) / s.sentences) + 3.1291;
}

/** Smith & Senter (1967): 4.71 (characters/words) + 0.5 (words/sentences) − 21.43. */
export function automatedReadabilityIndex(s: Counts<'words' | 'sentences' | 'characters'>): number {
  return 4.71 * (s.characters / s.words) + 0.5 * wordsPerSentence(s) - 21.43;
}

/**
 * To the nearest hundredth, halves away from zero (of the binary value: 1.005 is stored as 1.00499… and gives
 * 1); never -0, which would otherwise serialize as 0 but compare oddly.
 */
export function round2(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 100)) / 100;
  return rounded === 0 ? 0 : rounded;
}

/**
 * School levels of Flesch's reading-ease table (Flesch, "How to Write Plain English"), placed on the
 * Flesch–Kincaid grade: `below` is the first grade that no longer gets the label. README.md has the table.
 */
export const GRADE_LEVELS = [
  { below: 6, label: '5th grade' }, // reading ease 90–100: very easy
  { below: 7, label: '6th grade' }, // 80–90: easy
  { below: 8, label: '7th grade' }, // 70–80: fairly easy
  { below: 10, label: '8th-9th grade' }, // 60–70: plain English
  { below: 13, label: '10th-12th grade' }, // 50–60: fairly difficult
  { below: 16, label: 'College' }, // 30–50: difficult
  { below: 18, label: 'College graduate' }, // 10–30: very difficult
  { below: Number.POSITIVE_INFINITY, label: 'Professional' }, // 0–10: extremely difficult
] as const;

export type GradeLevel = (typeof GRADE_LEVELS)[number]['label'];

/**
 * The label for a Flesch–Kincaid grade; pass the rounded grade the caller sees, so label and number agree.
 */
export function gradeLevel(fleschKincaid: number): GradeLevel {
  for (const level of GRADE_LEVELS) if (fleschKincaid < level.below) return level.label;
  return 'Professional';
}
