import { describe, expect, it } from 'vitest';
import { difficultyFor, HARD, NORMAL } from './difficulty.js';

describe('captcha difficulty', () => {
  it('is normal below the threshold and hard from it', () => {
    expect(difficultyFor(0)).toBe(NORMAL);
    expect(difficultyFor(0.49)).toBe(NORMAL);
    expect(difficultyFor(0.5)).toBe(HARD);
    expect(difficultyFor(1)).toBe(HARD);
    expect(HARD.length).toBe(6);
    expect(NORMAL.length).toBe(5);
    expect(HARD.noiseLines).toBeGreaterThan(NORMAL.noiseLines);
    expect(HARD.noiseDots).toBeGreaterThan(NORMAL.noiseDots);
  });

  it('treats a risk that is not in 0..1 as high', () => {
    for (const r of [Number.NaN, -0.1, 1.5, Number.POSITIVE_INFINITY]) expect(difficultyFor(r)).toBe(HARD);
  });
});
