import { describe, expect, it } from 'vitest';
import { lexJson } from './json-lexer.js';

const visitNothing = { string: () => {}, number: () => {} };
const valid = (text: string) => lexJson(text, visitNothing);
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Documents on the edge of the grammar (RFC 8259), judged against JSON.parse. */
const CORPUS = [
  '{}',
  '[]',
  ' \n{ } ',
  '0',
  '-0',
  '-0.5e-7',
  '1E+2',
  '"x"',
  'true',
  'false',
  'null',
  '{"a":[1,{"b":null},"c\\u00e9\\n"],"d":{}}',
  '[[[[[]]]]]',
  '"\\ud83d\\ude00"',
  '"\\/"',
  '',
  ' ',
  '{',
  '}',
  '[1,]',
  '{"a":1,}',
  '{,}',
  '[,1]',
  '{"a" 1}',
  '{"a":}',
  '{a:1}',
  "{'a':1}",
  '01',
  '1.',
  '.5',
  '-',
  '+1',
  '1e',
  '0x10',
  'NaN',
  'tru',
  'truex',
  'nul',
  '"\\x"',
  '"\\u12"',
  '"a\tb"',
  '"unterminated',
  '["a"]]',
  '[[]',
  '{"a":1}}',
  '"\u2028"',
];

describe('lexJson', () => {
  it.each(CORPUS)('agrees with JSON.parse on %j', (text) => {
    expect(valid(text)).toBe(parses(text));
  });

  it('accepts JSON Lines: one document per line, blank lines and CRLF allowed', () => {
    expect(valid('{"a":1}\n{"b":2}')).toBe(true);
    expect(valid('{"a":1}\r\n\r\n[2]\n"x"\n')).toBe(true);
    expect(valid('{"a":1} {"b":2}')).toBe(false);
    expect(valid('1 2')).toBe(false);
    expect(valid('{"a":1}\n{"b":')).toBe(false);
  });

  it('reports string values with their field and source offsets, and numbers', () => {
    const seen: unknown[] = [];
    const text = '{"a":"x","b":[1,"\\ny"],"c":{"d":-2.5}}';
    const ok = lexJson(text, {
      string: (value, raw, map, field) => seen.push(['s', value, raw, map ? [...map] : null, field]),
      number: (start, end, field) => seen.push(['n', text.slice(start, end), field]),
    });
    expect(ok).toBe(true);
    expect(seen).toEqual([
      ['s', 'x', 6, null, 'a'],
      ['n', '1', 'b'],
      ['s', '\ny', 17, [17, 19, 20], 'b'],
      ['n', '-2.5', 'd'],
    ]);
  });

  it('takes any nesting depth (no recursion)', () => {
    const depth = 300_000;
    expect(valid(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBe(true);
    expect(valid(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)).toBe(true);
    expect(valid(`${'['.repeat(depth)}${']'.repeat(depth - 1)}`)).toBe(false);
  });
});
