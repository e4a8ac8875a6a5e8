import { CHAR, isDigit, isHex } from './chars.js';

/**
 * A validating, allocation-light JSON lexer: one pass, an explicit stack (no recursion, so any nesting depth),
 * and no JSON.parse (whose time on deeply nested input grows faster than the input). It accepts one JSON
 * document (RFC 8259) or JSON Lines: several documents, each starting on a new line.
 */
export interface JsonVisitor {
  /** A string value: its decoded text, the source offset of its first character, where each decoded code
   *  unit came from (null when nothing was escaped), and the name of the field it is the value of. */
  string(value: string, raw: number, map: Int32Array | null, field: string | undefined): void;
  /** A number literal at [start, end) of the source, with its field. */
  number(start: number, end: number, field: string | undefined): void;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * The next backslash at or after a position, for positions that only grow: one forward search over the whole
 * text in total, however many strings ask (a plain indexOf per string would rescan the tail every time).
 */
class Backslashes {
  private pos = -2;

  constructor(private readonly text: string) {}

  next(from: number): number {
    if (this.pos === -2 || (this.pos !== -1 && this.pos < from)) this.pos = this.text.indexOf('\\', from);
    return this.pos;
  }
}

/** Decodes the (valid) literal between source offsets [s, e), recording where each code unit came from. */
function decode(
  text: string,
  s: number,
  e: number,
  slashes: Backslashes,
): { value: string; map: Int32Array | null } {
  let slash = slashes.next(s);
  if (slash === -1 || slash >= e) return { value: text.slice(s, e), map: null };
  const parts: string[] = [];
  const map = new Int32Array(e - s + 1);
  let d = 0;
  let i = s;
  while (i < e) {
    const runTo = slash === -1 || slash >= e ? e : slash;
    parts.push(text.slice(i, runTo));
    for (let k = i; k < runTo; k++) map[d++] = k;
    i = runTo;
    if (i >= e) break;
    map[d++] = i;
    const kind = text[i + 1]!;
    if (kind === 'u') {
      parts.push(String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16)));
      i += 6;
    } else {
      parts.push(ESCAPES[kind]!);
      i += 2;
    }
    slash = slashes.next(i);
  }
  map[d] = e;
  return { value: parts.join(''), map: map.subarray(0, d + 1) };
}

/** End of the string literal opening at `q` (after its closing quote), or -1 when it is not valid JSON. */
function stringEnd(text: string, q: number): number {
  const n = text.length;
  let i = q + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === CHAR.QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c !== CHAR.BACKSLASH) {
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e === 'u') {
      for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) return -1;
      i += 6;
    } else if (e !== undefined && e in ESCAPES) {
      i += 2;
    } else {
      return -1;
    }
  }
  return -1;
}

const digitsEnd = (text: string, i: number): number => {
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i;
};

/** End of the number literal at `s` (RFC 8259 grammar), or -1. */
function numberEnd(text: string, s: number): number {
  let i = s;
  if (text.charCodeAt(i) === CHAR.DASH) i++;
  if (text.charCodeAt(i) === 48) i++;
  else if (isDigit(text.charCodeAt(i))) i = digitsEnd(text, i);
  else return -1;
  if (text.charCodeAt(i) === CHAR.DOT) {
    const e = digitsEnd(text, i + 1);
    if (e === i + 1) return -1;
    i = e;
  }
  const c = text.charCodeAt(i);
  if (c === 101 || c === 69) {
    i++;
    if (text.charCodeAt(i) === CHAR.PLUS || text.charCodeAt(i) === CHAR.DASH) i++;
    const e = digitsEnd(text, i);
    if (e === i) return -1;
    i = e;
  }
  return i;
}

const OBJECT = 1;
const ARRAY = 2;

/** What the lexer expects next: a value, a field name, a colon, `,` or a close, or the next JSON Lines document. */
const STATE = { VALUE: 0, KEY: 1, COLON: 2, AFTER: 3, TOP: 4 } as const;

/** Lexes `text`, calling the visitor for every string value and number; false when it is not JSON. */
export function lexJson(text: string, visitor: JsonVisitor): boolean {
  const n = text.length;
  const slashes = new Backslashes(text);
  let kinds = new Uint8Array(64);
  const fields: (string | undefined)[] = [];
  let depth = 0;
  let key: string | undefined;
  let state: number = STATE.VALUE;
  /** Just after `[` or `{`: the container may close at once. */
  let opened = false;
  let documents = 0;
  let newline = true;

  const field = (): string | undefined =>
    depth === 0 ? undefined : kinds[depth - 1] === OBJECT ? key : fields[depth - 1];
  const done = () => {
    if (depth > 0) return STATE.AFTER;
    documents++;
    newline = false;
    return STATE.TOP;
  };

  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === CHAR.SPACE || c === CHAR.TAB || c === CHAR.LF || c === CHAR.CR) {
      if (c === CHAR.LF) newline = true;
      i++;
      continue;
    }
    if (state === STATE.TOP) {
      // JSON Lines: the next document must start on a new line.
      if (!newline) return false;
      state = STATE.VALUE;
    }
    if (state === STATE.VALUE) {
      if (c === CHAR.LBRACE || c === CHAR.LBRACKET) {
        if (depth === kinds.length) {
          const grown = new Uint8Array(kinds.length * 2);
          grown.set(kinds);
          kinds = grown;
        }
        fields[depth] = field();
        kinds[depth++] = c === CHAR.LBRACE ? OBJECT : ARRAY;
        state = c === CHAR.LBRACE ? STATE.KEY : STATE.VALUE;
        opened = true;
        i++;
        continue;
      }
      if (c === CHAR.RBRACKET && opened && kinds[depth - 1] === ARRAY) {
        depth--;
        opened = false;
        state = done();
        i++;
        continue;
      }
      opened = false;
      if (c === CHAR.QUOTE) {
        const end = stringEnd(text, i);
        if (end === -1) return false;
        const { value, map } = decode(text, i + 1, end - 1, slashes);
        visitor.string(value, i + 1, map, field());
        i = end;
      } else if (c === CHAR.DASH || isDigit(c)) {
        const end = numberEnd(text, i);
        if (end === -1) return false;
        visitor.number(i, end, field());
        i = end;
      } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
        i += 4;
      } else if (text.startsWith('false', i)) {
        i += 5;
      } else {
        return false;
      }
      state = done();
    } else if (state === STATE.KEY) {
      if (c === CHAR.RBRACE && opened) {
        depth--;
        opened = false;
        state = done();
        i++;
        continue;
      }
      if (c !== CHAR.QUOTE) return false;
      opened = false;
      const end = stringEnd(text, i);
      if (end === -1) return false;
      key = decode(text, i + 1, end - 1, slashes).value;
      state = STATE.COLON;
      i = end;
    } else if (state === STATE.COLON) {
      if (c !== CHAR.COLON) return false;
      state = STATE.VALUE;
      i++;
    } else {
      const kind = kinds[depth - 1];
      if (c === CHAR.COMMA) state = kind === OBJECT ? STATE.KEY : STATE.VALUE;
      else if ((c === CHAR.RBRACE && kind === OBJECT) || (c === CHAR.RBRACKET && kind === ARRAY)) {
        depth--;
        state = done();
      } else return false;
      i++;
    }
  }
  return state === STATE.TOP && documents > 0;
}
