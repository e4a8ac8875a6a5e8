/**
 * A small RFC 5322 / MIME reader for the mail suites: enough to check what a mail client would show (decoded
 * headers, the text and HTML parts), written here so the tests do not trust the library that composed the
 * message to also read it back.
 */
export interface ParsedMail {
  /** Lower-case header names; values unfolded and RFC 2047-decoded. */
  readonly headers: ReadonlyMap<string, string>;
  readonly text: string | null;
  readonly html: string | null;
  readonly raw: string;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

export function parseMail(raw: string | Buffer): ParsedMail {
  const source = typeof raw === 'string' ? raw : raw.toString('latin1');
  const top = splitPart(source);
  const found: { text: string | null; html: string | null } = { text: null, html: null };
  collect(top, found);
  return { headers: top.headers, ...found, raw: source };
}

function splitPart(source: string): Part {
  const at = source.search(/\r?\n\r?\n/);
  const head = at < 0 ? source : source.slice(0, at);
  const body = at < 0 ? '' : source.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function collect(part: Part, found: { text: string | null; html: string | null }): void {
  const type = part.headers.get('content-type') ?? 'text/plain; charset=us-ascii';
  const mime = type.split(';')[0]!.trim().toLowerCase();
  if (mime.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) throw new Error(`multipart without boundary: ${type}`);
    const sections = part.body.split(`--${boundary}`);
    // Drop the preamble and everything from the closing delimiter on.
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      collect(splitPart(section.replace(/^\r?\n/, '')), found);
    }
    return;
  }
  const decoded = decodeBody(part.body, part.headers.get('content-transfer-encoding') ?? '7bit', type);
  if (mime === 'text/plain' && found.text === null) found.text = decoded;
  if (mime === 'text/html' && found.html === null) found.html = decoded;
}

function decodeBody(body: string, encoding: string, type: string): string {
  const charset = (/charset="?([^";]+)"?/i.exec(type)?.[1] ?? 'utf-8').toLowerCase();
  let bytes: Buffer;
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
      break;
    case 'quoted-printable':
      bytes = decodeQuotedPrintable(body.replace(/\r?\n$/, ''));
      break;
    default:
      bytes = Buffer.from(body.replace(/\r?\n$/, ''), 'latin1');
  }
  return new TextDecoder(charset === 'us-ascii' ? 'utf-8' : charset).decode(bytes);
}

function decodeQuotedPrintable(s: string): Buffer {
  const soft = s.replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      out.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      out.push(soft.charCodeAt(i));
    }
  }
  return Buffer.from(out);
}

/**
 * RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`). Whitespace between adjacent words is dropped, and
 * their bytes are decoded together, since an encoder may split one character across two words.
 */
function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const joined = value.replace(/(\?=)\s+(=\?)/g, '$1$2');
  let out = '';
  let last = 0;
  const run = { charset: '', bytes: [] as Buffer[] };
  const flush = () => {
    if (run.bytes.length > 0) out += new TextDecoder(run.charset).decode(Buffer.concat(run.bytes));
    run.bytes = [];
  };
  for (const m of joined.matchAll(word)) {
    const [all, charset = 'utf-8', enc = 'B', text = ''] = m;
    if (m.index > last) {
      flush();
      out += joined.slice(last, m.index);
    }
    if (run.charset !== charset.toLowerCase()) flush();
    run.charset = charset.toLowerCase();
    run.bytes.push(
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
    last = m.index + all.length;
  }
  flush();
  return out + joined.slice(last);
}
