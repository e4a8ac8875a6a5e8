import { describe, expect, it } from 'vitest';
import { scanJson } from './json-prefix.js';

const DOCUMENT = JSON.stringify(
  {
    name: 'toolgate "api"',
    escapes: 'tab\t newline\n slash\\ unicode \u00e9 \ud83d\ude00',
    numbers: [0, -1, 12.5, -0.25e-3, 6.02e23, 1e2],
    flags: [true, false, null],
    nested: { empty: {}, list: [[], [{}]], deep: { a: { b: { c: [1, { d: 'e' }] } } } },
  },
  null,
  2,
);

describe('scanJson', () => {
  it('accepts complete objects and arrays, as JSON.parse does', () => {
    for (const text of [
      DOCUMENT,
      '{}',
      '[]',
      ' [1, "two", {"3": [4.5e-6]}] \n',
      '{"a":{"b":[true,false,null]}}',
    ]) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(scanJson(text), text).toBe('complete');
    }
  });

  it('accepts every prefix of a valid document as JSON cut short', () => {
    for (let end = 1; end < DOCUMENT.length; end++) {
      const verdict = scanJson(DOCUMENT.slice(0, end));
      expect(verdict, `first ${end} characters`).toBe('prefix');
    }
  });

  it('recognizes JSON Lines, also when the last line is cut', () => {
    const lines = '{"id":1}\n{"id":2}\n[3]\n';
    expect(scanJson(lines)).toBe('sequence');
    expect(scanJson(`${lines}{"id":4,"na`)).toBe('sequence');
  });

  it.each([
    ['a trailing comma', '{"a":1,}'],
    ['single quotes', "{'a':1}"],
    ['an unquoted key', '{a:1}'],
    ['a bare number', '42'],
    ['a bare string', '"hello"'],
    ['two documents on one line', '{}{}'],
    ['a raw control character in a string', '{"a":"x\u0001y"}'],
    ['an unknown escape', '{"a":"\\x41"}'],
    ['a short unicode escape', '{"a":"\\u12G4"}'],
    ['a leading zero', '[01]'],
    ['a dot without digits', '[1.e5]'],
    ['a misspelled literal', '[tru]'],
    ['a missing colon', '{"a" 1}'],
    ['mismatched brackets', '{"a":[1}'],
    ['text after the document', '{"a":1} trailing'],
    ['prose', 'Hello, world'],
    ['nothing', '   '],
  ])('refuses %s', (_what, text) => {
    expect(scanJson(text)).toBe('invalid');
  });

  it('agrees with JSON.parse on complete documents and their near misses', () => {
    const samples = [
      '{"a":[1,2,{"b":null}]}',
      '[-0.5E+2, 3]',
      '{"k":"\\u00e9\\/"}',
      '[1,]',
      '[-]',
      '{"a":1 "b":2}',
    ];
    for (const text of samples) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(scanJson(text) === 'complete', text).toBe(parses);
    }
  });
});
