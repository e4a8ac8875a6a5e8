import { stopwordLanguages, stopwordsFor } from './stopwords.js';

/**
 * Language detection for `language: "auto"`, in two steps.
 *
 * 1. The script with the most letters (a Han or kana character counts three, a Hangul block two) decides where
 *    the script is enough: Han with kana (at least 5% of those characters) is Japanese, Han alone Chinese;
 *    Hangul Korean, Thai, Greek, Hebrew, Armenian, Bengali and Gujarati their one language; Cyrillic with
 *    і, ї, є or ґ Ukrainian.
 * 2. Otherwise the languages with a stop-word list in that script compete: the one whose list holds the most of
 *    the text's words wins (ties go to the more widely written language, in PRIORITY order). A text with no
 *    stop word at all gets the script's default (Latin: English).
 */

type Script =
  | 'Latin'
  | 'Cyrillic'
  | 'Han'
  | 'Kana'
  | 'Hangul'
  | 'Arabic'
  | 'Devanagari'
  | 'Greek'
  | 'Hebrew'
  | 'Thai'
  | 'Armenian'
  | 'Bengali'
  | 'Gujarati';

const SCRIPTS: readonly (readonly [Script, RegExp])[] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Bengali', /\p{Script=Bengali}/u],
  ['Gujarati', /\p{Script=Gujarati}/u],
];

const SINGLE_LANGUAGE: Partial<Record<Script, string>> = {
  Hangul: 'ko',
  Greek: 'el',
  Hebrew: 'he',
  Thai: 'th',
  Armenian: 'hy',
  Bengali: 'bn',
  Gujarati: 'gu',
};

const DEFAULT_FOR_SCRIPT: Partial<Record<Script, string>> = {
  Latin: 'en',
  Cyrillic: 'ru',
  Arabic: 'ar',
  Devanagari: 'hi',
};

/** A Han or kana character says about as much as a short word, a Hangul syllable block as two letters. */
const WEIGHT: Partial<Record<Script, number>> = { Han: 3, Kana: 3, Hangul: 2 };

/** Tie-breaks between lists that hold equally many of the text's words (Indonesian and Malay share many). */
const PRIORITY = ['en', 'es', 'fr', 'de', 'pt', 'ru', 'it', 'id', 'nl', 'pl', 'tr', 'ar', 'hi', 'uk'];

const TOKEN = /[\p{L}\p{M}\p{N}_]+(?:['’./@+#-][\p{L}\p{M}\p{N}_]+)*/gu;
const WORD = /^[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*$/u;

/** Enough text to tell languages apart; detection never reads more. */
const SAMPLE_CHARS = 20_000;
const SAMPLE_WORDS = 2_000;

function scriptOf(ch: string): Script | undefined {
  for (const [script, pattern] of SCRIPTS) if (pattern.test(ch)) return script;
  return undefined;
}

let languagesByScript: Map<Script, string[]> | undefined;

/** Each stop-word list's script: the script most of its words are written in. */
function languagesOf(script: Script): readonly string[] {
  if (!languagesByScript) {
    languagesByScript = new Map();
    for (const language of stopwordLanguages()) {
      const counts = new Map<Script, number>();
      for (const word of stopwordsFor(language)) {
        const s = scriptOf(word[0] ?? '');
        if (s) counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
      if (main) languagesByScript.set(main, [...(languagesByScript.get(main) ?? []), language]);
    }
  }
  return languagesByScript.get(script) ?? [];
}

const rank = (language: string): number => {
  const i = PRIORITY.indexOf(language);
  return i < 0 ? PRIORITY.length : i;
};

function byStopwords(sample: string, candidates: readonly string[]): string | undefined {
  // Whole tokens only: the "v" of "v2.3.1" is no Czech preposition.
  const words = (sample.toLowerCase().match(TOKEN) ?? []).filter((w) => WORD.test(w)).slice(0, SAMPLE_WORDS);
  let best: { language: string; hits: number } | undefined;
  for (const language of [...candidates].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))) {
    const list = stopwordsFor(language);
    let hits = 0;
    for (const w of words) if (list.has(w)) hits++;
    if (hits > 0 && (!best || hits > best.hits)) best = { language, hits };
  }
  return best?.language;
}

/** An ISO 639-1 code with a stop-word list; English when nothing in the text says otherwise. */
export function detectLanguage(text: string): string {
  const sample = text.slice(0, SAMPLE_CHARS);
  const counts = new Map<Script, number>();
  for (const ch of sample) {
    if (!/\p{L}/u.test(ch)) continue;
    const s = scriptOf(ch);
    if (s) counts.set(s, (counts.get(s) ?? 0) + (WEIGHT[s] ?? 1));
  }
  const han = counts.get('Han') ?? 0;
  const kana = counts.get('Kana') ?? 0;
  counts.delete('Kana');
  if (han + kana > 0) counts.set('Han', han + kana);
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return 'en';
  if (main === 'Han') return kana >= 0.05 * (han + kana) ? 'ja' : 'zh';
  const single = SINGLE_LANGUAGE[main];
  if (single) return single;
  if (main === 'Cyrillic' && /[іїєґ]/iu.test(sample)) return 'uk';
  return byStopwords(sample, languagesOf(main)) ?? DEFAULT_FOR_SCRIPT[main] ?? 'en';
}
