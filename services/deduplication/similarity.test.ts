import { describe, expect, it } from 'vitest';
import {
  editDistance,
  indelBound,
  indelRatio,
  jaro,
  jaroWinkler,
  lcsLength,
  MAX_TOKEN_PAIRS,
  tokenJaroWinkler,
  tokenSetRatio,
} from './similarity.js';

/** The textbook O(|a|·|b|) table, to check the bit-parallel version against. */
function lcsTable(a: string, b: string): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(up, row[j - 1]!);
      diagonal = up;
    }
  }
  return row[b.length]!;
}

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const close = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

describe('Jaro and Jaro–Winkler', () => {
  it("give Winkler's published values (Winkler 1990, and the Jaro–Winkler article's worked examples)", () => {
    expect(close(jaro('martha', 'marhta'))).toBe(0.944);
    expect(close(jaroWinkler('martha', 'marhta'))).toBe(0.961);
    expect(close(jaro('dwayne', 'duane'))).toBe(0.822);
    expect(close(jaroWinkler('dwayne', 'duane'))).toBe(0.84);
    expect(close(jaro('dixon', 'dicksonx'))).toBe(0.767);
    expect(close(jaroWinkler('dixon', 'dicksonx'))).toBe(0.813);
  });

  it('are 1 for equal strings, 0 with nothing in common or an empty side, and symmetric', () => {
    expect(jaroWinkler('smith', 'smith')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('', 'abc')).toBe(0);
    const next = random(1);
    for (let n = 0; n < 200; n++) {
      const word = () =>
        Array.from({ length: 1 + Math.floor(next() * 12) }, () => 'abcde'[Math.floor(next() * 5)]).join('');
      const [a, b] = [word(), word()];
      expect(jaroWinkler(a, b)).toBeCloseTo(jaroWinkler(b, a), 12);
      expect(jaroWinkler(a, b)).toBeGreaterThanOrEqual(jaro(a, b));
      expect(jaroWinkler(a, b)).toBeLessThanOrEqual(1);
    }
  });

  it('do not boost a shared first letter below 0.7 (Winkler’s boost threshold)', () => {
    const j = jaro('abcdef', 'azzzzz');
    expect(j).toBeLessThanOrEqual(0.7);
    expect(jaroWinkler('abcdef', 'azzzzz')).toBe(j);
  });
});

describe('lcsLength (bit-parallel)', () => {
  it('agrees with the dynamic-programming table on random strings of 1 to 200 characters', () => {
    const next = random(7);
    const alphabet = 'ab cdé漢';
    for (let n = 0; n < 400; n++) {
      const length = () => 1 + Math.floor(next() * (n % 4 === 0 ? 200 : 40));
      const text = (len: number) =>
        Array.from({ length: len }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const [a, b] = [text(length()), text(length())];
      expect(lcsLength(a, b), `${a} / ${b}`).toBe(lcsTable(a, b));
    }
  });

  it('handles exact word boundaries (32, 33, 64, 65 characters) and leaves no state behind', () => {
    for (const m of [31, 32, 33, 63, 64, 65, 128]) {
      const a = 'x'.repeat(m);
      expect(lcsLength(a, a)).toBe(m);
      expect(lcsLength(a, 'y'.repeat(m))).toBe(0);
      expect(lcsLength(a, `y${a.slice(1)}`)).toBe(m - 1);
    }
    // A previous call's masks must not leak into the next.
    expect(lcsLength('abc', 'abc')).toBe(3);
    expect(lcsLength('xyz', 'abc')).toBe(0);
  });
});

describe('indelRatio', () => {
  it('is 2·LCS / total length, and never above its length bound', () => {
    expect(indelRatio('abcd', 'abce')).toBe(0.75);
    expect(indelRatio('', '')).toBe(1);
    expect(indelRatio('a', '')).toBe(0);
    expect(indelRatio('kitten', 'sitting')).toBeCloseTo((2 * 4) / 13, 12);
    expect(indelRatio('ab', 'abcdef')).toBeLessThanOrEqual(indelBound(2, 6));
    expect(indelBound(2, 6)).toBe(0.5);
  });
});

describe('tokenSetRatio', () => {
  it('ignores word order and repeats', () => {
    expect(tokenSetRatio(['john', 'smith'], ['john', 'smith'])).toBe(1);
    expect(tokenSetRatio(['jon', 'smith'], ['john', 'smith'])).toBeCloseTo(18 / 19, 12);
  });

  it('does not score a lone shared word as a match (unlike FuzzyWuzzy’s token_set_ratio)', () => {
    expect(tokenSetRatio(['smith'], ['john', 'smith'])).toBeLessThan(0.75);
    expect(tokenSetRatio(['acme'], ['acme', 'corporation'])).toBeLessThan(0.5);
  });

  it('is 0 for two empty sets', () => {
    expect(tokenSetRatio([], [])).toBe(0);
  });
});

describe('tokenJaroWinkler', () => {
  it('aligns tokens whatever their order and tolerates a typo in one', () => {
    expect(tokenJaroWinkler(['john', 'smith'], ['john', 'smith'])).toBe(1);
    expect(tokenJaroWinkler(['jon', 'smith'], ['john', 'smith'])).toBeGreaterThan(0.95);
  });

  it('counts tokens one side lacks against the score', () => {
    expect(tokenJaroWinkler(['john'], ['john', 'smith'])).toBeCloseTo(4 / 9, 12);
  });

  it('gives up (0) above MAX_TOKEN_PAIRS token pairs', () => {
    const nine = Array.from({ length: 9 }, (_, i) => `w${i}`);
    expect(9 * 9).toBeGreaterThan(MAX_TOKEN_PAIRS);
    expect(tokenJaroWinkler(nine, nine)).toBe(0);
    expect(tokenJaroWinkler(nine.slice(0, 8), nine.slice(0, 8))).toBe(1);
  });
});

describe('editDistance (optimal string alignment)', () => {
  it('counts substitutions, insertions, deletions and adjacent swaps as one edit each', () => {
    expect(editDistance('5551234567', '5551234567')).toBe(0);
    expect(editDistance('5551234567', '5551234568')).toBe(1);
    expect(editDistance('5551234567', '5551243567')).toBe(1);
    expect(editDistance('5551234567', '555123456')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('ca', 'abc')).toBe(3);
  });
});
