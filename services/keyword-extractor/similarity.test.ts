import { describe, expect, it } from 'vitest';
import { levenshtein, mayReach, similarity } from './similarity.js';

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['flaw', 'lawn', 2],
    ['derecho', 'derechos', 1],
    ['故乡', '故乡时', 1],
    ['same', 'same', 0],
  ])('%j → %j: %i edits', (a, b, d) => {
    expect(levenshtein(a, b)).toBe(d);
    expect(levenshtein(b, a)).toBe(d);
  });
});

describe('similarity', () => {
  it('is 1 − distance / longer length', () => {
    expect(similarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 12);
    expect(similarity('derecho', 'derechos')).toBeCloseTo(0.875, 12);
    expect(similarity('', '')).toBe(1);
    expect(similarity('abc', 'xyz')).toBe(0);
  });

  it('mayReach never rules out a pair that reaches the threshold', () => {
    const words = ['a', 'ab', 'abc', 'abcd', 'abcde', 'abcdef', 'bcdef', 'xbcdefg', 'derecho', 'derechos'];
    for (const a of words)
      for (const b of words)
        for (const t of [0.5, 0.8, 0.85, 0.9]) {
          if (similarity(a, b) >= t) expect(mayReach(a, b, t), `${a} ${b} ${t}`).toBe(true);
        }
    expect(mayReach('ab', 'abcdefgh', 0.85)).toBe(false);
  });
});
