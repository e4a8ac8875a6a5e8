import { randomBytes, randomInt } from 'node:crypto';
import type { RangeEntry } from './corpus.js';

/** Have I Been Pwned's padding: zero-count lines until a response holds 800 to 1,000 lines. */
export const PADDED_MIN_LINES = 800;
export const PADDED_MAX_LINES = 1000;

export interface Randomness {
  /** An integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  /** 35 upper-case hex digits. */
  suffix(): string;
}

/** Unpredictable padding: a caller must not tell padding from real entries, nor guess the real count. */
export const secureRandomness: Randomness = {
  int: (min, max) => randomInt(min, max + 1),
  suffix: () => randomBytes(18).toString('hex').slice(1).toUpperCase(),
};

/**
 * The entries with, when asked, zero-count padding so the response has between 800 and 1,000 lines (a prefix
 * with more real entries than the drawn total gets none). Real entries are kept as they are; the result is
 * sorted by suffix as Have I Been Pwned's responses are.
 */
export function padRange(
  entries: readonly RangeEntry[],
  random: Randomness = secureRandomness,
): RangeEntry[] {
  const target = random.int(PADDED_MIN_LINES, PADDED_MAX_LINES);
  const seen = new Set(entries.map((e) => e.suffix));
  const padded = [...entries];
  while (padded.length < target) {
    const suffix = random.suffix();
    if (seen.has(suffix)) continue;
    seen.add(suffix);
    padded.push({ suffix, count: 0 });
  }
  return padded.sort((a, b) => (a.suffix < b.suffix ? -1 : a.suffix > b.suffix ? 1 : 0));
}

/** The range API's body: `SUFFIX:COUNT` lines joined by CRLF, no line break after the last. */
export const rangeBody = (entries: readonly RangeEntry[]): string =>
  entries.map((e) => `${e.suffix}:${e.count}`).join('\r\n');
