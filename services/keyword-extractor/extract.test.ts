import { describe, expect, it } from 'vitest';
import {
  analyze,
  type Comparable,
  extractKeywords,
  isNearDuplicate,
  NEAR_DUPLICATE_SIMILARITY,
} from './extract.js';
import { GUXIANG, MACHINE_LEARNING } from './fixtures/chinese.js';
import { DECLARATION } from './fixtures/declaration.js';
import { WAGAHAI } from './fixtures/japanese.js';
import { README } from './fixtures/readme.js';
import { SHERLOCK } from './fixtures/sherlock.js';
import { stopwordsFor } from './stopwords.js';
import type { Profile } from './words.js';
import { rankCandidates } from './yake.js';

const terms = (text: string, maxKeywords = 10, profile: Profile = 'GENERAL', language = 'auto') =>
  extractKeywords(text, { maxKeywords, profile, language }).keywords.map((k) => k.term);

describe('golden top terms', () => {
  it('Declaration of Independence: the laws of nature, human events, political bands, government', () => {
    const top = terms(DECLARATION, 10);
    expect(top).toEqual(
      expect.arrayContaining(['Laws of Nature', 'human events', 'political bands', 'Government']),
    );
    expect(terms(DECLARATION, 15)).toEqual(expect.arrayContaining(['powers', 'Safety and Happiness']));
  });

  it('A Scandal in Bohemia: Sherlock Holmes and Irene Adler first, then Baker Street, emotion, woman', () => {
    const top = terms(SHERLOCK, 10);
    expect(top.slice(0, 2)).toEqual(['Sherlock Holmes', 'Irene Adler']);
    expect(top).toEqual(expect.arrayContaining(['emotion', 'woman', 'Baker Street']));
  });

  it('README, TECHNICAL: Node.js, v2.3.1, HTTP/2, getUserById and ECONNRESET, as written, in the top 8', () => {
    const top = terms(README, 8, 'TECHNICAL');
    expect(top).toEqual(
      expect.arrayContaining(['Node.js', 'v2.3.1', 'HTTP/2', 'getUserById', 'ECONNRESET', 'fetchkit']),
    );
  });

  it('README, GENERAL: the acronym stays, the code tokens do not', () => {
    const top = terms(README, 50, 'GENERAL');
    expect(top.slice(0, 3)).toEqual(expect.arrayContaining(['ECONNRESET', 'fetchkit']));
    for (const t of ['Node.js', 'v2.3.1', 'HTTP/2', 'getUserById']) {
      expect(
        top.some((k) => k.includes(t)),
        t,
      ).toBe(false);
    }
  });

  it('故乡 (Chinese, Intl.Segmenter): the old home in the top three', () => {
    expect(terms(GUXIANG, 3)).toContain('故乡');
  });

  it('Chinese compounds the segmenter cuts in two come back joined, without a space', () => {
    const top = terms(MACHINE_LEARNING, 6);
    expect(top).toEqual(expect.arrayContaining(['人工智能', '机器学习', '深度学习', '神经网络']));
    expect(top.every((t) => !t.includes(' '))).toBe(true);
  });

  it('吾輩は猫である (Japanese, Intl.Segmenter): 吾輩, 人間, 書生 and 猫 in the top five, no particle', () => {
    const top = terms(WAGAHAI, 5);
    expect(top).toEqual(expect.arrayContaining(['吾輩', '人間', '書生', '猫']));
    expect(terms(WAGAHAI, 50).filter((t) => /^[\p{Script=Hiragana}]+$/u.test(t))).toEqual([]);
  });

  it('every golden text answers in its language', () => {
    const lang = (t: string) =>
      extractKeywords(t, { maxKeywords: 1, profile: 'GENERAL', language: 'auto' }).language;
    expect([DECLARATION, SHERLOCK, README, GUXIANG, WAGAHAI].map(lang)).toEqual([
      'en',
      'en',
      'en',
      'zh',
      'ja',
    ]);
  });
});

describe('keywords', () => {
  it('never start or end with a stop word and never hold a number (GENERAL)', () => {
    const en = stopwordsFor('en');
    for (const text of [DECLARATION, SHERLOCK, README]) {
      for (const t of terms(text, 50)) {
        const words = t.toLowerCase().split(' ');
        expect(en.has(words[0]!), t).toBe(false);
        expect(en.has(words.at(-1)!), t).toBe(false);
        expect(/\d/.test(t), t).toBe(false);
        expect(words.length).toBeLessThanOrEqual(3);
      }
    }
  });

  it('scores: the best is 1, the rest its H over theirs, never increasing, all in 0..1', () => {
    const { keywords } = extractKeywords(SHERLOCK, { maxKeywords: 50, profile: 'GENERAL', language: 'en' });
    expect(keywords).toHaveLength(50);
    expect(keywords[0]!.score).toBe(1);
    for (let i = 1; i < keywords.length; i++) {
      expect(keywords[i]!.score).toBeLessThanOrEqual(keywords[i - 1]!.score);
      expect(keywords[i]!.score).toBeGreaterThanOrEqual(0);
    }
    const ranked = rankCandidates(
      analyze(SHERLOCK, { profile: 'GENERAL', language: 'en', stopwords: stopwordsFor('en') }),
    );
    const irene = ranked.find((c) => c.surface === 'Irene Adler')!;
    expect(keywords.find((k) => k.term === 'Irene Adler')!.score).toBe(
      Math.round((ranked[0]!.h / irene.h) * 1e4) / 1e4,
    );
  });

  it('maxKeywords bounds the answer; the same text gives the same answer', () => {
    for (const n of [1, 5, 50]) expect(terms(DECLARATION, n)).toHaveLength(n);
    expect(terms(DECLARATION, 5)).toEqual(terms(DECLARATION, 50).slice(0, 5));
    expect(extractKeywords(SHERLOCK, { maxKeywords: 20, profile: 'GENERAL', language: 'auto' })).toEqual(
      extractKeywords(SHERLOCK, { maxKeywords: 20, profile: 'GENERAL', language: 'auto' }),
    );
  });

  it('an answer may hold fewer: nothing but stop words and numbers gives none', () => {
    expect(
      extractKeywords('It is what it is, and 42 of them.', {
        maxKeywords: 10,
        profile: 'GENERAL',
        language: 'auto',
      }),
    ).toEqual({ keywords: [], wordCount: 9, language: 'en' });
  });

  it('counts every word-like token: words, numbers, identifiers', () => {
    const r = extractKeywords('Node.js 20 ships fetch; see v2.3.1.', {
      maxKeywords: 5,
      profile: 'GENERAL',
      language: 'en',
    });
    expect(r.wordCount).toBe(6);
  });
});

describe('near-duplicates', () => {
  it('keeps one of forms with the same stem (rights / right, governed / government, citizen / citizens)', () => {
    const text =
      'The rights of citizens matter. Every citizen has a right to speak. Citizens defend their rights. ' +
      'The governed consent. Government needs the consent of the governed.';
    const top = terms(text, 50);
    expect(top.filter((t) => /^rights?$/i.test(t))).toHaveLength(1);
    expect(top.filter((t) => /^(governed|government)$/i.test(t))).toHaveLength(1);
    const stems = top.map((t) =>
      analyze(t, { profile: 'GENERAL', language: 'en', stopwords: stopwordsFor('en') })
        .flat(2)
        .map((w) => w.form)
        .join(' '),
    );
    expect(new Set(stems).size).toBe(stems.length);
  });

  it('drops a keyword inside a better one, or holding one (Holmes after Sherlock Holmes)', () => {
    const top = terms(SHERLOCK, 50);
    expect(top).toContain('Sherlock Holmes');
    for (const t of ['Holmes', 'Sherlock', 'Irene', 'Adler', 'late Irene Adler'])
      expect(top).not.toContain(t);
  });

  it(`merges spellings at least ${NEAR_DUPLICATE_SIMILARITY} alike, but never acronyms, versions or identifiers`, () => {
    const c = (form: string, exact = false): Comparable => ({ forms: form.split(' '), form, exact });
    // "verträge" without its diacritic: one edit from "vertrag" + e, 7/8 alike.
    expect(isNearDuplicate(c('vertrage'), [c('vertrag')])).toBe(true);
    expect(isNearDuplicate(c('haus'), [c('maus')])).toBe(false);
    expect(isNearDuplicate(c('v2.3.2', true), [c('v2.3.1', true)])).toBe(false);
    expect(isNearDuplicate(c('http/3', true), [c('http/2', true)])).toBe(false);
    expect(isNearDuplicate(c('v2.3.1', true), [c('v2.3.1', true)])).toBe(true);
    // A run of a kept keyword's words, either way round.
    expect(isNearDuplicate(c('holm'), [c('sherlock holm')])).toBe(true);
    expect(isNearDuplicate(c('late iren adler'), [c('iren adler')])).toBe(true);
    expect(isNearDuplicate(c('iren late'), [c('late iren adler')])).toBe(false);
    const versions = terms('Install v2.3.1 today. Install v2.3.2 tomorrow.', 50, 'TECHNICAL');
    expect(versions.filter((t) => t.includes('v2.3.1'))).toHaveLength(1);
    expect(versions.filter((t) => t.includes('v2.3.2'))).toHaveLength(1);
  });
});

describe('language', () => {
  it('uses the stop words of the language it is given, or detects', () => {
    const es = 'La ciudad de Madrid es la capital de España. Madrid tiene museos famosos y parques grandes.';
    const r = extractKeywords(es, { maxKeywords: 10, profile: 'GENERAL', language: 'auto' });
    expect(r.language).toBe('es');
    expect(r.keywords.map((k) => k.term)).toEqual(expect.arrayContaining(['Madrid']));
    for (const k of r.keywords) expect(stopwordsFor('es').has(k.term.toLowerCase()), k.term).toBe(false);
    // Read as English, Spanish function words ("la", "es", "tiene") are no longer stop words.
    const asEnglish = extractKeywords(es, { maxKeywords: 50, profile: 'GENERAL', language: 'en' });
    expect(asEnglish.language).toBe('en');
    expect(asEnglish.keywords.map((k) => k.term).some((t) => /\b(tiene|la)\b/.test(t))).toBe(true);
  });
});

describe('work bounds', () => {
  it('extracts from 60,000 characters in under two seconds (about 0.1 s here)', () => {
    const text = SHERLOCK.repeat(Math.ceil(60_000 / SHERLOCK.length)).slice(0, 60_000);
    extractKeywords(SHERLOCK, { maxKeywords: 50, profile: 'TECHNICAL', language: 'auto' });
    const started = performance.now();
    const r = extractKeywords(text, { maxKeywords: 50, profile: 'TECHNICAL', language: 'auto' });
    expect(r.keywords).toHaveLength(50);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('texts of near-duplicates and of one long run of Han characters stay bounded', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const near = Array.from(
      { length: 8_000 },
      (_, i) => `aaaaaa${letters[i % 26]}${letters[Math.floor(i / 26) % 26]}`,
    )
      .join(' ')
      .slice(0, 60_000);
    for (const text of [near, '漢字'.repeat(30_000)]) {
      const started = performance.now();
      extractKeywords(text, { maxKeywords: 50, profile: 'GENERAL', language: 'auto' });
      expect(performance.now() - started).toBeLessThan(6_000);
    }
  });
});
