/**
 * Detection on files the test generates (file-type's issue: PNG, JPEG, GIF, PDF, ZIP, DOCX, ELF, GZIP, WASM,
 * SQLite …), on text of every kind the heuristics know, on the first bytes only, and the risks the content
 * carries: executables, scripts, macros, polyglots, active content.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { detect } from '../../services/file-type/detect.js';
import * as f from './fixtures.js';

const OOXML_WORD = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('binary signatures: confidence 1.0, the signature as magicBytes', () => {
  const cases: [string, () => Buffer, string, string, string, string][] = [
    ['PNG (pngjs)', f.png, 'image/png', 'png', 'IMAGE', '89504E470D0A1A0A'],
    ['JPEG', () => f.jpeg(), 'image/jpeg', 'jpg', 'IMAGE', 'FFD8FF'],
    ['GIF', f.gif, 'image/gif', 'gif', 'IMAGE', '474946383961'],
    ['PDF', () => f.pdf(), 'application/pdf', 'pdf', 'DOCUMENT', '255044462D'],
    ['ZIP', () => f.zip([{ name: 'a.txt', data: 'a' }]), 'application/zip', 'zip', 'ARCHIVE', '504B0304'],
    ['DOCX', f.docx, OOXML_WORD, 'docx', 'DOCUMENT', '504B0304'],
    ['GZIP (zlib)', () => f.gzip(), 'application/gzip', 'gz', 'ARCHIVE', '1F8B'],
    ['TAR in GZIP', () => gzipSync(f.tar()), 'application/gzip', 'tar.gz', 'ARCHIVE', '1F8B'],
    [
      'SQLite (better-sqlite3)',
      f.sqlite,
      'application/x-sqlite3',
      'sqlite',
      'DATA',
      '53514C69746520666F726D6174203300',
    ],
    ['ELF', f.elf, 'application/x-elf', 'elf', 'EXECUTABLE', '7F454C46'],
    ['PE', f.pe, 'application/x-msdownload', 'exe', 'EXECUTABLE', '4D5A'],
    ['Mach-O', f.machO, 'application/x-mach-binary', 'macho', 'EXECUTABLE', 'CFFAEDFE'],
    ['WASM', f.wasm, 'application/wasm', 'wasm', 'EXECUTABLE', '0061736D'],
    ['JAR', f.jar, 'application/java-archive', 'jar', 'EXECUTABLE', '504B0304'],
  ];

  it.each(cases)('%s', async (_name, make, mimeType, extension, category, magicBytes) => {
    const d = await detect(make());
    expect(d).toMatchObject({
      mimeType,
      extension,
      category,
      magicBytes,
      confidence: 1,
      method: 'SIGNATURE',
    });
  });

  it('describes what it found in words', async () => {
    expect((await detect(f.png())).description).toBe('PNG image');
    expect((await detect(f.docx())).description).toBe('Microsoft Word document (Office Open XML)');
    expect((await detect(f.sqlite())).description).toBe('SQLite 3 database');
  });

  it('needs only the first bytes: 256 for most formats, the first ZIP member for Office files', async () => {
    for (const make of [f.png, () => f.jpeg(), f.gif, () => f.pdf(), f.elf, f.pe, f.wasm, f.sqlite]) {
      const whole = await detect(make());
      expect((await detect(make().subarray(0, 256))).extension).toBe(whole.extension);
    }
    const docx = f.docx();
    expect((await detect(docx.subarray(0, 256))).extension).toBe('zip');
    expect((await detect(docx.subarray(0, 600))).extension).toBe('docx');
  });
});

describe('text heuristics: below 1.0', () => {
  const cases: [string, Buffer, string, string, string, number][] = [
    ['HTML', f.text(f.HTML), 'text/html', 'html', 'DOCUMENT', 0.9],
    ['SVG', f.text(f.SVG), 'image/svg+xml', 'svg', 'IMAGE', 0.9],
    ['XML by its <?xml signature', f.text(f.XML), 'application/xml', 'xml', 'DATA', 1],
    ['JSON', f.text(f.JSON_DOC), 'application/json', 'json', 'DATA', 0.9],
    ['JSON cut short', f.text(f.JSON_DOC.slice(0, 25)), 'application/json', 'json', 'DATA', 0.7],
    ['JSON Lines', f.text(f.NDJSON), 'application/x-ndjson', 'ndjson', 'DATA', 0.8],
    ['CSV', f.text(f.CSV), 'text/csv', 'csv', 'DATA', 0.6],
    ['TSV', f.text(f.TSV), 'text/tab-separated-values', 'tsv', 'DATA', 0.6],
    ['shell script', f.text(f.SHELL), 'text/x-shellscript', 'sh', 'SCRIPT', 0.9],
    ['Python script', f.text(f.PYTHON), 'text/x-python', 'py', 'SCRIPT', 0.9],
    ['plain text', f.text(f.PLAIN), 'text/plain', 'txt', 'TEXT', 0.5],
    [
      'UTF-16 text with a BOM (FF FE is also MPEG frame sync)',
      f.utf16le(f.PLAIN),
      'text/plain',
      'txt',
      'TEXT',
      0.5,
    ],
  ];

  it.each(cases)('%s', async (_name, bytes, mimeType, extension, category, confidence) => {
    expect(await detect(bytes)).toMatchObject({ mimeType, extension, category, confidence });
  });

  it('reports a BOM or #! as the magic bytes of text', async () => {
    expect((await detect(f.utf16le('hi'))).magicBytes).toBe('FFFE');
    expect((await detect(f.text(f.SHELL))).magicBytes).toBe('2321');
  });

  it('calls unknown binary data application/octet-stream, confidence 0', async () => {
    const noise = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7919 + 13) % 251));
    expect(await detect(noise)).toMatchObject({
      mimeType: 'application/octet-stream',
      extension: 'bin',
      category: 'UNKNOWN',
      confidence: 0,
      method: 'NONE',
      magicBytes: noise.subarray(0, 8).toString('hex').toUpperCase(),
      risks: [],
    });
  });
});

describe('risks of the content', () => {
  it('finds none in ordinary images, documents, archives, data and text', async () => {
    const plain = [f.png(), f.jpeg(), f.gif(), f.pdf(), f.docx(), f.gzip(), gzipSync(f.tar()), f.sqlite()];
    const texts = [f.HTML, f.SVG, f.XML, f.JSON_DOC, f.CSV, f.PLAIN].map(f.text);
    for (const bytes of [...plain, ...texts]) {
      const d = await detect(bytes);
      expect(d.risks, d.extension).toEqual([]);
    }
  });

  it('flags executables and scripts', async () => {
    for (const make of [f.elf, f.pe, f.machO, f.wasm, f.jar])
      expect((await detect(make())).risks).toEqual(['EXECUTABLE']);
    for (const s of [f.SHELL, f.PYTHON, '<?php system($_GET["c"]);', '@echo off\r\nformat c:\r\n']) {
      expect((await detect(f.text(s))).risks, s).toEqual(['SCRIPT']);
    }
  });

  it('flags macro-capable Office files: macro-enabled types, a smuggled vbaProject.bin, compound files', async () => {
    const docm = await detect(f.docm());
    expect(docm).toMatchObject({ extension: 'docm', risks: ['MACRO_CAPABLE'] });
    expect(docm.description).toBe('Microsoft Word macro-enabled document');
    expect(await detect(f.docxWithVbaProject())).toMatchObject({
      extension: 'docx',
      risks: ['MACRO_CAPABLE'],
    });
    expect(await detect(f.cfb())).toMatchObject({
      extension: 'cfb',
      category: 'DOCUMENT',
      risks: ['MACRO_CAPABLE'],
    });
  });

  it('flags polyglots: GIFAR, PDF + ZIP, HTML in a JPEG, GIF/JavaScript, a PE inside an image', async () => {
    const cases: [string, Buffer, string][] = [
      ['GIF with a JAR appended', f.gifar(), 'gif'],
      ['PDF with a ZIP at its end', f.pdfWithZip(), 'pdf'],
      ['JPEG carrying an HTML page', f.jpegWithHtml(), 'jpg'],
      ['GIF89a/* … */=alert()', f.gifJavaScript(), 'gif'],
      ['PNG with a Windows executable inside', Buffer.concat([f.png(), f.pe()]), 'png'],
      ['JPEG with a PDF header in its first KiB', Buffer.concat([f.jpeg('x'.repeat(100)), f.pdf()]), 'jpg'],
    ];
    for (const [what, bytes, extension] of cases) {
      expect(await detect(bytes), what).toMatchObject({ extension, risks: ['POLYGLOT'] });
    }
  });

  it('does not call archives polyglots for holding other files', async () => {
    const inTar = f.tar('inner.zip', f.zip([{ name: 'x.txt', data: 'x' }]).toString('latin1'));
    expect(await detect(inTar)).toMatchObject({ extension: 'tar', risks: [] });
    expect(
      await detect(f.zip([{ name: 'inner.zip', data: f.zip([{ name: 'x', data: 'x' }]) }])),
    ).toMatchObject({
      extension: 'zip',
      risks: [],
    });
  });

  it('flags active content: script in HTML and SVG, JavaScript in a PDF', async () => {
    expect((await detect(f.text(f.HTML_WITH_SCRIPT))).risks).toEqual(['ACTIVE_CONTENT']);
    expect((await detect(f.text(f.SVG_WITH_SCRIPT))).risks).toEqual(['ACTIVE_CONTENT']);
    const pdf = await detect(f.pdf(' /OpenAction <</S /JavaScript /JS (app.alert(1))>>'));
    expect(pdf).toMatchObject({ extension: 'pdf', risks: ['ACTIVE_CONTENT'] });
  });
});
