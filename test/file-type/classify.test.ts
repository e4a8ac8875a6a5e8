/**
 * The R result: the detected type held against the declared name and Content-Type (magicBytesMatch and
 * mismatches), and every risk behind `safe`.
 */
import { describe, expect, it } from 'vitest';
import { classify } from '../../services/file-type/classify.js';
import { declared } from '../../services/file-type/declared.js';
import { detect } from '../../services/file-type/detect.js';
import * as f from './fixtures.js';

const check = async (bytes: Buffer, name: string | null, mime: string | null = null) =>
  classify(await detect(bytes), declared(name, mime));

const noise = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 7919 + 13) % 251));

describe('magicBytesMatch and mismatches', () => {
  const cases: [string, Buffer, string | null, string | null, string[]][] = [
    ['a PNG named as one', f.png(), 'photo.png', 'image/png', []],
    ['a JPEG under its other names', f.jpeg(), 'scan.JPEG', 'image/jpg', []],
    [
      'a PNG named .jpg and sent as image/jpeg',
      f.png(),
      'photo.jpg',
      'image/jpeg',
      ['EXTENSION', 'MIME_TYPE'],
    ],
    ['an executable named .pdf', f.pe(), 'invoice.pdf', 'application/pdf', ['EXTENSION', 'MIME_TYPE']],
    ['a macro-enabled document named .docx', f.docm(), 'report.docx', null, ['EXTENSION']],
    [
      'a macro-enabled document sent as a plain DOCX',
      f.docm(),
      null,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ['MIME_TYPE'],
    ],
    ['a DOCX named .zip (it is one)', f.docx(), 'report.zip', 'application/zip', []],
    [
      'a ZIP whose members were not seen, named .docx',
      f.zip([{ name: 'a.txt', data: 'a' }]),
      'report.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      [],
    ],
    ['gzip as .tgz', f.gzip(), 'backup.tgz', 'application/x-gzip', []],
    ['SVG sent as text/xml', f.text(f.SVG), 'logo.svg', 'text/xml', []],
    ['JSON sent as text/plain', f.text(f.JSON_DOC), 'data.json', 'text/plain', []],
    ['JSON named .csv', f.text(f.JSON_DOC), 'data.csv', 'text/csv', ['EXTENSION', 'MIME_TYPE']],
    ['plain text as Markdown', f.text(f.PLAIN), 'notes.md', 'text/markdown', []],
    ['plain text as JavaScript (text cannot tell)', f.text('alert(1)\n'), 'run.js', 'text/javascript', []],
    ['a shell script named .py', f.text(f.SHELL), 'deploy.py', null, ['EXTENSION']],
    ['generic names and types claim nothing', f.png(), 'blob.bin', 'application/octet-stream', []],
    ['no declaration at all', f.png(), null, null, []],
    ['a name without an extension', f.elf(), 'server', null, []],
    ['unknown bytes named as a known type', noise, 'photo.png', 'image/png', ['EXTENSION', 'MIME_TYPE']],
    ['unknown bytes named as text', noise, 'notes.txt', 'text/plain', ['EXTENSION', 'MIME_TYPE']],
    ['unknown bytes under names nobody knows', noise, 'x.qqq', 'application/x-qqq', []],
  ];

  it.each(cases)('%s', async (_what, bytes, name, mime, expected) => {
    const result = await check(bytes, name, mime);
    expect(result.mismatches).toEqual(expected);
    expect(result.magicBytesMatch).toBe(expected.length === 0);
  });

  it('echoes the declared base name, extension and type beside the detected ones', async () => {
    expect(await check(f.pe(), 'C:\\in\\invoice.PDF', 'Application/PDF; q=1')).toEqual({
      filename: 'invoice.PDF',
      mimeType: 'application/x-msdownload',
      category: 'EXECUTABLE',
      extension: 'exe',
      magicBytesMatch: false,
      safe: false,
      confidence: 1,
      description: 'Windows or DOS executable (MZ/PE: EXE, DLL, SYS, SCR)',
      magicBytes: '4D5A',
      declaredExtension: 'pdf',
      declaredMimeType: 'application/pdf',
      mismatches: ['EXTENSION', 'MIME_TYPE'],
      risks: ['EXECUTABLE'],
    });
  });
});

describe('safe', () => {
  it('is true for ordinary files under their own names', async () => {
    for (const [bytes, name] of [
      [f.png(), 'a.png'],
      [f.pdf(), 'a.pdf'],
      [f.docx(), 'a.docx'],
      [f.sqlite(), 'a.db'],
      [f.text(f.CSV), 'a.csv'],
    ] as const) {
      expect(await check(bytes, name), name).toMatchObject({ safe: true, risks: [] });
    }
  });

  it('is false when the name or Content-Type declares an executable or a script, whatever the content', async () => {
    expect(await check(f.text('alert(1)\n'), 'run.js')).toMatchObject({
      safe: false,
      risks: ['DECLARED_EXECUTABLE'],
    });
    expect(await check(f.png(), 'setup.exe')).toMatchObject({ safe: false, risks: ['DECLARED_EXECUTABLE'] });
    expect(await check(f.pdf(), 'a.pdf', 'application/x-msdownload')).toMatchObject({
      safe: false,
      risks: ['DECLARED_EXECUTABLE'],
    });
    expect(await check(f.text(f.SHELL), 'deploy.sh')).toMatchObject({
      safe: false,
      risks: ['SCRIPT', 'DECLARED_EXECUTABLE'],
    });
  });

  it('lists every risk found, in a fixed order', async () => {
    const r = await check(Buffer.concat([f.gif(), f.jar()]), 'cat.gif.jar');
    expect(r).toMatchObject({ extension: 'gif', safe: false, risks: ['POLYGLOT', 'DECLARED_EXECUTABLE'] });
  });
});
