import type { Category, Family } from './catalog.js';
import { embeddedZipAt, zipEndAt } from './zip-entries.js';

/** A second format found inside a file of another: what makes it a polyglot. */
export type PolyglotFinding =
  | 'ZIP_APPENDED'
  | 'ZIP_EMBEDDED'
  | 'PDF_EMBEDDED'
  | 'MARKUP_IN_MEDIA'
  | 'GIF_JAVASCRIPT'
  | 'PE_EMBEDDED';

export interface DetectedShape {
  readonly ext: string;
  readonly category: Category;
  readonly family?: Family;
}

const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const DOS_STUB = Buffer.from('This program cannot be run in DOS mode', 'latin1');
const MZ = Buffer.from('MZ', 'latin1');
/** Markup a browser runs, found in the bytes of an image, a sound, a video or a font. */
const MARKUP = /<(?:script|html|body|iframe)[\s>/]|<\?php|javascript:/i;
const MEDIA: ReadonlySet<Category> = new Set(['IMAGE', 'AUDIO', 'VIDEO', 'FONT']);
/** A CRX is a header followed by a ZIP by design. */
const ZIP_BY_DESIGN = new Set(['crx']);

/**
 * Signs that the bytes are valid as a second format besides the one detected: a ZIP (or JAR) appended or
 * embedded (GIFAR, PDF + ZIP), a PDF header in the first KiB (where readers accept it), HTML or script in a
 * media file, the GIF header that opens a JavaScript comment (`GIF89a/*`), a Windows executable's DOS stub.
 * Archives and ZIP-based types hold other files by design and are only checked for the PDF header.
 */
export function polyglotFindings(bytes: Uint8Array, shape: DetectedShape): PolyglotFinding[] {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const container = shape.family === 'zip' || shape.category === 'ARCHIVE' || ZIP_BY_DESIGN.has(shape.ext);
  const found: PolyglotFinding[] = [];
  if (!container && zipEndAt(b) > 0) found.push('ZIP_APPENDED');
  else if (!container && embeddedZipAt(b) > 0) found.push('ZIP_EMBEDDED');
  if (shape.ext !== 'pdf') {
    const pdf = b.subarray(0, 1024 + PDF_HEADER.length).indexOf(PDF_HEADER);
    if (pdf > 0) found.push('PDF_EMBEDDED');
  }
  if (MEDIA.has(shape.category) && shape.ext !== 'svg' && MARKUP.test(b.toString('latin1'))) {
    found.push('MARKUP_IN_MEDIA');
  }
  if (shape.ext === 'gif' && b[6] === 0x2f && b[7] === 0x2a) found.push('GIF_JAVASCRIPT');
  if (!container && shape.ext !== 'exe' && hasDosStub(b)) found.push('PE_EMBEDDED');
  return found;
}

/** The stub message of a PE file, close after an `MZ` header (the header is 64 bytes, the stub follows). */
function hasDosStub(b: Buffer): boolean {
  for (let at = b.indexOf(DOS_STUB); at >= 0; at = b.indexOf(DOS_STUB, at + 1)) {
    const from = Math.max(1, at - 256);
    if (b.subarray(from, at).includes(MZ)) return true;
  }
  return false;
}
