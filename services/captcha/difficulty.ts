/**
 * How hard a challenge is, from the requester's risk (0 good … 1 bad, e.g. IP reputation). Two levels only:
 * finer steps would tell a bot operator how its reputation is scored.
 */
export interface Difficulty {
  readonly level: 'normal' | 'hard';
  readonly length: number;
  /** Lines drawn across the text. */
  readonly noiseLines: number;
  /** Specks scattered over the image. */
  readonly noiseDots: number;
  /** Largest glyph rotation, radians. */
  readonly maxRotation: number;
  /** Amplitude of the sine warp, pixels. */
  readonly warp: number;
}

export const NORMAL: Difficulty = {
  level: 'normal',
  length: 5,
  noiseLines: 4,
  noiseDots: 120,
  maxRotation: 0.3,
  warp: 3,
};

export const HARD: Difficulty = {
  level: 'hard',
  length: 6,
  noiseLines: 6,
  noiseDots: 220,
  maxRotation: 0.45,
  warp: 5,
};

/** Risk at or above which challenges get harder. */
export const HARD_FROM = 0.5;

/** A risk that is not a number in 0..1 (a broken reputation source) counts as high: fail towards harder. */
export function difficultyFor(risk: number): Difficulty {
  if (!Number.isFinite(risk) || risk < 0 || risk > 1) return HARD;
  return risk >= HARD_FROM ? HARD : NORMAL;
}
