import {
  automatedReadabilityIndex,
  colemanLiau,
  fleschKincaidGrade,
  fleschReadingEase,
  type GradeLevel,
  gradeLevel,
  gunningFog,
  round2,
  smogGrade,
  type TextStatistics,
} from './formulas.js';
import type { SyllableCounter } from './syllables.js';
import { countCharacters, normalizeText, splitSentences, splitWords } from './text.js';

/** Every score, rounded to two decimals, and the counts behind them. */
export interface ReadabilityReport {
  readonly fleschKincaidGrade: number;
  readonly fleschReadingEase: number;
  readonly gunningFog: number;
  readonly colemanLiau: number;
  readonly smogGrade: number;
  readonly ari: number;
  /** From the rounded Flesch–Kincaid grade (GRADE_LEVELS). */
  readonly gradeLevel: GradeLevel;
  readonly wordCount: number;
  readonly sentenceCount: number;
  readonly avgWordsPerSentence: number;
}

/** One pass over the text: sentences, then the words of each, each word's syllables counted once. */
export function measureText(text: string, syllables: SyllableCounter): TextStatistics {
  let sentences = 0;
  let words = 0;
  let syllableTotal = 0;
  let characters = 0;
  let polysyllables = 0;
  let complexWords = 0;
  for (const sentence of splitSentences(normalizeText(text))) {
    const tokens = splitWords(sentence);
    if (tokens.length === 0) continue;
    sentences++;
    tokens.forEach((word, index) => {
      const n = syllables(word);
      words++;
      syllableTotal += n;
      characters += countCharacters(word);
      if (n >= 3) polysyllables++;
      if (isComplexWord(word, n, index === 0)) complexWords++;
    });
  }
  return { sentences, words, syllables: syllableTotal, characters, polysyllables, complexWords };
}

/**
 * -ing, -ed after t/d and -es after a sibilant add a syllable Gunning does not count ("created",
 * "trespasses").
 */
const SUFFIX_SYLLABLE = /(?:ing|[td]ed|(?:[sxzcg]|[cs]h)es)$/i;

/**
 * Gunning's hard word: three or more syllables, except proper nouns (capitalized other than at the start of a
 * sentence), hyphenated compounds, words whose third syllable is an -es, -ed or -ing ending, and figures. His
 * unhyphenated compounds ("bookkeeper") and "familiar jargon" cannot be told apart mechanically and count.
 */
export function isComplexWord(word: string, syllables: number, sentenceStart: boolean): boolean {
  if (syllables < 3 || /\p{N}/u.test(word)) return false;
  if (!sentenceStart && /^\p{Lu}/u.test(word)) return false;
  if (/[-\u2010\u2011]/.test(word)) return false;
  return syllables - (SUFFIX_SYLLABLE.test(word) ? 1 : 0) >= 3;
}

/** The report for measured text; `stats` must have at least one word (the service refuses text without). */
export function readabilityReport(stats: TextStatistics): ReadabilityReport {
  const fleschKincaid = round2(fleschKincaidGrade(stats));
  return {
    fleschKincaidGrade: fleschKincaid,
    fleschReadingEase: round2(fleschReadingEase(stats)),
    gunningFog: round2(gunningFog(stats)),
    colemanLiau: round2(colemanLiau(stats)),
    smogGrade: round2(smogGrade(stats)),
    ari: round2(automatedReadabilityIndex(stats)),
    gradeLevel: gradeLevel(fleschKincaid),
    wordCount: stats.words,
    sentenceCount: stats.sentences,
    avgWordsPerSentence: round2(stats.words / stats.sentences),
  };
}
