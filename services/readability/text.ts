/**
 * Tokenization for the readability formulas: sentences, words and character counts. Pure and linear in the
 * length of the text (no regular expression here can backtrack over more than one token or one run of
 * spaces). The rules, and why, are in README.md ("Tokenization").
 */

/**
 * A word: letters, marks and digits, joined by apostrophes, hyphens or periods that sit between two of them
 * ("don't", "well-known", "U.S", "3.14", "example.com"), and by commas between digits ("1,000"). Flesch and
 * McLaughlin both count a hyphenated word, a contraction or a figure as one word.
 */
const WORD = /[\p{L}\p{M}\p{N}]+(?:(?:['’ʼ.\u2010\u2011-]|(?<=\p{N}),(?=\p{N}))[\p{L}\p{M}\p{N}]+)*/gu;

/** A run of sentence-ending punctuation, with the closing quotes and brackets that belong to the sentence. */
const TERMINATOR = /[.!?…‼‽⁇⁈⁉。．！？｡؟]+["'”’»›)\]}]*/gu;
const STRONG = /[!?‼‽⁇⁈⁉！？؟]/u;
/** Ideographic and full-width stops end a sentence without a following space. */
const IDEOGRAPHIC = /[。．！？｡]/u;
const CLOSERS = /["'”’»›)\]}]$/u;

/** A list item starts a new sentence; its marker is not a word. */
const LIST_MARKER = /^[ \t]*(?:[-*+•‣◦▪▫●○■□–—]|\(?(?:\d{1,3}|[a-z]|[ivx]{1,6})[.)])[ \t]+/u;
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/u;
/**
 * Invisible characters that would otherwise split or glue words: soft hyphen, zero-width space/joiners, BOM.
 */
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/gu;

const LOWER = /^\p{Ll}/u;
const UPPER = /^\p{Lu}/u;
const DIGIT = /^\p{N}/u;
const TOKEN_CHAR = /[\p{L}\p{M}\p{N}.'’ʼ\u2010\u2011-]/u;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** Periods after these never end a sentence: a name or a number follows them. */
const NEVER_FINAL = new Set([
  ...['mr', 'mrs', 'ms', 'mx', 'messrs', 'mme', 'mlle', 'dr', 'prof', 'rev', 'hon', 'fr', 'st', 'mt'],
  ...['gen', 'col', 'capt', 'cpt', 'lt', 'sgt', 'maj', 'cmdr', 'adm', 'gov', 'pres', 'sen', 'rep'],
  ...['e.g', 'i.e', 'cf', 'vs', 'viz', 'approx', 'ca', 'esp', 'incl'],
]);
/** Periods after these end a sentence unless a number follows ("No. 5", "Fig. 3", "pp. 10"). */
const BEFORE_NUMBER = new Set([
  ...['no', 'nos', 'fig', 'figs', 'vol', 'vols', 'p', 'pp'],
  ...['ch', 'chap', 'sec', 'art', 'eq'],
]);
/** Periods after these end a sentence only when a capital letter follows ("etc. The …" but "etc. and …"). */
const SOMETIMES_FINAL = new Set([
  ...['etc', 'al', 'inc', 'ltd', 'co', 'corp', 'llc', 'plc', 'bros', 'jr', 'sr', 'esq'],
  ...['jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec'],
]);
/** The token before a period is looked at only this far back: abbreviations are short. */
const MAX_ABBREVIATION = 24;

/** Soft hyphens and zero-width characters removed; NFC so "é" is one letter however it was typed. */
export function normalizeText(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE, '');
}

/**
 * The sentences of a text, trimmed. Only sentences with at least one word are returned, so a stray "..." or a
 * bare list bullet is not a sentence. Call with normalized text (normalizeText) for stable results.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  const push = (sentence: string) => {
    const trimmed = sentence.trim();
    if (HAS_WORD.test(trimmed)) sentences.push(trimmed);
  };
  for (const block of blocks(text)) {
    let start = 0;
    for (const match of block.matchAll(TERMINATOR)) {
      const end = match.index + match[0].length;
      if (endsSentence(block, match.index, match[0], end)) {
        push(block.slice(start, end));
        start = end;
      }
    }
    push(block.slice(start));
  }
  return sentences;
}

/** The words of a text or sentence, in order. */
export function splitWords(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * Letters and digits of a word: Coleman–Liau's "letters" and the ARI's "characters" (Wikipedia's worked
 * Coleman–Liau example counts "letters or digits"); apostrophes, hyphens and periods are not counted.
 */
export function countCharacters(word: string): number {
  let n = 0;
  for (const ch of word) if (HAS_WORD.test(ch)) n++;
  return n;
}

/**
 * Splits text at hard boundaries: a blank line, a list item, or a line that does not continue the previous
 * one. A line continues the previous one only when it starts with a lower-case letter, so hard-wrapped prose
 * stays one sentence while headings, list items without markers and address lines do not run into the next
 * line.
 */
function blocks(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 0) out.push(current.join(' '));
    current = [];
  };
  for (const raw of text.split(LINE_BREAK)) {
    const marker = LIST_MARKER.exec(raw);
    const line = marker ? raw.slice(marker[0].length) : raw;
    const trimmed = line.trimStart();
    if (trimmed === '') {
      flush();
      continue;
    }
    if (marker || !LOWER.test(trimmed)) flush();
    current.push(line);
  }
  flush();
  return out;
}

/** Whether the terminator run `run` at `[index, end)` ends a sentence. */
function endsSentence(block: string, index: number, run: string, end: number): boolean {
  if (IDEOGRAPHIC.test(run)) return true;
  // "3.14", "e.g.x", ".NET", "?!)" glued to the next word: not a boundary.
  if (end < block.length && !/\s/u.test(block[end]!)) return false;
  const next = nextVisible(block, end);
  if (next === '') return true;
  const ellipsis = run.includes('…') || run.indexOf('.') !== run.lastIndexOf('.');
  // "'Really?' she asked." and "I thought… maybe not": a lower-case continuation is the same sentence.
  if (STRONG.test(run) || ellipsis) return !LOWER.test(next);
  // After a closing quote or bracket the sentence is over, even after an abbreviation, unless the text goes
  // on in lower case ("'Fine.' she said").
  if (CLOSERS.test(run)) return !LOWER.test(next);
  return periodEndsSentence(tokenBefore(block, index), next);
}

/** A single period after `token` (as written, without the period), followed by the character `next`. */
function periodEndsSentence(token: string, next: string): boolean {
  if (token === '') return true;
  const lower = token.toLowerCase();
  if (NEVER_FINAL.has(lower)) return false;
  // Initials: "J. R. R. Tolkien".
  if (token.length === 1 && UPPER.test(token)) return false;
  if (BEFORE_NUMBER.has(lower)) return !DIGIT.test(next);
  // Dotted upper-case abbreviations name things ("U.S. Office", "U.K. law"); a following capital is a name.
  if (/^(?:\p{Lu}\.)+\p{Lu}$/u.test(token)) return false;
  // Other dotted abbreviations ("a.m.", "Ph.D.") and the listed ones end a sentence before a capital only.
  if (SOMETIMES_FINAL.has(lower) || /^(?:\p{L}\.)+\p{L}$/u.test(token)) return UPPER.test(next);
  return true;
}

/** The word-like token ending just before `index`, or '' when it is longer than any abbreviation. */
function tokenBefore(block: string, index: number): string {
  let start = index;
  while (start > 0 && index - start <= MAX_ABBREVIATION && TOKEN_CHAR.test(block[start - 1]!)) start--;
  if (index - start > MAX_ABBREVIATION) return '';
  return block.slice(start, index);
}

/** The first character after `from` that is not white space and not an opening quote or bracket. */
function nextVisible(block: string, from: number): string {
  let i = from;
  while (i < block.length && /[\s"'“‘«‹([{]/u.test(block[i]!)) i++;
  return block[i] ?? '';
}
