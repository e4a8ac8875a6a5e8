import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError, lineColumn } from './json-syntax.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('findJsonSyntaxError', () => {
  it('finds nothing in valid JSON of every kind', () => {
    for (const text of [
      '{}',
      '[]',
      '0',
      '-0.5e-10',
      '1E+2',
      '"a\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"',
      'true',
      'null',
      ' \t\r\n{"a": [1, {"b": null}], "c": "😀"} \n',
      '"\ud800"',
    ]) {
      expect(findJsonSyntaxError(text), text).toBeNull();
    }
  });

  it('explains each kind of error at the offending character', () => {
    const cases: [string, number, number, string][] = [
      ['{"a": 1 "b": 2}', 1, 9, "Expected ',' or '}' after property value, found '\"' (is a comma missing?)"],
      ['{"a": 1,}', 1, 9, "Trailing comma before '}' is not allowed"],
      ['[1, 2,]', 1, 7, "Trailing comma before ']' is not allowed"],
      ['[1 2]', 1, 4, "Expected ',' or ']' after array element, found '2' (is a comma missing?)"],
      [
        "{'a': 1}",
        1,
        2,
        "Expected a property name in double quotes or '}'; property names must use double quotes, not " +
          'single quotes',
      ],
      [
        '{a: 1}',
        1,
        2,
        "Expected a property name in double quotes or '}', found 'a'; property names must be in double " +
          'quotes',
      ],
      ['{"a" 1}', 1, 6, "Expected ':' after property name, found '1'"],
      ['{"a": }', 1, 7, "Expected a value after ':', found '}'"],
      ['{"a": 1]', 1, 8, "Expected ',' or '}' after property value, found ']' (mismatched brackets)"],
      ['[01]', 1, 2, 'Numbers must not have leading zeros'],
      ['[1.]', 1, 4, 'Expected a digit after the decimal point'],
      ['[1e+]', 1, 5, 'Expected a digit in the exponent'],
      ['[-]', 1, 3, "Expected a digit after '-'"],
      ['[+1]', 1, 2, "Numbers must not start with '+'"],
      ['[.5]', 1, 2, "Numbers must have a digit before the decimal point ('0.5', not '.5')"],
      ['[NaN]', 1, 2, "'NaN' is not a JSON value; numbers must be finite"],
      ['[-Infinity]', 1, 2, "'-Infinity' is not a JSON value; numbers must be finite"],
      ['[undefined]', 1, 2, "'undefined' is not a JSON value; use null"],
      ['[True]', 1, 2, "Unexpected 'True': JSON literals are lower case (true, false, null)"],
      ['[nul]', 1, 2, "Unexpected 'nul'; did you mean null?"],
      [
        '[1, hello]',
        1,
        5,
        "Unexpected 'hello' (expected a value after ','); strings must be in double quotes",
      ],
      ['"a\tb"', 1, 3, 'Unescaped U+0009 (tab) in string; write it as \\t'],
      [
        '"a\\x"',
        1,
        3,
        "Invalid escape '\\x' in string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
      ],
      ['"\\u12G4"', 1, 2, "Invalid Unicode escape '\\u12G4': '\\u' must be followed by four hex digits"],
      ['"abc', 1, 1, "Unterminated string: no closing '\"' before the end of input"],
      ['// note\n{}', 1, 1, 'Comments are not allowed in JSON (expected a JSON value)'],
      ['{} {}', 1, 4, "Unexpected '{' after the end of the JSON value; a document holds exactly one value"],
      ['{"a": [1, 2}', 1, 12, "Expected ',' or ']' after array element, found '}' (mismatched brackets)"],
      ['{"a": 1', 1, 8, "Unexpected end of input: expected ',' or '}' after property value"],
      ['[', 1, 2, "Unexpected end of input: expected a value or ']'"],
      ['{"a":', 1, 6, "Unexpected end of input: expected a value after ':'"],
      ['', 1, 1, 'Unexpected end of input: expected a JSON value'],
      [
        '\ufeff{}',
        1,
        1,
        'The text starts with a byte order mark (U+FEFF), which JSON does not allow; remove it',
      ],
      ['[\u00a0]', 1, 2, "Expected a value or ']', found U+00A0 (no-break space)"],
    ];
    for (const [text, line, column, message] of cases) {
      expect(findJsonSyntaxError(text), text).toMatchObject({ line, column, message });
      expect(parses(text), `JSON.parse agrees that ${text} is invalid`).toBe(false);
    }
  });

  it('counts lines at LF, CRLF and CR, and columns in code points', () => {
    expect(findJsonSyntaxError('{\n  "a": 1,\n  "b": 2,\n}')).toMatchObject({ line: 4, column: 1 });
    expect(findJsonSyntaxError('{\r\n"a": x}')).toMatchObject({ line: 2, column: 6 });
    expect(findJsonSyntaxError('{\r"a": x}')).toMatchObject({ line: 2, column: 6 });
    // Two emoji are four UTF-16 units but two columns.
    expect(findJsonSyntaxError('["😀😀" x]')).toMatchObject({ line: 1, column: 7, offset: 8 });
    expect(lineColumn('a\nb\r\nc\rd', 7)).toEqual({ line: 4, column: 1 });
    expect(lineColumn('a\nb\r\nc\rd', 8)).toEqual({ line: 4, column: 2 });
  });

  it('agrees with JSON.parse on thousands of mutated documents', () => {
    const seeds = [
      '{"name": "Ada", "tags": ["a", "b"], "age": 36, "ok": true, "none": null, "n": -1.5e3}',
      '[{"a": [[], {}]}, "x\\n\\u0041", 0, 12.5, false]',
    ];
    const alphabet = [
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"',
      '\\',
      '-',
      '.',
      'e',
      '0',
      '1',
      't',
      'n',
      ' ',
      '\n',
      "'",
    ];
    // A fixed linear congruential generator: the same cases on every run.
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let invalid = 0;
    for (let i = 0; i < 4_000; i++) {
      let text = seeds[i % seeds.length]!;
      for (let k = 0, edits = 1 + random(3); k < edits; k++) {
        const at = random(text.length + 1);
        const op = random(3);
        const ch = alphabet[random(alphabet.length)]!;
        text =
          op === 0
            ? text.slice(0, at) + ch + text.slice(at)
            : op === 1
              ? text.slice(0, at) + text.slice(at + 1)
              : text.slice(0, at) + ch + text.slice(at + 1);
      }
      const ok = parses(text);
      if (!ok) invalid++;
      expect(findJsonSyntaxError(text) === null, text).toBe(ok);
    }
    expect(invalid).toBeGreaterThan(1_000);
  });

  it('scans any nesting depth and large texts without recursion, in linear time', () => {
    const deep = '['.repeat(200_000);
    expect(findJsonSyntaxError(deep)).toMatchObject({
      message: "Unexpected end of input: expected a value or ']'",
    });
    const big = `[${'"abcdefghij", '.repeat(100_000)}]`;
    const started = performance.now();
    expect(findJsonSyntaxError(big)).toMatchObject({ message: "Trailing comma before ']' is not allowed" });
    // 1.4 MB: a quadratic scan would take minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
