import { detectLanguage } from './language.js';
import { mayReach, similarity } from './similarity.js';
import { stopwordsFor } from './stopwords.js';
import { tokenizeText } from './text.js';
import { classify, type Profile, type WordContext } from './words.js';
import { type RankedCandidate, rankCandidates, type WordSentence } from './yake.js';

export interface Keyword {
  readonly term: string;
  /** 0..1, higher is better: the best candidate's H over this one's (the best keyword scores 1). */
  readonly score: number;
}

export interface ExtractOptions {
  readonly profile: Profile;
  readonly maxKeywords: number;
  /** An ISO 639-1 code with a stop-word list, or `auto`. */
  readonly language: string;
}

export interface Extraction {
  readonly keywords: readonly Keyword[];
  /** Every word-like token: words, numbers, identifiers (stop words included). */
  readonly wordCount: number;
  /** The language used: the one given, or the one detected. */
  readonly language: string;
}

/** Two keywords whose comparison forms are at least this similar (1 − edit distance / length) are one. */
export const NEAR_DUPLICATE_SIMILARITY = 0.85;
/** Candidates examined for the answer, best first: bounds the work on texts full of near-duplicates. */
const MAX_EXAMINED = 5_000;

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** What near-duplicate detection compares: the comparison forms of a keyword's words that are not stop words. */
export interface Comparable {
  readonly forms: readonly string[];
  readonly form: string;
  readonly exact: boolean;
}

const formOf = (c: RankedCandidate): Comparable => {
  const forms = c.words.filter((w) => !w.stop).map((w) => w.form);
  return { forms, form: forms.join(' '), exact: c.words.some((w) => w.exact) };
};

/** `inner` occurs in `outer` as a run of consecutive words. */
function containsRun(outer: readonly string[], inner: readonly string[]): boolean {
  for (let i = 0; i + inner.length <= outer.length; i++) {
    if (inner.every((f, j) => outer[i + j] === f)) return true;
  }
  return false;
}

/**
 * A near-duplicate of an earlier (better) keyword: the same comparison forms ("right" / "rights", "governed" /
 * "government" in English), one's words a run of the other's ("Holmes" after "Sherlock Holmes", "late Irene
 * Adler" after "Irene Adler"), or, when neither holds an exact-only word (acronym, identifier, version), forms
 * at least NEAR_DUPLICATE_SIMILARITY alike ("derecho" / "derechos"). Inner stop words are not compared.
 */
export function isNearDuplicate(c: Comparable, kept: readonly Comparable[]): boolean {
  for (const k of kept) {
    if (k.form === c.form) return true;
    const [shorter, longer] = k.forms.length <= c.forms.length ? [k, c] : [c, k];
    if (containsRun(longer.forms, shorter.forms)) return true;
    if (k.exact || c.exact || !mayReach(k.form, c.form, NEAR_DUPLICATE_SIMILARITY)) continue;
    if (similarity(k.form, c.form) >= NEAR_DUPLICATE_SIMILARITY) return true;
  }
  return false;
}

/** Classified words of the text, sentence by sentence, chunk by chunk. */
export function analyze(text: string, ctx: WordContext): WordSentence[] {
  return tokenizeText(text, ctx.language).map((chunks) =>
    chunks.map((chunk) => chunk.map((token) => classify(token, ctx))),
  );
}

/** The keywords of one text, best first. */
export function extractKeywords(text: string, options: ExtractOptions): Extraction {
  const language = options.language === 'auto' ? detectLanguage(text) : options.language;
  const sentences = analyze(text, { profile: options.profile, language, stopwords: stopwordsFor(language) });
  let wordCount = 0;
  for (const chunks of sentences) for (const chunk of chunks) wordCount += chunk.length;

  const ranked = rankCandidates(sentences);
  const best = ranked[0]?.h ?? 1;
  const kept: Comparable[] = [];
  const keywords: Keyword[] = [];
  for (const c of ranked.slice(0, MAX_EXAMINED)) {
    if (keywords.length >= options.maxKeywords) break;
    const form = formOf(c);
    if (isNearDuplicate(form, kept)) continue;
    kept.push(form);
    keywords.push({ term: c.surface, score: round4(best / c.h) });
  }
  return { keywords, wordCount, language };
}
