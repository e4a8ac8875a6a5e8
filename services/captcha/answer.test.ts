import { describe, expect, it } from 'vitest';
import { ALPHABET, answerHash, normalizeAnswer, randomAnswer, sameHash } from './answer.js';
import { GLYPHS } from './font.js';

describe('captcha answers', () => {
  it('uses an alphabet without look-alikes, every character of it drawable', () => {
    for (const ch of '0O1IL') expect(ALPHABET).not.toContain(ch);
    expect(new Set(ALPHABET).size).toBe(ALPHABET.length);
    for (const ch of ALPHABET) expect(GLYPHS[ch], ch).toBeDefined();
  });

  it('draws answers of the asked length from the alphabet only', () => {
    for (const n of [5, 6]) {
      const a = randomAnswer(n);
      expect(a).toHaveLength(n);
      expect([...a].every((c) => ALPHABET.includes(c))).toBe(true);
    }
    expect(randomAnswer(3, (n) => n - 1)).toBe('999');
    expect(randomAnswer(2, () => 0)).toBe('AA');
  });

  it('hashes case- and space-insensitively, bound to the challenge id', () => {
    expect(normalizeAnswer(' h7k q3 ')).toBe('H7KQ3');
    const h = answerHash('id-1', 'H7KQ3');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(sameHash(h, answerHash('id-1', 'h7kq3'))).toBe(true);
    expect(sameHash(h, answerHash('id-1', 'h7 Kq 3'))).toBe(true);
    expect(sameHash(h, answerHash('id-2', 'H7KQ3'))).toBe(false);
    expect(sameHash(h, answerHash('id-1', 'H7KQ4'))).toBe(false);
    expect(sameHash(h, '')).toBe(false);
  });
});
