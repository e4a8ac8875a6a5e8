/**
 * Files of every kind the file-type tests need, generated in memory: real encoders where one is at hand (pngjs,
 * zlib, better-sqlite3), minimal valid headers written by hand for the rest. Nothing is fetched or shipped.
 */
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';

const bytes = (...parts: (string | number[] | Uint8Array)[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

export function png(width = 4, height = 3): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(0x80);
  return PNG.sync.write(image);
}

/** SOI, a JFIF APP0 segment, an optional comment segment, EOI. */
export function jpeg(comment?: string): Buffer {
  const app0 = bytes([0xff, 0xe0, 0x00, 0x10], 'JFIF\0', [1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const com = comment
    ? bytes([0xff, 0xfe], [(comment.length + 2) >> 8, (comment.length + 2) & 0xff], comment)
    : [];
  return bytes([0xff, 0xd8], app0, com, [0xff, 0xd9]);
}

/** A 1×1 GIF89a (header, screen descriptor, two-colour table, image, trailer). */
export function gif(): Buffer {
  return Buffer.from(
    '47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b',
    'hex',
  );
}

/** The GIF/JavaScript polyglot: `GIF89a/*` opens a comment that the trailer closes before a statement. */
export function gifJavaScript(): Buffer {
  return bytes(
    'GIF89a/*',
    [0x01, 0x00, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0],
    '*/=1;alert(document.domain);',
    ';',
  );
}

export function pdf(extra = ''): Buffer {
  return bytes(
    '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n',
    `1 0 obj <</Type /Catalog /Pages 2 0 R${extra}>> endobj\n`,
    '2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n',
    'trailer <</Root 1 0 R>>\n%%EOF\n',
  );
}

export interface ZipEntry {
  readonly name: string;
  readonly data: string | Buffer;
}

/** A ZIP archive (deflated members, central directory, end record), as any zip tool writes it. */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8');
    const packed = deflateRawSync(data);
    const name = Buffer.from(entry.name, 'utf8');
    const common = [...u16(20), ...u16(0), ...u16(8), ...u16(0), ...u16(0x21), ...u32(crc32(data))];
    const sizes = [...u32(packed.length), ...u32(data.length), ...u16(name.length), ...u16(0)];
    const local = bytes('PK\x03\x04', common, sizes, name, packed);
    centrals.push(
      bytes('PK\x01\x02', u16(20), common, sizes, u16(0), u16(0), u16(0), u32(0), u32(offset), name),
    );
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = bytes(
    'PK\x05\x06',
    u16(0),
    u16(0),
    u16(entries.length),
    u16(entries.length),
    u32(directory.length),
    u32(offset),
    u16(0),
  );
  return Buffer.concat([...locals, directory, end]);
}

const contentTypes = (main: string) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  `<Override PartName="/word/document.xml" ContentType="${main}"/></Types>`;

const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
  'Target="word/document.xml"/></Relationships>';

const DOCUMENT =
  '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
  '<w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>';

const WORD_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const WORD_MACRO_MAIN = 'application/vnd.ms-word.document.macroEnabled.main+xml';
/** Not a real VBA project: the member's name is what marks a document as carrying macros. */
const VBA = Buffer.from('d0cf11e0a1b11ae1000000000000000000000000000000003e000300feff0900', 'hex');

export function docx(): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: contentTypes(WORD_MAIN) },
    { name: '_rels/.rels', data: RELS },
    { name: 'word/document.xml', data: DOCUMENT },
  ]);
}

/** A macro-enabled Word document: its content type says so, and it carries word/vbaProject.bin. */
export function docm(): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: contentTypes(WORD_MACRO_MAIN) },
    { name: '_rels/.rels', data: RELS },
    { name: 'word/document.xml', data: DOCUMENT },
    { name: 'word/vbaProject.bin', data: VBA },
  ]);
}

/** A DOCX by its content types that smuggles a VBA project anyway. */
export function docxWithVbaProject(): Buffer {
  return zip([
    { name: '[Content_Types].xml', data: contentTypes(WORD_MAIN) },
    { name: 'word/document.xml', data: DOCUMENT },
    { name: 'word/vbaProject.bin', data: VBA },
  ]);
}

export function jar(): Buffer {
  return zip([
    { name: 'META-INF/MANIFEST.MF', data: 'Manifest-Version: 1.0\r\nMain-Class: Evil\r\n' },
    { name: 'Evil.class', data: Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34]) },
  ]);
}

/** An x86-64 ELF executable header (64 bytes) and one program header. */
export function elf(): Buffer {
  const header = bytes(
    [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    u16(2), // ET_EXEC
    u16(0x3e), // x86-64
    u32(1),
    [...u32(0x401000), 0, 0, 0, 0], // entry
    [...u32(64), 0, 0, 0, 0], // program headers
    [0, 0, 0, 0, 0, 0, 0, 0], // section headers
    u32(0),
    u16(64),
    u16(56),
    u16(1),
    u16(64),
    u16(0),
    u16(0),
  );
  return bytes(header, Buffer.alloc(56));
}

/** A PE executable: MZ header pointing at `PE\0\0`, the DOS stub and its message, a COFF header. */
export function pe(): Buffer {
  const dos = Buffer.alloc(0x80);
  dos.write('MZ', 0, 'latin1');
  dos.writeUInt32LE(0x80, 0x3c);
  dos.write('This program cannot be run in DOS mode.\r\r\n$', 0x4e, 'latin1');
  return bytes(dos, 'PE\0\0', u16(0x8664), u16(0), Buffer.alloc(16));
}

/** A 64-bit Mach-O executable header. */
export function machO(): Buffer {
  return bytes([0xcf, 0xfa, 0xed, 0xfe], u32(0x01000007), u32(3), u32(2), u32(0), u32(0), u32(0), u32(0));
}

/** The smallest valid WebAssembly module: magic and version. */
export function wasm(): Buffer {
  return bytes('\0asm', u32(1));
}

export function gzip(text = 'hello, gzip\n'.repeat(50)): Buffer {
  return gzipSync(Buffer.from(text));
}

/** A POSIX (ustar) archive of one file: a 512-byte header with its checksum, the data, two zero blocks. */
export function tar(name = 'hello.txt', data = 'hello, tar\n'): Buffer {
  const header = Buffer.alloc(512);
  const field = (value: string, at: number, length: number) =>
    header.write(value.slice(0, length), at, 'latin1');
  const octal = (n: number, length: number) => `${n.toString(8).padStart(length - 1, '0')}\0`;
  field(name, 0, 100);
  field(octal(0o644, 8), 100, 8);
  field(octal(0, 8), 108, 8);
  field(octal(0, 8), 116, 8);
  field(octal(data.length, 12), 124, 12);
  field(octal(0, 12), 136, 12);
  header.fill(0x20, 148, 156);
  field('0', 156, 1);
  field('ustar\0', 257, 6);
  field('00', 263, 2);
  const sum = header.reduce((a, b) => a + b, 0);
  field(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  const body = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  body.write(data, 'latin1');
  return Buffer.concat([header, body, Buffer.alloc(1024)]);
}

/** A real SQLite 3 database with one table and one row, serialized from memory. */
export function sqlite(): Buffer {
  const db = new Database(':memory:');
  try {
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('row')");
    return db.serialize();
  } finally {
    db.close();
  }
}

/** A Compound File Binary header (legacy .doc, .xls, .msi). */
export function cfb(): Buffer {
  return bytes(
    [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    Buffer.alloc(16),
    u16(0x3e),
    u16(3),
    u16(0xfffe),
    u16(9),
    Buffer.alloc(512 - 32),
  );
}

/** GIFAR: a GIF with a JAR appended, valid as both. */
export function gifar(): Buffer {
  return Buffer.concat([gif(), jar()]);
}

/** A PDF with a ZIP archive after its end. */
export function pdfWithZip(): Buffer {
  return Buffer.concat([pdf(), zip([{ name: 'payload.txt', data: 'hidden' }])]);
}

/** A JPEG whose comment segment carries an HTML page with a script. */
export function jpegWithHtml(): Buffer {
  return jpeg('<html><body><script>alert(document.cookie)</script></body></html>');
}

export const text = (s: string): Buffer => Buffer.from(s, 'utf8');

export function utf16le(s: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
}

export const HTML =
  '<!DOCTYPE html>\n<html lang="en"><head><title>Page</title></head><body><p>Hi</p></body></html>\n';
export const HTML_WITH_SCRIPT = '<!doctype html><html><body><img src=x onerror="alert(1)"></body></html>';
export const SVG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
  '<rect width="10" height="10" fill="red"/></svg>\n';
export const SVG_WITH_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>';
export const XML = '<?xml version="1.0"?>\n<catalog><book id="1"><title>XML</title></book></catalog>\n';
export const JSON_DOC = JSON.stringify({
  name: 'toolgate',
  tags: ['a', 'b'],
  nested: { n: 1.5e3, ok: true },
});
export const NDJSON = '{"id":1,"v":"a"}\n{"id":2,"v":"b"}\n{"id":3,"v":"c"}\n';
export const CSV = 'id,name,price\n1,apple,0.5\n2,"pear, green",0.75\n3,plum,1.2\n';
export const TSV = 'id\tname\tprice\n1\tapple\t0.5\n2\tpear\t0.75\n';
export const SHELL = '#!/bin/sh\nset -e\necho "hello"\n';
export const PYTHON = '#!/usr/bin/env python3\nprint("hello")\n';
export const PLAIN = 'Dear reader,\nthis is a plain letter. It has no structure at all.\nRegards\n';
