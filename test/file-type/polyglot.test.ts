import { describe, expect, it } from 'vitest';
import { type DetectedShape, polyglotFindings } from '../../services/file-type/polyglot.js';
import * as f from './fixtures.js';

const GIF: DetectedShape = { ext: 'gif', category: 'IMAGE' };
const PDF: DetectedShape = { ext: 'pdf', category: 'DOCUMENT' };
const JPEG: DetectedShape = { ext: 'jpg', category: 'IMAGE' };
const PNG: DetectedShape = { ext: 'png', category: 'IMAGE' };

describe('polyglotFindings', () => {
  it('names each second format it finds', () => {
    const archive = f.zip([{ name: 'x.txt', data: 'x' }]);
    expect(polyglotFindings(f.gifar(), GIF)).toEqual(['ZIP_APPENDED']);
    expect(polyglotFindings(f.pdfWithZip(), PDF)).toEqual(['ZIP_APPENDED']);
    // A ZIP inside, not at the end: its local header is found.
    expect(polyglotFindings(Buffer.concat([f.gif(), archive, Buffer.from('tail')]), GIF)).toEqual([
      'ZIP_EMBEDDED',
    ]);
    expect(polyglotFindings(Buffer.concat([f.jpeg('x'.repeat(64)), f.pdf()]), JPEG)).toEqual([
      'PDF_EMBEDDED',
    ]);
    expect(polyglotFindings(f.jpegWithHtml(), JPEG)).toEqual(['MARKUP_IN_MEDIA']);
    expect(polyglotFindings(f.gifJavaScript(), GIF)).toEqual(['GIF_JAVASCRIPT']);
    expect(polyglotFindings(Buffer.concat([f.png(), f.pe()]), PNG)).toEqual(['PE_EMBEDDED']);
  });

  it('finds nothing in plain files, nor a PDF header past the first KiB, nor archives holding archives', () => {
    expect(polyglotFindings(f.gif(), GIF)).toEqual([]);
    expect(polyglotFindings(f.pdf(), PDF)).toEqual([]);
    expect(polyglotFindings(Buffer.concat([f.jpeg('x'.repeat(2000)), f.pdf()]), JPEG)).toEqual([]);
    const nested = f.zip([{ name: 'inner.zip', data: f.zip([{ name: 'x', data: 'x' }]) }]);
    expect(polyglotFindings(nested, { ext: 'zip', category: 'ARCHIVE', family: 'zip' })).toEqual([]);
    // A text that quotes the DOS stub message is not an executable.
    const quote = Buffer.from('PE files start with a stub: "This program cannot be run in DOS mode".');
    expect(polyglotFindings(quote, { ext: 'txt', category: 'TEXT' })).toEqual([]);
  });
});
