import { describe, expect, it } from 'vitest';
import { phoneticKey } from './phonetic.js';

describe('phoneticKey', () => {
  it('is American Soundex for Latin tokens (the National Archives’ examples)', () => {
    expect(phoneticKey('robert')).toBe('R163');
    expect(phoneticKey('rupert')).toBe('R163');
    expect(phoneticKey('rubin')).toBe('R150');
    expect(phoneticKey('ashcraft')).toBe('A261');
    expect(phoneticKey('ashcroft')).toBe('A261');
    expect(phoneticKey('tymczak')).toBe('T522');
    expect(phoneticKey('pfister')).toBe('P236');
    expect(phoneticKey('honeyman')).toBe('H555');
  });

  it('gives spelling variants of a name one key', () => {
    expect(phoneticKey('smith')).toBe(phoneticKey('smyth'));
    expect(phoneticKey('jon')).toBe(phoneticKey('john'));
    expect(phoneticKey('jonathan')).toBe(phoneticKey('jonathon'));
    expect(phoneticKey('smith')).not.toBe(phoneticKey('jones'));
  });

  it('keeps numbers (up to 12 digits) and the first four characters of other scripts', () => {
    expect(phoneticKey('1600')).toBe('1600');
    expect(phoneticKey('12345678901234')).toBe('123456789012');
    expect(phoneticKey('東京都渋谷区')).toBe('東京都渋');
    expect(phoneticKey('a1b2')).toBe('a1b2');
    expect(phoneticKey('ab')).toBe('A100');
  });
});
