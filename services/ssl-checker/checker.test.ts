import { describe, expect, it } from 'vitest';
import { mapLimited } from './checker.js';

describe('mapLimited', () => {
  it('keeps the input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const delays = [30, 5, 20, 1, 15, 2, 8, 12, 3, 25];
    const results = await mapLimited(delays, 3, async (ms, i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return `${i}:${ms}`;
    });
    expect(results).toEqual(delays.map((ms, i) => `${i}:${ms}`));
    expect(peak).toBe(3);
  });

  it('handles an empty list and a limit above the list length', async () => {
    expect(await mapLimited([], 4, async () => 1)).toEqual([]);
    expect(await mapLimited([1, 2], 10, async (n) => n * 2)).toEqual([2, 4]);
  });
});
