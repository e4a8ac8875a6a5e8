import { fileTypeFromBuffer } from 'file-type';
import { type Category, RISKS, type Risk, type TypeInfo, typeInfo, WEAK_SIGNATURES } from './catalog.js';
import { hasActiveMarkup, hasActivePdf, sniffMarkup } from './markup.js';
import { polyglotFindings } from './polyglot.js';
import { decodeText, sniffText, TEXT_MIME } from './text.js';
import { hasMacroMembers, zipEntryNames } from './zip-entries.js';

/** Text heuristics look at this much of the start of a file; the risk checks look at all of it. */
export const SNIFF_BYTES = 64 * 1024;
const DEFAULT_MAGIC_LENGTH = 8;

/** How a type was recognized. */
export type Method = 'SIGNATURE' | 'HEURISTIC' | 'NONE';

export interface Detection {
  readonly mimeType: string;
  readonly extension: string;
  readonly category: Category;
  readonly description: string;
  /** 1 for an exact binary signature; lower for weak signatures and text heuristics; 0 when unrecognized. */
  readonly confidence: number;
  /** The signature's bytes (or a BOM, `#!`, else the first 8 bytes), upper-case hex. */
  readonly magicBytes: string;
  readonly method: Method;
  readonly info: TypeInfo;
  /** What the content itself makes unsafe, in RISKS order. */
  readonly risks: readonly Risk[];
}

interface Found {
  readonly ext: string;
  readonly mime: string;
  readonly confidence: number;
  readonly method: Method;
  readonly magicLength?: number;
  readonly description?: string;
}

const UNKNOWN: Found = { ext: 'bin', mime: 'application/octet-stream', confidence: 0, method: 'NONE' };
const UNKNOWN_INFO: TypeInfo = { category: 'UNKNOWN', description: 'Unrecognized binary data' };

/** The `file-type` package's answer; a parser failure on hostile bytes counts as no answer. */
async function bySignature(bytes: Uint8Array): Promise<Found | null> {
  let hit: { ext: string; mime: string } | undefined;
  try {
    hit = await fileTypeFromBuffer(bytes);
  } catch {
    hit =
      bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4
        ? { ext: 'zip', mime: 'application/zip' }
        : undefined;
  }
  if (!hit) return null;
  if (hit.ext === 'xml') {
    // `<?xml` is XML's signature; the root element may make it SVG or XHTML.
    const markup = sniffMarkup(decodeText(bytes.subarray(0, SNIFF_BYTES))?.text ?? '');
    if (markup && markup.ext !== 'xml' && markup.ext !== 'php') {
      return {
        ext: markup.ext,
        mime: TEXT_MIME[markup.ext]!,
        confidence: markup.confidence,
        method: 'HEURISTIC',
      };
    }
  }
  return { ...hit, confidence: WEAK_SIGNATURES.has(hit.ext) ? 0.8 : 1, method: 'SIGNATURE' };
}

function byText(bytes: Uint8Array): Found | null {
  const guess = sniffText(bytes.subarray(0, SNIFF_BYTES));
  if (!guess) return null;
  const shebang = guess.interpreter !== undefined;
  return {
    ext: guess.ext,
    mime: TEXT_MIME[guess.ext] ?? 'text/plain',
    confidence: guess.confidence,
    method: 'HEURISTIC',
    ...(guess.bom > 0 ? { magicLength: guess.bom } : shebang ? { magicLength: 2 } : {}),
    ...(guess.ext === 'script' ? { description: `Script for ${guess.interpreter} (#! line)` } : {}),
  };
}

/**
 * The type of a file from its bytes (all of them, or only the first): a binary signature by the `file-type`
 * package, else the text heuristics, else unknown; then what the content makes unsafe.
 */
export async function detect(bytes: Uint8Array): Promise<Detection> {
  const signed = await bySignature(bytes);
  // A weak signature (FF FE is both MPEG frame sync and the UTF-16 byte order mark) yields to readable text.
  const weak = signed?.method === 'SIGNATURE' && signed.confidence < 1;
  const found = (weak ? (byText(bytes) ?? signed) : signed) ?? byText(bytes) ?? UNKNOWN;
  const info = found === UNKNOWN ? UNKNOWN_INFO : typeInfo(found.ext, found.mime);
  const magicLength = found.magicLength ?? info.magicLength ?? DEFAULT_MAGIC_LENGTH;
  return {
    mimeType: found.mime,
    extension: found.ext,
    category: info.category,
    description: found.description ?? info.description,
    confidence: found.confidence,
    magicBytes: Buffer.from(bytes.subarray(0, magicLength)).toString('hex').toUpperCase(),
    method: found.method,
    info,
    risks: contentRisks(bytes, found.ext, info),
  };
}

function contentRisks(bytes: Uint8Array, ext: string, info: TypeInfo): Risk[] {
  const risks = new Set<Risk>();
  if (info.risk) risks.add(info.risk);
  if (info.category === 'EXECUTABLE') risks.add('EXECUTABLE');
  if (info.category === 'SCRIPT') risks.add('SCRIPT');
  if (info.family === 'zip' && hasMacroMembers(zipEntryNames(bytes))) risks.add('MACRO_CAPABLE');
  if (polyglotFindings(bytes, { ext, category: info.category, family: info.family }).length > 0) {
    risks.add('POLYGLOT');
  }
  if (activeContent(bytes, ext)) risks.add('ACTIVE_CONTENT');
  return RISKS.filter((r) => risks.has(r));
}

function activeContent(bytes: Uint8Array, ext: string): boolean {
  if (ext === 'pdf') return hasActivePdf(bytes);
  if (ext === 'html' || ext === 'xhtml' || ext === 'svg' || ext === 'xml') {
    return hasActiveMarkup(decodeText(bytes)?.text ?? Buffer.from(bytes).toString('latin1'));
  }
  return false;
}
