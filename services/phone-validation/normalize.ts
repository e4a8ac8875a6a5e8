/**
 * What the input looks like before libphonenumber-js reads it. The library (in its strict, non-extracting
 * mode) refuses surrounding white space, line breaks inside the number and a full-width plus sign that
 * Google's libphonenumber accepts, and keeps an extension written in Arabic-Indic digits as it was; this
 * evens those out, so the same number gives the same result however it was typed or pasted.
 */

/** Full-width, Arabic-Indic and extended Arabic-Indic digits: the digit sets libphonenumber-js reads. */
const DIGIT_BLOCKS: readonly (readonly [number, number])[] = [
  [0xff10, 0xff19],
  [0x0660, 0x0669],
  [0x06f0, 0x06f9],
];
const FOREIGN_DIGIT = /[\uFF10-\uFF19\u0660-\u0669\u06F0-\u06F9]/g;
const FULL_WIDTH_PLUS = /\uFF0B/g;
// An RFC 3966 URI is accepted because `rfc3966` in our own results is one: a result's URI validates again.
const TEL_SCHEME = /^tel:/i;

const asciiDigit = (char: string): string => {
  const code = char.codePointAt(0)!;
  const block = DIGIT_BLOCKS.find(([first, last]) => code >= first && code <= last)!;
  return String(code - block[0]);
};

/** Digits as ASCII, `＋` as `+`, white space trimmed and runs of it (tabs, line breaks, NBSP) as one space. */
export function normalizeInput(raw: string): string {
  return raw
    .replace(FOREIGN_DIGIT, asciiDigit)
    .replace(FULL_WIDTH_PLUS, '+')
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(TEL_SCHEME, '');
}

/**
 * The number part of normalized input: a leading `+` and the digits, without the extension's digits (which
 * libphonenumber-js always finds after the number). Empty when the input holds no digit at all.
 */
export function sanitizeInput(normalized: string, extension: string | null): string {
  const plus = normalized.startsWith('+') ? '+' : '';
  const digits = normalized.replace(/\D/g, '');
  const number = extension && digits.endsWith(extension) ? digits.slice(0, -extension.length) : digits;
  return plus + number;
}
