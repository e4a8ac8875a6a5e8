import { at, CHAR, isAlnum, isAlpha, isSpace } from './chars.js';
import { type FieldKind, fieldKind, fieldValueFinding, mayNameSecret } from './fields.js';
import type { Detector, Finding, ScanOptions } from './types.js';

const MAX_KEY = 64;

const isKeyChar = (c: number): boolean =>
  isAlnum(c) || c === CHAR.UNDERSCORE || c === CHAR.DASH || c === CHAR.DOT;

/** Where a bare value ends: white space and the punctuation that separates fields in logs and URLs. */
const STOPS = new Set<number>([
  CHAR.COMMA,
  CHAR.SEMI,
  CHAR.AMP,
  CHAR.QUOTE,
  CHAR.APOS,
  CHAR.LT,
  CHAR.GT,
  CHAR.RPAREN,
  CHAR.RBRACKET,
  CHAR.RBRACE,
  CHAR.PIPE,
  CHAR.BACKSLASH,
]);
const isBare = (c: number): boolean => c >= 0 && !isSpace(c) && !STOPS.has(c);

interface Key {
  readonly name: string;
  readonly start: number;
  /** Nothing but a line start, `{`, `,`, `;`, `(`, `[` or `|` before it (and spaces). */
  readonly atFieldStart: boolean;
}

/** The field name before a `=` or `:`: `password`, `"password"`, `\"password\"` (JSON inside a string). */
function keyBefore(text: string, sep: number): Key | null {
  let j = sep;
  while (j > 0 && sep - j < 2 && text.charCodeAt(j - 1) === CHAR.SPACE) j--;
  let start: number;
  let name: string;
  const last = at(text, j - 1);
  if (last === CHAR.QUOTE || last === CHAR.APOS) {
    const escaped = at(text, j - 2) === CHAR.BACKSLASH;
    const end = escaped ? j - 2 : j - 1;
    let k = end;
    while (
      k > 0 &&
      end - k <= MAX_KEY &&
      text.charCodeAt(k - 1) !== last &&
      text.charCodeAt(k - 1) !== CHAR.LF
    )
      k--;
    if (at(text, k - 1) !== last || end - k > MAX_KEY) return null;
    name = text.slice(k, end);
    start = escaped ? k - 2 : k - 1;
  } else {
    let k = j;
    while (k > 0 && j - k <= MAX_KEY && isKeyChar(text.charCodeAt(k - 1))) k--;
    if (k === j || j - k > MAX_KEY) return null;
    name = text.slice(k, j);
    start = k;
  }
  let b = start;
  while (
    b > 0 &&
    start - b < 8 &&
    (text.charCodeAt(b - 1) === CHAR.SPACE || text.charCodeAt(b - 1) === CHAR.TAB)
  )
    b--;
  const before = at(text, b - 1);
  const atFieldStart =
    before === -1 || before === CHAR.LF || before === CHAR.CR || '{,;([|'.includes(text[b - 1]!);
  return { name, start, atFieldStart };
}

/** A cheap look at the last letter of the name before a separator, before the name is read at all. */
function endsLikeSecretName(text: string, sep: number): boolean {
  let j = sep - 1;
  while (j >= 0 && sep - j <= 2 && text.charCodeAt(j) === CHAR.SPACE) j--;
  let c = at(text, j);
  if (c === CHAR.QUOTE || c === CHAR.APOS) {
    c = at(text, j - 1);
    if (c === CHAR.BACKSLASH) c = at(text, j - 2);
  }
  return isAlpha(c) && mayNameSecret(c);
}

interface Value {
  readonly start: number;
  readonly end: number;
  /** Where reading stopped (after a closing quote): nothing before it is looked at again. */
  readonly next: number;
}

/** A quoted value up to its closing quote on the same line; `\"`-quoted inside JSON strings too. */
function quotedValue(text: string, open: number): Value | null {
  const q = text.charCodeAt(open);
  const escaped = q === CHAR.BACKSLASH;
  const start = escaped ? open + 2 : open + 1;
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === CHAR.LF || c === CHAR.CR) return { start, end: start, next: i };
    if (escaped) {
      if (c === CHAR.BACKSLASH && at(text, i + 1) === CHAR.QUOTE) return { start, end: i, next: i + 2 };
      if (c === CHAR.BACKSLASH) i++;
    } else if (c === CHAR.BACKSLASH && q === CHAR.QUOTE) {
      i++;
    } else if (c === q) {
      return { start, end: i, next: i + 1 };
    }
    i++;
  }
  return { start, end: start, next: i };
}

function valueAfter(text: string, sep: number, key: Key, kind: FieldKind): Value | null {
  const sepChar = text.charCodeAt(sep);
  let v = sep + 1;
  // `https://…` is a scheme, `a == b` a comparison.
  if (sepChar === CHAR.COLON && at(text, v) === CHAR.SLASH && at(text, v + 1) === CHAR.SLASH) return null;
  if (sepChar === CHAR.EQ && at(text, v) === CHAR.EQ) return null;
  // `key: value` and `key = value` are spaced; in `key= next=…` the value is empty.
  if (sepChar === CHAR.COLON || at(text, sep - 1) === CHAR.SPACE) {
    while (v - sep <= 4 && (at(text, v) === CHAR.SPACE || at(text, v) === CHAR.TAB)) v++;
  }
  const c = at(text, v);
  if (c === CHAR.QUOTE || c === CHAR.APOS || (c === CHAR.BACKSLASH && at(text, v + 1) === CHAR.QUOTE)) {
    return quotedValue(text, v);
  }
  // "Invalid password: try again" is prose; `password: s3cret` on its own line or field is a field.
  if (sepChar === CHAR.COLON && v > sep + 1 && !key.atFieldStart) return null;
  let end = v;
  while (isBare(at(text, end))) end++;
  if (kind === 'AUTHORIZATION' && end > v && at(text, end) === CHAR.SPACE && isBare(at(text, end + 1))) {
    end++;
    while (isBare(at(text, end))) end++;
  }
  return { start: v, end, next: end };
}

/** The value of a secret-named field whose separator is at `sep`, if there is one. */
function fieldAt(text: string, sep: number): (Value & { kind: FieldKind }) | null {
  if (!endsLikeSecretName(text, sep)) return null;
  const key = keyBefore(text, sep);
  const kind = key && fieldKind(key.name);
  if (!key || !kind) return null;
  const value = valueAfter(text, sep, key, kind);
  return value ? { ...value, kind } : null;
}

/**
 * Secrets named by their field: `password=…`, `"apiKey": "…"`, `Authorization: Bearer …`, `ssn=…`
 * (fields.ts says which names). Anchors are `=` and `:`; the key is read leftwards (at most 64 characters)
 * and the value rightwards, and no anchor inside a value already read is tried again: linear. In JSON mode
 * the field name of the string being scanned is known, and the whole string is that field's value.
 */
export const keyValueDetector: Detector = {
  types: ['PASSWORD', 'API_KEY', 'SSN'],
  scan(text: string, out: Finding[], options: ScanOptions): void {
    const push = (f: Finding | null) => {
      if (f && (!options.types || options.types.has(f.type))) out.push(f);
    };
    if (options.fieldName !== undefined) {
      const kind = fieldKind(options.fieldName);
      if (kind) push(fieldValueFinding(kind, text, 0, text.length));
    }
    // The two separators are found by forward searches (each cursor only moves on), not char by char.
    let next = 0;
    let eq = text.indexOf('=');
    let colon = text.indexOf(':');
    while (eq !== -1 || colon !== -1) {
      const i = eq === -1 ? colon : colon === -1 ? eq : Math.min(eq, colon);
      const value = i >= next ? fieldAt(text, i) : null;
      if (value) {
        next = value.next;
        push(fieldValueFinding(value.kind, text, value.start, value.end));
      }
      const from = Math.max(i + 1, next);
      if (i === eq) eq = text.indexOf('=', from);
      else colon = text.indexOf(':', from);
    }
  },
};
