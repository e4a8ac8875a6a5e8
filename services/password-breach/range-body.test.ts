import { describe, expect, it } from 'vitest';
import type { RangeEntry } from './corpus.js';
import { PADDED_MAX_LINES, PADDED_MIN_LINES, padRange, type Randomness, rangeBody } from './range-body.js';

/** A seeded stand-in for the crypto source, so each case is reproducible. */
function seeded(seed: number, total?: number): Randomness {
  let a = seed >>> 0;
  const next = () => {
    a = (Math.imul(a, 1_664_525) + 1_013_904_223) >>> 0;
    return a;
  };
  return {
    int: (min, max) => total ?? min + (next() % (max - min + 1)),
    suffix: () => Array.from({ length: 35 }, () => '0123456789ABCDEF'[next() >>> 28]).join(''),
  };
}

const real: RangeEntry[] = [
  { suffix: '1E4C9B93F3F0682250B6CF8331B7EE68FD8', count: 9_659_365 },
  { suffix: '2648FB0B2EDA4FDFF99BF51E912CD95C023', count: 12 },
];

describe('range body', () => {
  it('joins SUFFIX:COUNT lines with CRLF and no line break after the last', () => {
    expect(rangeBody(real)).toBe(
      '1E4C9B93F3F0682250B6CF8331B7EE68FD8:9659365\r\n2648FB0B2EDA4FDFF99BF51E912CD95C023:12',
    );
    expect(rangeBody([])).toBe('');
  });

  it('pads to the drawn total (800 to 1,000 lines) with zero counts, real entries kept as they are', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const padded = padRange(real, seeded(seed));
      expect(padded.length).toBeGreaterThanOrEqual(PADDED_MIN_LINES);
      expect(padded.length).toBeLessThanOrEqual(PADDED_MAX_LINES);
      for (const e of real) expect(padded).toContainEqual(e);
      const padding = padded.filter((e) => !real.includes(e));
      expect(padding.length).toBe(padded.length - real.length);
      for (const e of padding) {
        expect(e.count).toBe(0);
        expect(e.suffix).toMatch(/^[0-9A-F]{35}$/);
      }
      expect(new Set(padded.map((e) => e.suffix)).size).toBe(padded.length);
      expect(padded.map((e) => e.suffix)).toEqual(padded.map((e) => e.suffix).sort());
    }
  });

  it('reaches both ends of the range', () => {
    expect(padRange(real, seeded(1, 800))).toHaveLength(800);
    expect(padRange(real, seeded(1, 1000))).toHaveLength(1000);
    expect(padRange([], seeded(1, 800)).every((e) => e.count === 0)).toBe(true);
  });

  it('never lets padding shadow or duplicate a real suffix', () => {
    const draws = [real[0]!.suffix, real[0]!.suffix, '0'.repeat(35), '0'.repeat(35), 'F'.repeat(35)];
    let i = 0;
    const random: Randomness = {
      int: () => 5,
      suffix: () => draws[i++] ?? 'E'.repeat(35),
    };
    const padded = padRange(real, random);
    expect(padded).toEqual([
      { suffix: '0'.repeat(35), count: 0 },
      real[0],
      real[1],
      { suffix: 'E'.repeat(35), count: 0 },
      { suffix: 'F'.repeat(35), count: 0 },
    ]);
  });

  it('adds nothing when the real entries already reach the drawn total', () => {
    const many = Array.from({ length: 1200 }, (_, i) => ({
      suffix: i.toString(16).toUpperCase().padStart(35, '0'),
      count: i + 1,
    }));
    expect(padRange(many, seeded(9))).toEqual(many);
  });

  it('draws from the crypto source by default', () => {
    const a = padRange([]);
    const b = padRange([]);
    expect(a.length).toBeGreaterThanOrEqual(PADDED_MIN_LINES);
    expect(a.map((e) => e.suffix)).not.toEqual(b.map((e) => e.suffix));
  });
});
