import iconv from 'iconv-lite';
import { CODECS, encodingForLabel } from './labels.js';

/** Where the encoding came from, in the order the HTML standard consults them. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'default';

export interface DetectedCharset {
  /** WHATWG name: `UTF-8`, `Shift_JIS`, `windows-1251`, … */
  readonly encoding: string;
  readonly source: CharsetSource;
}

/** The HTML standard prescans this many bytes for a `<meta>` declaration. */
export const PRESCAN_BYTES = 1024;

/**
 * The encoding sniffing algorithm of the HTML standard (13.2.3.1), for a document that is already fully
 * received: byte order mark, then the `charset` parameter of Content-Type, then a `<meta charset>` or
 * `<meta http-equiv=Content-Type>` within the first 1024 bytes. Without any of them browsers guess from the
 * user's locale; we take UTF-8 when the bytes are valid UTF-8 (plain ASCII included) and windows-1252
 * otherwise, which is the web's most common legacy encoding and decodes every byte.
 */
export function detectCharset(body: Buffer, contentType: string | undefined): DetectedCharset {
  const bom = fromBom(body);
  if (bom) return { encoding: bom, source: 'bom' };
  const declared = contentType === undefined ? null : decodable(charsetParameter(contentType));
  if (declared) return { encoding: declared, source: 'header' };
  const meta = decodable(prescan(body.subarray(0, PRESCAN_BYTES)));
  if (meta) return { encoding: meta, source: 'meta' };
  return { encoding: isUtf8(body) ? 'UTF-8' : 'windows-1252', source: 'default' };
}

/** Text of the body in `encoding` (a WHATWG name with a codec), byte order mark removed. */
export function decodeBody(body: Buffer, encoding: string): string {
  return iconv.decode(body, CODECS[encoding] ?? 'windows1252');
}

function fromBom(b: Buffer): string | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'UTF-8';
  if (b[0] === 0xfe && b[1] === 0xff) return 'UTF-16BE';
  if (b[0] === 0xff && b[1] === 0xfe) return 'UTF-16LE';
  return null;
}

const decodable = (encoding: string | null): string | null =>
  encoding !== null && CODECS[encoding] !== undefined ? encoding : null;

/** The encoding named by the `charset` parameter of a Content-Type value, if any. */
export function charsetParameter(contentType: string): string | null {
  for (const part of contentType.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"')) {
      const close = value.indexOf('"', 1);
      value = value.slice(1, close < 0 ? undefined : close);
    }
    return encodingForLabel(value);
  }
  return null;
}

/** Valid UTF-8 up to the end, where a sequence cut by the byte cap is allowed. */
function isUtf8(body: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body, { stream: true });
    return true;
  } catch {
    return false;
  }
}

const SPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const lower = (b: number): number => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);
const isLetter = (b: number | undefined): boolean =>
  b !== undefined && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));

function startsWithCi(bytes: Uint8Array, at: number, ascii: string): boolean {
  if (at + ascii.length > bytes.length) return false;
  for (let i = 0; i < ascii.length; i++) if (lower(bytes[at + i]!) !== ascii.charCodeAt(i)) return false;
  return true;
}

function indexOfSeq(bytes: Uint8Array, seq: string, from: number): number {
  outer: for (let i = from; i + seq.length <= bytes.length; i++) {
    for (let k = 0; k < seq.length; k++) if (bytes[i + k] !== seq.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}

/**
 * "Prescan a byte stream to determine its encoding" (HTML standard 13.2.3.2), step by step: skips comments and
 * other tags, reads `<meta>` attributes the way the tokenizer would, and honours `http-equiv`+`content` only
 * together. Returns the WHATWG encoding name, or null.
 */
export function prescan(bytes: Uint8Array): string | null {
  let pos = 0;
  while (pos < bytes.length) {
    if (startsWithCi(bytes, pos, '<!--')) {
      // The comment ends at a '>' preceded by '--', which may share the dashes of '<!--' ("<!-->").
      const end = indexOfSeq(bytes, '-->', pos + 2);
      if (end < 0) return null;
      pos = end + 3;
      continue;
    }
    if (startsWithCi(bytes, pos, '<meta') && (SPACE.has(bytes[pos + 5]!) || bytes[pos + 5] === 0x2f)) {
      const found = readMeta(bytes, pos + 5);
      if (found.end < 0) return null;
      if (found.encoding) return found.encoding;
      pos = found.end + 1;
      continue;
    }
    if (
      bytes[pos] === 0x3c &&
      (isLetter(bytes[pos + 1]) || (bytes[pos + 1] === 0x2f && isLetter(bytes[pos + 2])))
    ) {
      pos += bytes[pos + 1] === 0x2f ? 2 : 1;
      while (pos < bytes.length && !SPACE.has(bytes[pos]!) && bytes[pos] !== 0x3e) pos++;
      for (;;) {
        const attr = readAttribute(bytes, pos);
        if (!attr) return null;
        pos = attr.end;
        if (attr.name === null) break;
      }
      pos++;
      continue;
    }
    if (
      bytes[pos] === 0x3c &&
      (bytes[pos + 1] === 0x21 || bytes[pos + 1] === 0x2f || bytes[pos + 1] === 0x3f)
    ) {
      const end = bytes.indexOf(0x3e, pos + 2);
      if (end < 0) return null;
      pos = end + 1;
      continue;
    }
    pos++;
  }
  return null;
}

/** The attributes of one `<meta>`, starting after its name; `end` is the '>' (or −1: input ended). */
function readMeta(bytes: Uint8Array, start: number): { encoding: string | null; end: number } {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  let charset: string | null = null;
  let pos = start;
  for (;;) {
    const attr = readAttribute(bytes, pos);
    if (!attr) return { encoding: null, end: -1 };
    pos = attr.end;
    if (attr.name === null) break;
    if (seen.has(attr.name)) continue;
    seen.add(attr.name);
    if (attr.name === 'http-equiv') {
      if (attr.value === 'content-type') gotPragma = true;
    } else if (attr.name === 'content') {
      if (charset === null) {
        const label = charsetFromMetaContent(attr.value);
        if (label !== null) {
          charset = encodingForLabel(label);
          needPragma = true;
        }
      }
    } else if (attr.name === 'charset') {
      charset = encodingForLabel(attr.value);
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma) || charset === null)
    return { encoding: null, end: pos };
  // A document whose bytes reached the prescan as ASCII cannot really be UTF-16.
  if (charset === 'UTF-16BE' || charset === 'UTF-16LE') return { encoding: 'UTF-8', end: pos };
  if (charset === 'x-user-defined') return { encoding: 'windows-1252', end: pos };
  return { encoding: charset, end: pos };
}

/**
 * "Get an attribute" (13.2.3.2): null when the input ends first; `name: null` at the tag's '>' (then `end` is
 * that '>'); names and values ASCII-lowercased, as the prescan compares them.
 */
function readAttribute(
  bytes: Uint8Array,
  start: number,
): { name: string | null; value: string; end: number } | null {
  let pos = start;
  const at = () => bytes[pos];
  while (pos < bytes.length && (SPACE.has(at()!) || at() === 0x2f)) pos++;
  if (pos >= bytes.length) return null;
  if (at() === 0x3e) return { name: null, value: '', end: pos };
  let name = '';
  let value = '';
  for (;;) {
    if (pos >= bytes.length) return null;
    const b = at()!;
    if (b === 0x3d && name !== '') {
      pos++;
      break;
    }
    if (SPACE.has(b)) {
      while (pos < bytes.length && SPACE.has(at()!)) pos++;
      if (pos >= bytes.length) return null;
      if (at() !== 0x3d) return { name, value: '', end: pos };
      pos++;
      break;
    }
    if (b === 0x2f || b === 0x3e) return { name, value: '', end: pos };
    name += String.fromCharCode(lower(b));
    pos++;
  }
  while (pos < bytes.length && SPACE.has(at()!)) pos++;
  if (pos >= bytes.length) return null;
  const quote = at();
  if (quote === 0x22 || quote === 0x27) {
    pos++;
    for (;;) {
      if (pos >= bytes.length) return null;
      if (at() === quote) return { name, value, end: pos + 1 };
      value += String.fromCharCode(lower(at()!));
      pos++;
    }
  }
  if (quote === 0x3e) return { name, value: '', end: pos };
  for (;;) {
    if (pos >= bytes.length) return null;
    const b = at()!;
    if (SPACE.has(b) || b === 0x3e) return { name, value, end: pos };
    value += String.fromCharCode(lower(b));
    pos++;
  }
}

/** "Extract a character encoding from a meta element" (HTML standard 2.5.6): the label after `charset=`. */
export function charsetFromMetaContent(content: string): string | null {
  const s = content;
  let pos = 0;
  for (;;) {
    const i = s.toLowerCase().indexOf('charset', pos);
    if (i < 0) return null;
    pos = i + 7;
    while (pos < s.length && /[\t\n\f\r ]/.test(s[pos]!)) pos++;
    if (s[pos] === '=') {
      pos++;
      break;
    }
  }
  while (pos < s.length && /[\t\n\f\r ]/.test(s[pos]!)) pos++;
  if (pos >= s.length) return null;
  const q = s[pos];
  if (q === '"' || q === "'") {
    const end = s.indexOf(q, pos + 1);
    return end < 0 ? null : s.slice(pos + 1, end);
  }
  let end = pos;
  while (end < s.length && !/[\t\n\f\r ;]/.test(s[end]!)) end++;
  return s.slice(pos, end);
}
