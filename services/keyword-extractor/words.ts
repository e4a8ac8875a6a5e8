import { porterStem } from './stemmer.js';
import type { RawToken } from './text.js';

export type Profile = 'GENERAL' | 'TECHNICAL';

/**
 * YAKE's token tags: `p` plain word, `n` capitalized word inside a sentence (a name), `a` acronym (all
 * capitals), `d` number, `u` unusual (mixes letters with digits or symbols: never part of a keyword). The
 * TECHNICAL profile adds `t`: an identifier, version or code token kept whole (`Node.js`, `v2.3.1`,
 * `HTTP/2`, `getUserById`, `snake_case`, `C++`), which GENERAL tags `u`.
 */
export type Tag = 'p' | 'n' | 'a' | 't' | 'd' | 'u';

export interface Word {
  /** Identity of the term: lower-case, plural folded where the language marks plurals with -s. */
  readonly key: string;
  /** How the word reads in a keyword: as written, but a sentence's capitalized first word in lower case. */
  readonly surface: string;
  readonly tag: Tag;
  readonly stop: boolean;
  /** Comparison form for near-duplicates: an English stem, or the lower-case word without diacritics. */
  readonly form: string;
  /** Compared only for equality, never by edit distance (`v2.3.1` and `v2.3.2` are different keywords). */
  readonly exact: boolean;
  readonly spaceBefore: boolean;
}

export interface WordContext {
  readonly profile: Profile;
  readonly language: string;
  readonly stopwords: ReadonlySet<string>;
}

/** Languages whose plural adds -s: "rights" and "right" are one term there. */
const S_PLURAL_LANGUAGES = new Set(['en', 'fr', 'es', 'pt', 'ca', 'gl']);

const URL_OR_EMAIL = /^(?:https?:\/\/|[^@\s]+@[^@\s]+\.\p{L}{2,}$)/u;
const NUMBER = /^[-+]?\p{N}[\p{N}.,:'’/-]*$/u;
/** `2nd`, `1990s`, `10ms`, `24h`: a figure with a short lower-case suffix (ordinal, decade, unit). */
const FIGURE_WITH_SUFFIX = /^\p{N}+\p{Ll}{1,3}$/u;
/** Letters, with apostrophes or hyphens only between letters. */
const PLAIN_WORD = /^\p{L}\p{M}*(?:\p{L}\p{M}*|['’-](?=\p{L}))*$/u;
/** `e.g`, `U.S`, `a.m`: single letters and periods, read as the letters alone. */
const DOTTED_INITIALS = /^(?:\p{L}\.)+\p{L}$/u;
/** `and/or`, `his/her`: lower-case words joined by a slash. */
const SLASHED_WORDS = /^\p{Ll}+(?:\/\p{Ll}+)+$/u;
/** Han numerals (二千, 二十): figures, like 2000 and 20. */
const HAN_NUMERAL = /^[〇零一二三四五六七八九十百千万萬亿億兩两]+$/u;
/** `APIs`, `URLs`: the plural of an acronym. */
const ACRONYM_PLURAL = /^\p{Lu}{2,}s$/u;
const HIRAGANA_ONLY = /^[\p{Script=Hiragana}\u30FC]+$/u;
const LATIN = /^[\p{Script=Latin}'’-]+$/u;

const letterCount = (s: string): number => s.match(/\p{L}/gu)?.length ?? 0;
const isAllCaps = (s: string): boolean => /\p{Lu}/u.test(s) && !/\p{Ll}/u.test(s);
const isCapitalized = (s: string): boolean => /^\p{Lu}/u.test(s);

function foldPlural(lower: string, language: string): string {
  if (!S_PLURAL_LANGUAGES.has(language) || lower.length <= 3 || !lower.endsWith('s')) return lower;
  if (/(?:ss|us|is|['’]s)$/u.test(lower)) return lower;
  if (language === 'en' && lower.length > 4 && lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  return lower.slice(0, -1);
}

function comparisonForm(lower: string, language: string): string {
  if (language === 'en') return lower.split('-').map(porterStem).join('-');
  return LATIN.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower;
}

/** Tags and normalizes one token. */
export function classify(token: RawToken, ctx: WordContext): Word {
  const { spaceBefore } = token;
  if (token.segmented) {
    const key = token.text.toLowerCase();
    if (HAN_NUMERAL.test(key)) {
      return { key, surface: token.text, tag: 'd', stop: false, form: key, exact: true, spaceBefore };
    }
    // Hiragana-only words in Japanese are particles, auxiliaries and inflections, the language's glue.
    const stop = ctx.stopwords.has(key) || (ctx.language === 'ja' && HIRAGANA_ONLY.test(key));
    return { key, surface: token.text, tag: 'p', stop, form: key, exact: false, spaceBefore };
  }
  let text = token.text.replaceAll('’', "'");
  // As written, possessive included ("Nature's God"); only the term's identity drops the possessive.
  let written = token.text;
  const unusual = (): Word => {
    const lower = text.toLowerCase();
    return { key: lower, surface: text, tag: 'u', stop: false, form: lower, exact: true, spaceBefore };
  };
  if (URL_OR_EMAIL.test(text)) return unusual();
  const call = text.endsWith('()');
  if (call) {
    text = text.slice(0, -2);
    written = written.slice(0, -2);
  }
  if (DOTTED_INITIALS.test(text)) {
    text = text.replaceAll('.', '');
    written = text;
  }
  if (/^[\p{L}\p{M}'-]+'s$/iu.test(text)) text = text.slice(0, -2);
  if (NUMBER.test(text) || FIGURE_WITH_SUFFIX.test(text)) {
    return { key: text, surface: text, tag: 'd', stop: false, form: text, exact: true, spaceBefore };
  }
  const technical = ctx.profile === 'TECHNICAL';
  if (!PLAIN_WORD.test(text) || call) {
    if (!technical || SLASHED_WORDS.test(text) || letterCount(text) === 0) return unusual();
    const lower = text.toLowerCase();
    return { key: lower, surface: written, tag: 't', stop: false, form: lower, exact: true, spaceBefore };
  }

  const lower = text.toLowerCase();
  let tag: Tag;
  const acronymPlural = ACRONYM_PLURAL.test(text);
  if ((isAllCaps(text) && letterCount(text) >= 2) || acronymPlural) tag = 'a';
  else if (technical && /\p{Ll}\p{Lu}/u.test(text)) tag = 't';
  else if (isCapitalized(text) && !token.sentenceStart) tag = 'n';
  else tag = 'p';

  let key = foldPlural(lower, ctx.language);
  if (tag === 'a' || tag === 't') key = acronymPlural ? lower.slice(0, -1) : lower;
  // The word as written decides, not its folded key: "news" is no stop word though "new" is.
  const stop = tag !== 't' && (ctx.stopwords.has(lower) || (tag !== 'a' && letterCount(text) < 3));
  const surface =
    tag === 'p' && token.sentenceStart && /^\p{Lu}\p{Ll}*$/u.test(text) ? written.toLowerCase() : written;
  const exact = tag === 'a' || tag === 't';
  const form = exact ? lower : comparisonForm(lower, ctx.language);
  return { key, surface, tag, stop, form, exact, spaceBefore };
}
