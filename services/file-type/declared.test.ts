import { describe, expect, it } from 'vitest';
import { declared } from './declared.js';

describe('declared', () => {
  it('takes the base name and its last extension, lower-case', () => {
    expect(declared('C:\\Users\\me\\Report.Final.PDF', 'Application/PDF; charset=binary')).toEqual({
      filename: 'Report.Final.PDF',
      extension: 'pdf',
      mimeType: 'application/pdf',
    });
    expect(declared('dir/archive.tar.gz', null)).toMatchObject({
      filename: 'archive.tar.gz',
      extension: 'gz',
    });
  });

  it('finds no extension in dot files, names without one, or odd endings', () => {
    for (const name of [
      '.bashrc',
      'Makefile',
      'trailing.',
      'weird.ext with space',
      'long.abcdefghijklmnopq',
    ]) {
      expect(declared(name, null).extension, name).toBeNull();
    }
  });

  it('gives null for what was not declared, or not well formed', () => {
    expect(declared(undefined, undefined)).toEqual({ filename: null, extension: null, mimeType: null });
    expect(declared('  ', 'not a type')).toEqual({ filename: null, extension: null, mimeType: null });
    expect(declared('a/', 'image/')).toEqual({ filename: null, extension: null, mimeType: null });
  });
});
