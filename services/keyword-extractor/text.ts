/**
 * Splitting text into sentences, chunks and raw tokens (pure). A chunk is a run of tokens with nothing but white
 * space between them: punctuation (a comma, a bracket, a quote, a dash) ends it, and keyword candidates never
 * cross it. Scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) are cut into words by
 * `Intl.Segmenter`; everything else by the token pattern below, which keeps code-like tokens whole.
 */

export interface RawToken {
  readonly text: string;
  /** Cut by Intl.Segmenter from a script written without spaces. */
  readonly segmented: boolean;
  /** The first word of its sentence (its capital says nothing about it being a name). */
  readonly sentenceStart: boolean;
  /** White space separates it from the previous token of its chunk (false for "人工|知能"). */
  readonly spaceBefore: boolean;
}

export type Chunk = readonly RawToken[];
export type Sentence = readonly Chunk[];

/** Soft hyphen, zero-width space/joiners, word joiner, BOM. */
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

/** Compatibility forms folded (full-width letters, ligatures), invisible characters removed. */
export const normalizeText = (text: string): string => text.normalize('NFKC').replace(INVISIBLE, '');

const UNSPACED_CHAR =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}' +
  '\\p{Script=Khmer}\\p{Script=Myanmar}\\u3005\\u3006\\u30FC';
const UNSPACED_RUN = new RegExp(`[${UNSPACED_CHAR}]+`, 'gu');
const UNSPACED_AT_END = new RegExp(`[${UNSPACED_CHAR}]$`, 'u');
const UNSPACED_AT_START = new RegExp(`^[${UNSPACED_CHAR}]`, 'u');

const W = '[\\p{L}\\p{M}\\p{N}_]';
/**
 * A URL; or word characters joined by `'`, `-`, `.`, `/`, `@`, `+`, `#` or `::` (each followed by another word
 * character), optionally led by `--`/`-` before a letter (`--verbose`), by `@` or `$` (`@types/node`, `$HOME`)
 * or by `.` before a letter (`.NET`), and optionally ended by `++`, `#` or `()` (`C++`, `C#`, `getUserById()`).
 * So `Node.js`, `v2.3.1`, `HTTP/2`, `snake_case`, `don't` and `well-known` are one token each, while a
 * sentence's final period, a trailing apostrophe and a comma in `1,000` are not part of any token.
 */
const TOKEN = new RegExp(
  `https?://[^\\s<>"'\`]+[^\\s<>"'\`.,;:!?)\\]}]` +
    `|(?:(?<![\\p{L}\\p{N}.])(?:--?(?=\\p{L})|[@$](?=${W})|\\.(?=\\p{L})))?` +
    `${W}+(?:(?:::|['’\\-./@+#])${W}+)*(?:\\+\\+|#(?!${W})|\\(\\))?`,
  'gu',
);

/** A line that starts a new block: a list item, heading, quote, table row or code fence. */
const MARKER_LINE = /^\s*(?:[-*+•‣◦>|#]|\d{1,3}[.)]\s|`{3}|~{3})/u;
/** A line that is a block of its own: a Markdown heading or a code fence. */
const SINGLE_LINE = /^\s*(?:#{1,6}\s|`{3}|~{3})/u;

/**
 * Blocks of running text: a blank line or a marker line starts a new one, as does a line starting with a capital
 * after a line that ends in neither a lower-case letter nor a comma (a heading without punctuation); a heading
 * or a fence line is a block of its own. Other line breaks are hard wrapping: a space, or nothing between two
 * characters of an unspaced script.
 */
export function splitBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim() !== '') blocks.push(current.trim());
    current = '';
  };
  for (const line of text.split(/\r\n|[\n\r\u2028\u2029\v\f\u0085]/)) {
    const trimmed = line.trim();
    if (trimmed === '') {
      flush();
      continue;
    }
    const previous = current.trimEnd();
    const heading = /^\p{Lu}/u.test(trimmed) && previous !== '' && !/[\p{Ll},]$/u.test(previous);
    if (MARKER_LINE.test(line) || heading) flush();
    if (current === '') current = trimmed;
    else if (UNSPACED_AT_END.test(current) && UNSPACED_AT_START.test(trimmed)) current += trimmed;
    else current += ` ${trimmed}`;
    if (SINGLE_LINE.test(line)) flush();
  }
  flush();
  return blocks;
}

/** Titles and initials whose period is not a sentence end ("Mr. Holmes", "J. Watson", "e.g. this"). */
const ABBREVIATION_END =
  /(?:^|[\s(])(?:Mr|Mrs|Ms|Mx|Dr|Prof|St|Sr|Jr|Gen|Col|Capt|Lt|Sgt|Rev|Hon|Messrs|Mme|Mlle|vs|cf|viz|No|Fig|Vol|pp?|e\.g|i\.e|\p{Lu})\.\s*$/u;

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(language: string, granularity: 'word' | 'sentence'): Intl.Segmenter {
  const id = `${language}:${granularity}`;
  let s = segmenters.get(id);
  if (!s) {
    s = new Intl.Segmenter(language, { granularity });
    segmenters.set(id, s);
  }
  return s;
}

/** Sentences by Unicode sentence boundaries, with a period after a title or an initial not ending one. */
export function splitSentences(text: string, language: string): string[] {
  const sentences: string[] = [];
  for (const block of splitBlocks(text)) {
    let pending = '';
    for (const { segment } of segmenter(language, 'sentence').segment(block)) {
      pending += segment;
      if (ABBREVIATION_END.test(pending)) continue;
      if (pending.trim() !== '') sentences.push(pending.trim());
      pending = '';
    }
    if (pending.trim() !== '') sentences.push(pending.trim());
  }
  return sentences;
}

interface Located {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly segmented: boolean;
}

function locateTokens(sentence: string, language: string): Located[] {
  const found: Located[] = [];
  const latin = (from: number, to: number) => {
    for (const m of sentence.slice(from, to).matchAll(TOKEN)) {
      const start = from + m.index;
      found.push({ text: m[0], start, end: start + m[0].length, segmented: false });
    }
  };
  let cursor = 0;
  for (const run of sentence.matchAll(UNSPACED_RUN)) {
    latin(cursor, run.index);
    for (const s of segmenter(language, 'word').segment(run[0])) {
      if (!s.isWordLike) continue;
      const start = run.index + s.index;
      found.push({ text: s.segment, start, end: start + s.segment.length, segmented: true });
    }
    cursor = run.index + run[0].length;
  }
  latin(cursor, sentence.length);
  return found;
}

/** The chunks of one sentence. */
export function tokenizeSentence(sentence: string, language: string): Chunk[] {
  const chunks: RawToken[][] = [];
  let chunk: RawToken[] = [];
  let previousEnd = -1;
  for (const t of locateTokens(sentence, language)) {
    const gap = previousEnd < 0 ? '' : sentence.slice(previousEnd, t.start);
    if (/\S/u.test(gap) && chunk.length > 0) {
      chunks.push(chunk);
      chunk = [];
    }
    chunk.push({
      text: t.text,
      segmented: t.segmented,
      sentenceStart: previousEnd < 0,
      spaceBefore: chunk.length > 0 && gap !== '',
    });
    previousEnd = t.end;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The text as sentences of chunks of raw tokens; sentences without a token are dropped. */
export function tokenizeText(text: string, language: string): Sentence[] {
  return splitSentences(normalizeText(text), language)
    .map((s) => tokenizeSentence(s, language))
    .filter((chunks) => chunks.length > 0);
}
