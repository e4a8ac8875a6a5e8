/** Markup recognized at the start of text, with how sure the guess is. */
export interface MarkupGuess {
  readonly ext: 'xml' | 'svg' | 'html' | 'xhtml' | 'php';
  readonly confidence: number;
}

/** Tags that open HTML, after the WHATWG MIME Sniffing standard's "unknown type" rules. */
const HTML_OPENERS = /^<(?:html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p)[\s>]/;

/**
 * PHP, XML (and SVG or XHTML by their root element), or HTML, judged by how the text starts (white space and a
 * BOM already removed by the caller's decoding). `<?xml` is XML's own signature; a root element decides further.
 */
export function sniffMarkup(text: string): MarkupGuess | null {
  const s = text.trimStart();
  if (!s.startsWith('<')) return null;
  const head = s.slice(0, 1024).toLowerCase();
  if (head.startsWith('<?php') || head.startsWith('<?=')) return { ext: 'php', confidence: 0.9 };
  if (/^<!doctype\s+html[\s>]/.test(head) || /^<html[\s>]/.test(head))
    return { ext: 'html', confidence: 0.9 };
  const root = rootElement(s);
  const prolog = head.startsWith('<?xml');
  if (root === 'svg') return { ext: 'svg', confidence: 0.9 };
  if (root === 'html') return { ext: prolog ? 'xhtml' : 'html', confidence: prolog ? 0.9 : 0.8 };
  if (prolog) return { ext: 'xml', confidence: 1 };
  if (HTML_OPENERS.test(head)) return { ext: 'html', confidence: 0.7 };
  if (head.startsWith('<!--') && root === null) return { ext: 'html', confidence: 0.5 };
  if (root !== null && (s.includes('</') || s.includes('/>'))) return { ext: 'xml', confidence: 0.6 };
  return null;
}

/** The lower-case local name of the first element, past the prolog, comments and a DOCTYPE; null if none. */
export function rootElement(s: string): string | null {
  let i = 0;
  for (let guard = 0; guard < 64; guard++) {
    while (i < s.length && /\s/.test(s[i]!)) i++;
    if (s.startsWith('<?', i)) {
      const end = s.indexOf('?>', i);
      if (end < 0) return null;
      i = end + 2;
    } else if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 4);
      if (end < 0) return null;
      i = end + 3;
    } else if (s.startsWith('<!', i)) {
      const close = s.indexOf('>', i);
      const subset = s.indexOf('[', i);
      const end = subset >= 0 && subset < close ? s.indexOf(']>', subset) + 1 : close;
      if (end <= 0) return null;
      i = end + 1;
    } else {
      const name = /^<([A-Za-z_][\w.:-]*)/.exec(s.slice(i, i + 256))?.[1];
      if (!name) return null;
      return (name.split(':').pop() ?? name).toLowerCase();
    }
  }
  return null;
}

/** Script a browser would run: script and embedding elements, event-handler attributes, script URLs. */
const ACTIVE_MARKUP = new RegExp(
  [
    '<(?:script|iframe|frame|object|embed|applet|foreignobject)[\\s>/]',
    // Event handlers by name: `online=` or `onset=` are ordinary attributes.
    '\\son(?:abort|activate|animation\\w+|auxclick|before\\w+|begin|blur|can\\w+|change|click|contextmenu|copy|' +
      'cut|dbl\\w+|drag\\w*|drop|end|ended|error|focus\\w*|hashchange|input|invalid|key\\w+|load\\w*|message|' +
      'mouse\\w+|page\\w+|paste|pause|play\\w*|pointer\\w+|popstate|progress|repeat|reset|resize|scroll|search|' +
      'seek\\w+|select\\w*|show|storage|submit|time\\w+|toggle|touch\\w+|transition\\w+|unload|volume\\w+|' +
      'wheel|zoom)\\s*=',
    '(?:href|src|action|formaction|data|values|to|from)\\s*=\\s*["\']?\\s*(?:javascript:|vbscript:|data:text/html)',
  ].join('|'),
  'i',
);

/** PDF names of actions that run code or carry files (as pdfid counts them). */
const ACTIVE_PDF = /\/(?:JavaScript|JS|Launch|EmbeddedFiles?|RichMedia|XFA)(?![A-Za-z0-9])/;
/** A name written with `#xx` escapes (`/J#61vaScript`): regular characters up to a delimiter or white space. */
const ESCAPED_NAME = /\/[^\s()<>[\]{}/%]*#[0-9A-Fa-f]{2}[^\s()<>[\]{}/%]*/g;
/** PDF names are at most 127 bytes; longer escaped runs are not names a reader acts on. */
const MAX_NAME_CHARS = 3 * 127;
/** Escaped names looked at: a file made of nothing else must not make the check slow. */
const MAX_ESCAPED_NAMES = 10_000;

export function hasActiveMarkup(text: string): boolean {
  return ACTIVE_MARKUP.test(text);
}

export function hasActivePdf(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (ACTIVE_PDF.test(text)) return true;
  let names = 0;
  for (const [name] of text.matchAll(ESCAPED_NAME)) {
    if (++names > MAX_ESCAPED_NAMES) break;
    if (name.length > MAX_NAME_CHARS) continue;
    const plain = name.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (ACTIVE_PDF.test(plain)) return true;
  }
  return false;
}
