import type { Difficulty } from './difficulty.js';
import { GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS, type Polyline } from './font.js';

/**
 * What a captcha image shows, in pixels: strokes and dots over a background. Built once when the challenge is
 * issued and stored with it, so any gateway renders the same picture as PNG or SVG without knowing the answer.
 */
export interface Scene {
  readonly width: number;
  readonly height: number;
  readonly background: Rgb;
  readonly strokes: readonly Stroke[];
  readonly dots: readonly Dot[];
}

export type Rgb = readonly [number, number, number];

export interface Stroke {
  readonly color: Rgb;
  readonly width: number;
  /** Flat x, y pairs. */
  readonly points: readonly number[];
}

export interface Dot {
  readonly color: Rgb;
  readonly x: number;
  readonly y: number;
  readonly r: number;
}

export const IMAGE_WIDTH = 200;
export const IMAGE_HEIGHT = 70;

/** Pieces a stroke is cut into before warping, so straight glyph edges bend. */
const STEP_PX = 2.5;
const MARGIN = 12;

/** `random` returns [0, 1); the service passes a crypto-backed one, tests a seeded one. */
export function buildScene(text: string, difficulty: Difficulty, random: () => number): Scene {
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const dark = (): Rgb => [
    Math.floor(between(10, 90)),
    Math.floor(between(10, 90)),
    Math.floor(between(20, 110)),
  ];
  const width = IMAGE_WIDTH;
  const height = IMAGE_HEIGHT;
  const warp = makeWarp(difficulty.warp, width, height, between);
  const strokes: Stroke[] = [];

  const slot = (width - 2 * MARGIN) / text.length;
  [...text].forEach((ch, i) => {
    const glyph = GLYPHS[ch];
    if (!glyph) throw new Error(`captcha: no glyph for ${JSON.stringify(ch)}`);
    const scale = between(0.72, 0.85) * Math.min((height - 14) / GLYPH_HEIGHT, (slot * 0.95) / GLYPH_WIDTH);
    const angle = between(-difficulty.maxRotation, difficulty.maxRotation);
    const cx = MARGIN + slot * (i + 0.5) + between(-slot * 0.08, slot * 0.08);
    const cy = height / 2 + between(-4, 4);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const color = dark();
    const strokeWidth = between(2.6, 3.6);
    for (const line of glyph) {
      const placed = line.map(([gx, gy]): [number, number] => {
        const x = (gx - GLYPH_WIDTH / 2) * scale;
        const y = (gy - GLYPH_HEIGHT / 2) * scale;
        return [cx + x * cos - y * sin, cy + x * sin + y * cos];
      });
      strokes.push({ color, width: round1(strokeWidth), points: warpLine(subdivide(placed), warp) });
    }
  });

  for (let i = 0; i < difficulty.noiseLines; i++) {
    // A wavy line from the left edge to the right, so it crosses several glyphs.
    const y0 = between(8, height - 8);
    const y1 = between(8, height - 8);
    const amp = between(3, 10);
    const phase = between(0, Math.PI * 2);
    const line: [number, number][] = [];
    for (let x = 0; x <= width; x += STEP_PX * 2) {
      const t = x / width;
      line.push([x, y0 + (y1 - y0) * t + amp * Math.sin(phase + t * Math.PI * 3)]);
    }
    strokes.push({ color: dark(), width: round1(between(1, 2.2)), points: warpLine(line, warp) });
  }

  const dots: Dot[] = [];
  for (let i = 0; i < difficulty.noiseDots; i++) {
    const shade = Math.floor(between(30, 170));
    dots.push({
      color: [shade, shade, Math.floor(between(30, 170))],
      x: round1(between(0, width)),
      y: round1(between(0, height)),
      r: round1(between(0.6, 1.6)),
    });
  }
  const light = Math.floor(between(232, 250));
  return { width, height, background: [light, light, Math.floor(between(228, 252))], strokes, dots };
}

type Warp = (x: number, y: number) => [number, number];

/** A smooth displacement field of two sine waves, one per axis. */
function makeWarp(
  amplitude: number,
  width: number,
  height: number,
  between: (lo: number, hi: number) => number,
): Warp {
  const px = between(0, Math.PI * 2);
  const py = between(0, Math.PI * 2);
  const fx = between(1.2, 2.2) * ((Math.PI * 2) / width);
  const fy = between(0.8, 1.4) * ((Math.PI * 2) / height);
  return (x, y) => [x + amplitude * 0.6 * Math.sin(py + y * fy), y + amplitude * Math.sin(px + x * fx)];
}

function subdivide(line: Polyline): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < line.length - 1; i++) {
    const [x0, y0] = line[i]!;
    const [x1, y1] = line[i + 1]!;
    const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / STEP_PX));
    for (let k = 0; k < n; k++) out.push([x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n]);
  }
  const last = line[line.length - 1]!;
  out.push([last[0], last[1]]);
  return out;
}

function warpLine(line: readonly (readonly [number, number])[], warp: Warp): number[] {
  return line.flatMap(([x, y]) => warp(x, y).map(round1));
}

const round1 = (v: number): number => Math.round(v * 10) / 10;
