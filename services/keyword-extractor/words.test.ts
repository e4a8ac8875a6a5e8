import { describe, expect, it } from 'vitest';
import { stopwordsFor } from './stopwords.js';
import type { RawToken } from './text.js';
import { classify, type Profile, type Word } from './words.js';

const token = (text: string, over: Partial<RawToken> = {}): RawToken => ({
  text,
  segmented: false,
  sentenceStart: false,
  spaceBefore: true,
  ...over,
});
const word = (
  text: string,
  profile: Profile = 'GENERAL',
  over: Partial<RawToken> = {},
  language = 'en',
): Word => classify(token(text, over), { profile, language, stopwords: stopwordsFor(language) });
const tag = (text: string, profile: Profile = 'GENERAL', over: Partial<RawToken> = {}) =>
  word(text, profile, over).tag;

describe('tags (YAKE, plus t for TECHNICAL)', () => {
  it('tells plain words, names, acronyms, numbers and unusual tokens apart', () => {
    expect(tag('river')).toBe('p');
    expect(tag('Holmes')).toBe('n');
    expect(tag('Holmes', 'GENERAL', { sentenceStart: true })).toBe('p');
    expect(tag('NASA')).toBe('a');
    expect(tag('ECONNRESET', 'GENERAL', { sentenceStart: true })).toBe('a');
    for (const n of ['1776', '3.14', '-5', '10:30', '10-20', '2nd', '1990s', '10ms'])
      expect(tag(n), n).toBe('d');
    expect(tag('https://example.com/x')).toBe('u');
    expect(tag('someone@example.com', 'TECHNICAL')).toBe('u');
  });

  it('GENERAL leaves code tokens out (u); TECHNICAL keeps them whole (t)', () => {
    for (const t of [
      'Node.js',
      'v2.3.1',
      'HTTP/2',
      'snake_case',
      'C++',
      'C#',
      'x86_64',
      'UTF-8',
      '.NET',
      '@types/node',
    ]) {
      expect(tag(t, 'GENERAL'), t).toBe('u');
      expect(tag(t, 'TECHNICAL'), t).toBe('t');
    }
    expect(tag('getUserById', 'GENERAL')).toBe('p');
    expect(tag('getUserById', 'TECHNICAL')).toBe('t');
    expect(tag('JavaScript', 'TECHNICAL', { sentenceStart: true })).toBe('t');
    expect(tag('getUserById()', 'GENERAL')).toBe('u');
    expect(word('getUserById()', 'TECHNICAL')).toMatchObject({
      tag: 't',
      surface: 'getUserById',
      key: 'getuserbyid',
    });
  });

  it('TECHNICAL still treats words joined by a slash and dotted initials as prose', () => {
    expect(tag('and/or', 'TECHNICAL')).toBe('u');
    expect(word('e.g', 'TECHNICAL')).toMatchObject({ tag: 'p', stop: true });
    expect(word('U.S', 'TECHNICAL')).toMatchObject({ tag: 'a', surface: 'US' });
  });
});

describe('stop words', () => {
  it('come from stopwords-iso, with words of fewer than three letters', () => {
    expect(word('the').stop).toBe(true);
    expect(word('which').stop).toBe(true);
    expect(word('ox').stop).toBe(true);
    expect(word('rights').stop).toBe(false);
  });

  it('keep English content words the merged list holds (state, system, research, http)', () => {
    for (const w of ['state', 'states', 'system', 'research', 'information', 'world', 'http', 'rights']) {
      expect(stopwordsFor('en').has(w), w).toBe(false);
      expect(word(w).stop, w).toBe(false);
    }
    expect(stopwordsFor('en').has('ai')).toBe(false);
    expect(word('AI')).toMatchObject({ tag: 'a', stop: false });
    expect(word('IT')).toMatchObject({ tag: 'a', stop: true });
  });

  it('never make an identifier a stop word', () => {
    expect(word('fs.readFile', 'TECHNICAL')).toMatchObject({ tag: 't', stop: false });
    expect(word('Go', 'TECHNICAL').stop).toBe(true);
  });

  it('in Japanese include every word written in hiragana only', () => {
    const ja = (t: string) => word(t, 'GENERAL', { segmented: true }, 'ja');
    expect(ja('じめじめ').stop).toBe(true);
    expect(ja('は').stop).toBe(true);
    expect(ja('人間').stop).toBe(false);
    expect(ja('ニャーニャー').stop).toBe(false);
  });

  it('make Han numerals numbers', () => {
    expect(word('二千', 'GENERAL', { segmented: true }, 'zh').tag).toBe('d');
    expect(word('故乡', 'GENERAL', { segmented: true }, 'zh').tag).toBe('p');
  });
});

describe('keys, surfaces and comparison forms', () => {
  it('fold case and -s plurals into one term, but not acronyms or identifiers', () => {
    expect(word('Rights').key).toBe('right');
    expect(word('policies').key).toBe('policy');
    expect(word('business').key).toBe('business');
    expect(word('status').key).toBe('status');
    expect(word('APIs')).toMatchObject({ key: 'api', tag: 'a', surface: 'APIs' });
    expect(word('news').stop).toBe(false);
    expect(word('HTTPS').key).toBe('https');
    expect(word('derechos', 'GENERAL', {}, 'es').key).toBe('derecho');
    expect(word('Rechte', 'GENERAL', {}, 'de').key).toBe('rechte');
  });

  it('drop a possessive from the key, not from the surface', () => {
    expect(word("Nature's")).toMatchObject({ key: 'nature', surface: "Nature's", tag: 'n' });
    expect(word('Holmes’s')).toMatchObject({ key: 'holme', surface: 'Holmes’s' });
  });

  it("lower-case only a sentence's capitalized first word", () => {
    expect(word('When', 'GENERAL', { sentenceStart: true }).surface).toBe('when');
    expect(word('Liberty').surface).toBe('Liberty');
    expect(word('iPhone', 'GENERAL', { sentenceStart: true }).surface).toBe('iPhone');
    expect(word('NASA', 'GENERAL', { sentenceStart: true }).surface).toBe('NASA');
  });

  it('stem English forms, strip accents elsewhere, and mark acronyms and identifiers exact', () => {
    expect(word('governed').form).toBe('govern');
    expect(word('government').form).toBe('govern');
    expect(word('well-known').form).toBe('well-known');
    expect(word('éxito', 'GENERAL', {}, 'es').form).toBe('exito');
    expect(word('NASA').exact).toBe(true);
    expect(word('v2.3.1', 'TECHNICAL').exact).toBe(true);
    expect(word('river').exact).toBe(false);
  });
});
