import { sniffDelimited } from './delimited.js';
import { scanJson } from './json-prefix.js';
import { sniffMarkup } from './markup.js';

/** The MIME type of each type a text heuristic can name (binary types take the `file-type` package's). */
export const TEXT_MIME: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  html: 'text/html',
  xhtml: 'application/xhtml+xml',
  sh: 'text/x-shellscript',
  py: 'text/x-python',
  js: 'text/javascript',
  pl: 'text/x-perl',
  rb: 'text/x-ruby',
  php: 'application/x-httpd-php',
  ps1: 'application/x-powershell',
  lua: 'text/x-lua',
  bat: 'application/x-bat',
  script: 'text/x-script',
};

export type TextEncoding = 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | 'UTF-32LE' | 'UTF-32BE' | 'windows-1252';

export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncoding;
  /** Length of the byte order mark (0 without one). */
  readonly bom: number;
}

export interface TextGuess {
  readonly ext: string;
  readonly confidence: number;
  readonly encoding: TextEncoding;
  readonly bom: number;
  /** The `#!` line's interpreter, for scripts recognized by it. */
  readonly interpreter?: string;
}

const BOMS: readonly [number[], TextEncoding][] = [
  [[0xef, 0xbb, 0xbf], 'UTF-8'],
  [[0xff, 0xfe, 0x00, 0x00], 'UTF-32LE'],
  [[0x00, 0x00, 0xfe, 0xff], 'UTF-32BE'],
  [[0xff, 0xfe], 'UTF-16LE'],
  [[0xfe, 0xff], 'UTF-16BE'],
];

/**
 * Bytes as text: by their byte order mark, else UTF-8 (a sequence cut at the end is dropped), else
 * windows-1252. Null for binary data: a NUL, or more than 1 % other control characters (tab, line breaks, form
 * feed and escape excepted).
 */
export function decodeText(bytes: Uint8Array): DecodedText | null {
  const bom = BOMS.find(([mark]) => mark.every((b, i) => bytes[i] === b));
  let decoded: DecodedText | null;
  if (bom) {
    const [mark, encoding] = bom;
    decoded = { text: decodeWith(bytes.subarray(mark.length), encoding), encoding, bom: mark.length };
  } else {
    const utf8 = decodeUtf8(bytes);
    decoded =
      utf8 === null
        ? { text: Buffer.from(bytes).toString('latin1'), encoding: 'windows-1252', bom: 0 }
        : { text: utf8, encoding: 'UTF-8', bom: 0 };
  }
  return looksLikeText(decoded.text) ? decoded : null;
}

function decodeWith(bytes: Uint8Array, encoding: TextEncoding): string {
  if (encoding === 'UTF-32LE' || encoding === 'UTF-32BE') {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let out = '';
    for (let i = 0; i + 4 <= bytes.length; i += 4) {
      const cp = view.getUint32(i, encoding === 'UTF-32LE');
      out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
    }
    return out;
  }
  const label = encoding === 'UTF-16LE' ? 'utf-16le' : encoding === 'UTF-16BE' ? 'utf-16be' : 'utf-8';
  return new TextDecoder(label).decode(bytes);
}

/** Strict UTF-8, allowing only the last sequence to be incomplete (the sample may end inside it). */
function decodeUtf8(bytes: Uint8Array): string | null {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= 3 && cut < bytes.length; cut++) {
    try {
      return decoder.decode(bytes.subarray(0, bytes.length - cut));
    } catch {
      // An incomplete final sequence: try without its bytes.
    }
  }
  return null;
}

function looksLikeText(text: string): boolean {
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return false;
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13 && c !== 27) || c === 0x7f) control++;
  }
  return control * 100 <= text.length;
}

const INTERPRETERS: readonly [RegExp, string][] = [
  [/^(?:ba|z|k|da|a|c|tc|mk|fi)?sh$/, 'sh'],
  [/^python[\d.]*$/, 'py'],
  [/^(?:node|nodejs|deno|bun)$/, 'js'],
  [/^perl[\d.]*$/, 'pl'],
  [/^ruby[\d.]*$/, 'rb'],
  [/^php[\d.]*$/, 'php'],
  [/^(?:pwsh|powershell)$/i, 'ps1'],
  [/^lua[\d.]*$/, 'lua'],
];

/** `#!/usr/bin/env -S python3 -u` → python3: the program, past `env` and its options. */
export function interpreterOf(line: string): string | null {
  const words = line.slice(2).trim().split(/\s+/);
  let i = 0;
  if (words[0]?.split('/').pop() === 'env') {
    i = 1;
    while (words[i]?.startsWith('-')) i++;
  }
  const program = words[i]?.split('/').pop();
  return program ? program : null;
}

/**
 * The type of text, by the first rule that holds: a `#!` line (a script for its interpreter), markup (PHP, XML,
 * SVG, XHTML, HTML), JSON (a complete document, a cut one, or JSON Lines), a batch file's `@echo off`,
 * delimiter-separated values, else plain text.
 */
export function sniffText(bytes: Uint8Array): TextGuess | null {
  const decoded = decodeText(bytes);
  if (!decoded || decoded.text.trim() === '') return null;
  const { text, encoding, bom } = decoded;
  const guess = (ext: string, confidence: number, interpreter?: string): TextGuess => ({
    ext,
    confidence,
    encoding,
    bom,
    ...(interpreter ? { interpreter } : {}),
  });
  if (text.startsWith('#!')) {
    const interpreter = interpreterOf(text.split(/\r?\n|\r/, 1)[0]!);
    if (interpreter) {
      const ext = INTERPRETERS.find(([pattern]) => pattern.test(interpreter))?.[1] ?? 'script';
      return guess(ext, 0.9, interpreter);
    }
  }
  const markup = sniffMarkup(text);
  if (markup) return guess(markup.ext, markup.confidence);
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    const verdict = scanJson(text);
    if (verdict === 'complete') return guess('json', 0.9);
    if (verdict === 'sequence') return guess('ndjson', 0.8);
    if (verdict === 'prefix') return guess('json', 0.7);
  }
  if (/^\s*@echo\s+off\b/i.test(text)) return guess('bat', 0.8);
  const table = sniffDelimited(text);
  if (table) return guess(table.delimiter === '\t' ? 'tsv' : 'csv', table.rows >= 5 ? 0.7 : 0.6);
  return guess('txt', 0.5);
}
