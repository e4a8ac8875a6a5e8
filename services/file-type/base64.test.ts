import { describe, expect, it } from 'vitest';
import { decodeBase64 } from './base64.js';

const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0x00, 0x3e, 0x3f, 0x01]);

describe('decodeBase64', () => {
  it('reads both alphabets, with or without padding, and ignores MIME line breaks', () => {
    const standard = bytes.toString('base64');
    const urlSafe = bytes.toString('base64url');
    expect(standard).toMatch(/[+/]/);
    expect(urlSafe).toMatch(/[-_]/);
    const padded = `${urlSafe}${'='.repeat((4 - (urlSafe.length % 4)) % 4)}`;
    const wrapped = `${standard.slice(0, 4)}\r\n${standard.slice(4)}`;
    for (const text of [standard, standard.replace(/=+$/, ''), urlSafe, padded, wrapped]) {
      expect(decodeBase64(text, 'content'), text).toEqual(bytes);
    }
  });

  it.each([
    ['a character outside both alphabets', 'aGVsbG8$'],
    ['a mix of both alphabets', 'a+b_'],
    ['a dangling sixth bit', 'aGVsb'],
    ['padding in the middle', 'aG=sbG8='],
    ['padding on a length that is not a multiple of 4', 'aGVsbG8=='],
    ['only padding', '===='],
  ])('refuses %s', (_what, text) => {
    expect(() => decodeBase64(text, 'items[2].content')).toThrow('items[2].content: must be valid base64');
  });

  it('refuses text that is only white space as blank', () => {
    expect(() => decodeBase64(' \r\n\t', 'content')).toThrow('content: must not be blank');
  });
});
