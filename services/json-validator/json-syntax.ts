/**
 * A strict JSON (RFC 8259) scanner that explains the first error: what was expected, at which line and
 * column. JSON.parse decides validity; its messages differ between Node versions and name no line, so this
 * runs only after JSON.parse has failed. One pass with an explicit stack: linear in the text, any nesting
 * depth.
 */

export interface JsonSyntaxError {
  /** UTF-16 offset of the offending character (the text's length for an early end). */
  readonly offset: number;
  /** 1-based; a line ends at LF, CRLF or CR. */
  readonly line: number;
  /** 1-based, in Unicode code points (an emoji is one column). */
  readonly column: number;
  readonly message: string;
}

/** What the scanner waits for next. */
const Expect = {
  /** The document's value, or the value after `:` or after `,` in an array. */
  Value: 0,
  /** Right after `[`: a value or `]`. */
  ValueOrEnd: 1,
  /** Right after `{`: a name or `}`. */
  NameOrEnd: 2,
  /** After `,` in an object. */
  Name: 3,
  Colon: 4,
  /** After a value inside an array or object. */
  CommaOrEnd: 5,
  /** After the document's value: only white space. */
  Nothing: 6,
} as const;
type Expect = (typeof Expect)[keyof typeof Expect];

const ARRAY = 0;
const OBJECT = 1;

class Failure {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const isWhitespace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isWordChar = (c: number) =>
  isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;

const NAMED_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
const SPECIAL_NAMES: Record<number, string> = {
  9: 'tab',
  10: 'line feed',
  13: 'carriage return',
  160: 'no-break space',
  65279: 'byte order mark',
  8232: 'line separator',
  8233: 'paragraph separator',
};

/** `'x'` for a visible character, `U+00A0 (no-break space)` for the others. */
function describeChar(text: string, offset: number): string {
  const cp = text.codePointAt(offset) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = SPECIAL_NAMES[cp];
  if (name) return `${hex} (${name})`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || (cp >= 0x2000 && cp <= 0x200f)) return hex;
  return `'${String.fromCodePoint(cp)}'`;
}

/** 1-based line and column (code points) of a UTF-16 offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      column = 1;
    } else if (c === 0x0d) {
      // The CR of a CRLF: the LF ends the line.
    } else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair is one code point: count it at its low half.
    } else {
      column++;
    }
  }
  return { line, column };
}

/** The first syntax error of `text`, or null when it is one valid JSON value (with optional white space). */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  try {
    scan(text);
    return null;
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    return { offset: e.offset, ...lineColumn(text, e.offset), message: e.message };
  }
}

function scan(text: string): void {
  const n = text.length;
  const stack: number[] = [];
  let expect = Expect.Value as Expect;
  let i = 0;
  if (text.charCodeAt(0) === 0xfeff) {
    throw new Failure(
      0,
      'The text starts with a byte order mark (U+FEFF), which JSON does not allow; remove it',
    );
  }

  const afterValue = () => {
    expect = stack.length === 0 ? Expect.Nothing : Expect.CommaOrEnd;
  };

  while (true) {
    while (i < n && isWhitespace(text.charCodeAt(i))) i++;
    if (i >= n) {
      if (expect === Expect.Nothing) return;
      throw new Failure(n, `Unexpected end of input: ${endExpectation(expect, stack)}`);
    }
    const c = text.charCodeAt(i);
    switch (expect) {
      case Expect.Value:
      case Expect.ValueOrEnd: {
        if (c === 0x5d /* ] */ && stack.at(-1) === ARRAY) {
          if (expect === Expect.Value) throw new Failure(i, "Trailing comma before ']' is not allowed");
          stack.pop();
          i++;
          afterValue();
        } else if (c === 0x7b /* { */) {
          stack.push(OBJECT);
          i++;
          expect = Expect.NameOrEnd;
        } else if (c === 0x5b /* [ */) {
          stack.push(ARRAY);
          i++;
          expect = Expect.ValueOrEnd;
        } else if (c === 0x22 /* " */) {
          i = scanString(text, i);
          afterValue();
        } else if (c === 0x2d /* - */ || isDigit(c)) {
          i = scanNumber(text, i);
          afterValue();
        } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
          i = scanLiteral(text, i);
          afterValue();
        } else {
          throw new Failure(i, unexpectedInValue(text, i, expect, stack));
        }
        break;
      }
      case Expect.NameOrEnd:
      case Expect.Name: {
        if (c === 0x22) {
          i = scanString(text, i);
          expect = Expect.Colon;
        } else if (c === 0x7d /* } */) {
          if (expect === Expect.Name) throw new Failure(i, "Trailing comma before '}' is not allowed");
          stack.pop();
          i++;
          afterValue();
        } else {
          throw new Failure(i, unexpectedName(text, i, expect));
        }
        break;
      }
      case Expect.Colon: {
        if (c !== 0x3a /* : */) {
          throw new Failure(i, `Expected ':' after property name, found ${describeChar(text, i)}`);
        }
        i++;
        expect = Expect.Value;
        break;
      }
      case Expect.CommaOrEnd: {
        const inArray = stack.at(-1) === ARRAY;
        if (c === 0x2c /* , */) {
          i++;
          expect = inArray ? Expect.Value : Expect.Name;
        } else if (c === (inArray ? 0x5d : 0x7d)) {
          stack.pop();
          i++;
          afterValue();
        } else {
          throw new Failure(i, unexpectedAfterMember(text, i, inArray));
        }
        break;
      }
      case Expect.Nothing:
        throw new Failure(
          i,
          `Unexpected ${describeChar(text, i)} after the end of the JSON value; ` +
            'a document holds exactly one value',
        );
    }
  }
}

function endExpectation(expect: Expect, stack: readonly number[]): string {
  const open = stack.at(-1) === ARRAY ? "']'" : "'}'";
  switch (expect) {
    case Expect.Value:
      if (stack.length === 0) return 'expected a JSON value';
      return stack.at(-1) === ARRAY ? "expected a value after ','" : "expected a value after ':'";
    case Expect.ValueOrEnd:
      return "expected a value or ']'";
    case Expect.NameOrEnd:
      return "expected a property name in double quotes or '}'";
    case Expect.Name:
      return "expected a property name in double quotes after ','";
    case Expect.Colon:
      return "expected ':' after property name";
    default:
      return stack.at(-1) === ARRAY
        ? `expected ',' or ${open} after array element`
        : `expected ',' or ${open} after property value`;
  }
}

function wordAt(text: string, i: number): string {
  let j = i;
  while (j < text.length && j - i < 40 && isWordChar(text.charCodeAt(j))) j++;
  return text.slice(i, j);
}

/** Why the character at `i` cannot start a value, with the usual culprits named. */
function unexpectedInValue(text: string, i: number, expect: Expect, stack: readonly number[]): string {
  const c = text.charCodeAt(i);
  const where =
    stack.length === 0
      ? 'a JSON value'
      : expect === Expect.ValueOrEnd
        ? "a value or ']'"
        : stack.at(-1) === ARRAY
          ? "a value after ','"
          : "a value after ':'";
  if (c === 0x27) return `Strings must use double quotes, not single quotes (expected ${where})`;
  if (c === 0x2f) return `Comments are not allowed in JSON (expected ${where})`;
  if (c === 0x2b) return "Numbers must not start with '+'";
  if (c === 0x2e) return "Numbers must have a digit before the decimal point ('0.5', not '.5')";
  if (c === 0x7d && stack.at(-1) === OBJECT) return "Expected a value after ':', found '}'";
  if (c === 0x2c) return `Expected ${where}, found ','`;
  const word = wordAt(text, i);
  if (word) return unexpectedWord(word, where);
  return `Expected ${where}, found ${describeChar(text, i)}`;
}

function unexpectedWord(word: string, where: string): string {
  const lower = word.toLowerCase();
  if (lower === 'true' || lower === 'false' || lower === 'null') {
    return `Unexpected '${word}': JSON literals are lower case (true, false, null)`;
  }
  if (word === 'undefined') return "'undefined' is not a JSON value; use null";
  if (word === 'NaN' || word === 'Infinity') return `'${word}' is not a JSON value; numbers must be finite`;
  return `Unexpected '${word}' (expected ${where}); strings must be in double quotes`;
}

function unexpectedName(text: string, i: number, expect: Expect): string {
  const c = text.charCodeAt(i);
  const expected =
    expect === Expect.NameOrEnd
      ? "Expected a property name in double quotes or '}'"
      : "Expected a property name in double quotes after ','";
  if (c === 0x27) return `${expected}; property names must use double quotes, not single quotes`;
  if (c === 0x2f) return `${expected}; comments are not allowed in JSON`;
  const word = wordAt(text, i);
  if (word) return `${expected}, found '${word}'; property names must be in double quotes`;
  return `${expected}, found ${describeChar(text, i)}`;
}

function unexpectedAfterMember(text: string, i: number, inArray: boolean): string {
  const expected = inArray
    ? "Expected ',' or ']' after array element"
    : "Expected ',' or '}' after property value";
  const c = text.charCodeAt(i);
  if (c === 0x2f) return `${expected}; comments are not allowed in JSON`;
  if (c === (inArray ? 0x7d : 0x5d))
    return `${expected}, found ${describeChar(text, i)} (mismatched brackets)`;
  if (c === 0x22 || c === 0x7b || c === 0x5b || isDigit(c) || isWordChar(c)) {
    return `${expected}, found ${describeChar(text, i)} (is a comma missing?)`;
  }
  return `${expected}, found ${describeChar(text, i)}`;
}

/** Returns the offset after the closing quote. */
function scanString(text: string, start: number): number {
  const n = text.length;
  let i = start + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c === 0x5c /* \ */) {
      const e = text.charCodeAt(i + 1);
      if (i + 1 >= n) break;
      if (e === 0x75 /* u */) {
        for (let k = 2; k < 6; k++) {
          if (!isHex(text.charCodeAt(i + k))) {
            throw new Failure(
              i,
              `Invalid Unicode escape '${text.slice(i, Math.min(i + 6, n))}': ` +
                "'\\u' must be followed by four hex digits",
            );
          }
        }
        i += 6;
      } else if ('"\\/bfnrt'.includes(text[i + 1]!)) {
        i += 2;
      } else {
        throw new Failure(
          i,
          `Invalid escape '\\${String.fromCodePoint(text.codePointAt(i + 1)!)}' in string; ` +
            'valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX',
        );
      }
      continue;
    }
    if (c < 0x20) {
      const written = NAMED_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
      throw new Failure(i, `Unescaped ${describeChar(text, i)} in string; write it as ${written}`);
    }
    i++;
  }
  throw new Failure(start, "Unterminated string: no closing '\"' before the end of input");
}

/** Returns the offset after the number. */
function scanNumber(text: string, start: number): number {
  let i = start;
  if (text.charCodeAt(i) === 0x2d) {
    i++;
    if (!isDigit(text.charCodeAt(i))) {
      const word = wordAt(text, i);
      if (word === 'Infinity')
        throw new Failure(start, "'-Infinity' is not a JSON value; numbers must be finite");
      throw new Failure(i, "Expected a digit after '-'");
    }
  }
  if (text.charCodeAt(i) === 0x30) {
    i++;
    if (isDigit(text.charCodeAt(i))) throw new Failure(start, 'Numbers must not have leading zeros');
  } else {
    while (isDigit(text.charCodeAt(i))) i++;
  }
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (!isDigit(text.charCodeAt(i))) throw new Failure(i, 'Expected a digit after the decimal point');
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) throw new Failure(i, 'Expected a digit in the exponent');
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** `true`, `false` or `null`; returns the offset after it. */
function scanLiteral(text: string, start: number): number {
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, start)) return start + literal.length;
  }
  const word = wordAt(text, start);
  const meant = ['true', 'false', 'null'].find((l) => l[0] === text[start])!;
  throw new Failure(start, `Unexpected '${word || text[start]}'; did you mean ${meant}?`);
}
