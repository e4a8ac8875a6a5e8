import { describe, expect, it } from 'vitest';
import { contentHash, isWellFormed } from './content-hash.js';

describe('contentHash', () => {
  it('is SHA-256 as 64 lower-case hex digits (FIPS 180-2 test vectors)', () => {
    expect(contentHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(contentHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(contentHash('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes the exact UTF-8 bytes: white space, case and Unicode normalisation all count', () => {
    const variants = ['café', 'cafe\u0301', 'Café', 'café ', ' café', 'café\n', 'café\r\n'];
    expect(new Set(variants.map(contentHash)).size).toBe(variants.length);
    expect(contentHash('€')).toBe(contentHash(Buffer.from([0xe2, 0x82, 0xac]).toString('utf8')));
  });
});

describe('isWellFormed', () => {
  it('refuses unpaired surrogates, which UTF-8 cannot encode', () => {
    expect(isWellFormed('plain text, émoji 😀, 漢字')).toBe(true);
    expect(isWellFormed('')).toBe(true);
    for (const bad of ['\ud800', 'a\udc00b', '\ud83d', 'x\ud83dy', '\ude00😀'])
      expect(isWellFormed(bad), bad).toBe(false);
  });

  it('is needed: Node would give a lone surrogate the hash of U+FFFD', () => {
    expect(contentHash('\ud800')).toBe(contentHash('\ufffd'));
  });
});
