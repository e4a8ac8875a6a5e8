import { createRequire } from 'node:module';

type StopwordTable = Readonly<Record<string, readonly string[]>>;

/**
 * English words of the stopwords-iso list that name things a text can be about. The list merges many sources,
 * web-search ones among them, so it also holds nouns such as "state", "system", "research" or "http"; an
 * extractor that dropped them could never return "United States" or "HTTP client".
 */
const ENGLISH_CONTENT_WORDS = (
  'act area areas bill biol caption case cases click computer copy date edu face faces fact facts fire ' +
  'goods gov group grouped grouping groups home homepage htm html http index information interest ' +
  'interests invention keys length line man member members men microsoft msie mug name net netscape ' +
  'novel null number numbers order orders page pages part parts place places point points problem ' +
  'problems research results right rights ring room rooms run section side sides site state states stop ' +
  'system test text tip top value web webpage website width words work worked working works world www ' +
  'year years'
).split(' ');

/**
 * The list also carries every two-letter ISO 3166 country code ("ai", "io", "uk"). Words that short are never
 * keywords anyway (see `isShortWord`), but an upper-case acronym ("AI", "UK") is checked against the list,
 * so only real English function words of one or two letters stay in it.
 */
const ENGLISH_SHORT_FUNCTION_WORDS = new Set(
  'a i am an as at be by do go he if in is it me my no of oh ok on or so to up us we ye'.split(' '),
);

let table: StopwordTable | undefined;
const cache = new Map<string, ReadonlySet<string>>();

/** The stopwords-iso table (58 languages, 200 KB), read once on first use. */
function stopwordTable(): StopwordTable {
  table ??= createRequire(import.meta.url)('stopwords-iso') as StopwordTable;
  return table;
}

/** ISO 639-1 codes that have a stop-word list: the languages the extractor supports. */
export function stopwordLanguages(): readonly string[] {
  return Object.keys(stopwordTable()).sort();
}

/** Lower-case stop words of `language` (empty for a language without a list). */
export function stopwordsFor(language: string): ReadonlySet<string> {
  const cached = cache.get(language);
  if (cached) return cached;
  let words = (stopwordTable()[language] ?? []).map((w) => w.normalize('NFKC').toLowerCase());
  if (language === 'en') {
    const content = new Set(ENGLISH_CONTENT_WORDS);
    words = words.filter((w) => !content.has(w) && (w.length > 2 || ENGLISH_SHORT_FUNCTION_WORDS.has(w)));
  }
  const set = new Set(words);
  cache.set(language, set);
  return set;
}
