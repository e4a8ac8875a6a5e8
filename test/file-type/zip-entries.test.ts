import { describe, expect, it } from 'vitest';
import {
  embeddedZipAt,
  hasMacroMembers,
  isLocalHeader,
  zipEndAt,
  zipEntryNames,
} from '../../services/file-type/zip-entries.js';
import * as f from './fixtures.js';

describe('ZIP members', () => {
  it('lists member names from the local headers and the central directory', () => {
    expect(zipEntryNames(f.docm()).sort()).toEqual(
      ['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'word/vbaProject.bin'].sort(),
    );
    // The first bytes alone still show the first member.
    expect(zipEntryNames(f.docm().subarray(0, 60))).toEqual(['[Content_Types].xml']);
  });

  it('knows the members that hold macros', () => {
    expect(hasMacroMembers(['word/vbaProject.bin'])).toBe(true);
    expect(hasMacroMembers(['xl/VBAPROJECT.BIN'])).toBe(true);
    expect(hasMacroMembers(['Basic/Standard/Module1.xml'])).toBe(true);
    expect(
      hasMacroMembers(['Basic/Standard/script-lb.xml', 'Basic/script-lc.xml', 'word/document.xml']),
    ).toBe(false);
  });
});

describe('ZIP structures inside other bytes', () => {
  const archive = f.zip([{ name: 'x.txt', data: 'x' }]);

  it('finds an end record only when it closes the bytes exactly', () => {
    expect(zipEndAt(archive)).toBe(archive.length - 22);
    expect(zipEndAt(Buffer.concat([f.png(), archive]))).toBeGreaterThan(0);
    expect(zipEndAt(Buffer.concat([archive, Buffer.from('trailing')]))).toBe(-1);
  });

  it('finds a local header after offset 0 only when its fields are plausible', () => {
    expect(embeddedZipAt(Buffer.concat([f.gif(), archive]))).toBe(f.gif().length);
    const fake = Buffer.concat([
      Buffer.from('junk'),
      Buffer.from('PK\x03\x04\xff\xff', 'latin1'),
      Buffer.alloc(40),
    ]);
    expect(isLocalHeader(fake, 4)).toBe(false);
    expect(embeddedZipAt(fake)).toBe(-1);
  });
});
