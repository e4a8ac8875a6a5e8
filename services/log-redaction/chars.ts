/**
 * Character classes on UTF-16 code units: detectors walk the text with charCodeAt. Runs are measured against
 * a class table with a bit mask rather than a predicate function, so the hot loops stay monomorphic however
 * many detectors share them.
 */

export const DIGIT = 1;
export const UPPER = 2;
export const LOWER = 4;
export const UNDERSCORE = 8;
export const DASH = 16;
export const DOT = 32;
export const COLON = 64;
export const PLUS = 128;
export const SLASH = 256;
/** a–f and A–F (with DIGIT: hexadecimal). */
export const HEX_LETTER = 512;

export const ALNUM = DIGIT | UPPER | LOWER;
export const HEX = DIGIT | HEX_LETTER;
/** base64url alphabet: letters, digits, `-`, `_`. */
export const BASE64URL = ALNUM | UNDERSCORE | DASH;

const TABLE = new Uint16Array(128);
for (let c = 48; c <= 57; c++) TABLE[c] = DIGIT;
for (let c = 65; c <= 90; c++) TABLE[c] = UPPER | (c <= 70 ? HEX_LETTER : 0);
for (let c = 97; c <= 122; c++) TABLE[c] = LOWER | (c <= 102 ? HEX_LETTER : 0);
TABLE[95] = UNDERSCORE;
TABLE[45] = DASH;
TABLE[46] = DOT;
TABLE[58] = COLON;
TABLE[43] = PLUS;
TABLE[47] = SLASH;

/** Whether code unit `c` (or -1 outside the text) is in any class of `mask`. */
export const inClass = (c: number, mask: number): boolean => c >= 0 && c < 128 && (TABLE[c]! & mask) !== 0;

export const isDigit = (c: number): boolean => c >= 48 && c <= 57;
export const isUpper = (c: number): boolean => c >= 65 && c <= 90;
export const isLower = (c: number): boolean => c >= 97 && c <= 122;
export const isAlpha = (c: number): boolean => isUpper(c) || isLower(c);
export const isAlnum = (c: number): boolean => isDigit(c) || isAlpha(c);
/** Letters, digits and `_`: what glues characters into one identifier. */
export const isWord = (c: number): boolean => isAlnum(c) || c === 95;
export const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
export const isBase64Url = (c: number): boolean => isWord(c) || c === 45;
export const isSpace = (c: number): boolean =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;

/** Code unit at `i`, or -1 outside the string, so boundary checks need no length test. */
export const at = (text: string, i: number): number => (i >= 0 && i < text.length ? text.charCodeAt(i) : -1);

/** End of the run of `mask` characters starting at `start`. */
export function runEnd(text: string, start: number, mask: number): number {
  const n = text.length;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c >= 128 || (TABLE[c]! & mask) === 0) break;
    i++;
  }
  return i;
}

/** Start of the next run of `mask` characters at or after `from` (the text's length when there is none). */
export function runStart(text: string, from: number, mask: number): number {
  const n = text.length;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && (TABLE[c]! & mask) !== 0) break;
    i++;
  }
  return i;
}

export const CHAR = {
  TAB: 9,
  LF: 10,
  CR: 13,
  SPACE: 32,
  QUOTE: 34,
  HASH: 35,
  PERCENT: 37,
  AMP: 38,
  APOS: 39,
  LPAREN: 40,
  RPAREN: 41,
  PLUS: 43,
  COMMA: 44,
  DASH: 45,
  DOT: 46,
  SLASH: 47,
  COLON: 58,
  SEMI: 59,
  LT: 60,
  EQ: 61,
  GT: 62,
  QUESTION: 63,
  AT: 64,
  LBRACKET: 91,
  BACKSLASH: 92,
  RBRACKET: 93,
  UNDERSCORE: 95,
  LBRACE: 123,
  PIPE: 124,
  RBRACE: 125,
} as const;
