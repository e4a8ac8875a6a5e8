import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { HARD, NORMAL } from './difficulty.js';
import { GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS } from './font.js';
import { renderPng } from './png.js';
import { buildScene, IMAGE_HEIGHT, IMAGE_WIDTH } from './scene.js';
import { renderSvg } from './svg.js';

/** A seeded generator (mulberry32), so a failing picture can be reproduced. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mean darkness (0..255) of a column band, over every row. */
function darkness(png: PNG, x0: number, x1: number): number {
  let sum = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = x0; x < x1; x++) sum += 255 - png.data[(y * png.width + x) * 4]!;
  }
  return sum / ((x1 - x0) * png.height);
}

describe('captcha font', () => {
  it('keeps every glyph on its grid', () => {
    for (const [ch, lines] of Object.entries(GLYPHS)) {
      for (const line of lines) {
        expect(line.length, ch).toBeGreaterThanOrEqual(2);
        for (const [x, y] of line) {
          expect(x >= 0 && x <= GLYPH_WIDTH && y >= 0 && y <= GLYPH_HEIGHT + 0.5, `${ch} ${x},${y}`).toBe(
            true,
          );
        }
      }
    }
  });
});

describe('captcha pictures', () => {
  it('renders a 200 × 70 PNG with ink where the characters are', () => {
    const scene = buildScene('H7KQ3', NORMAL, seeded(1));
    const png = PNG.sync.read(renderPng(scene));
    expect([png.width, png.height]).toEqual([IMAGE_WIDTH, IMAGE_HEIGHT]);
    // Glyph strokes make the text band clearly darker than a blank background.
    expect(darkness(png, 20, 180)).toBeGreaterThan(25);
    const blank = PNG.sync.read(renderPng({ ...scene, strokes: [], dots: [] }));
    expect(darkness(blank, 0, IMAGE_WIDTH)).toBeLessThan(25);
  });

  it('differs for the same text (random placement), and hard adds a character and noise', () => {
    const a = buildScene('H7KQ3', NORMAL, seeded(1));
    const b = buildScene('H7KQ3', NORMAL, seeded(2));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
    const hard = buildScene('H7KQ3Z', HARD, seeded(3));
    expect(hard.dots.length).toBe(HARD.noiseDots);
    expect(a.dots.length).toBe(NORMAL.noiseDots);
    const glyphStrokes = (text: string) => [...text].reduce((n, c) => n + GLYPHS[c]!.length, 0);
    expect(hard.strokes.length).toBe(glyphStrokes('H7KQ3Z') + HARD.noiseLines);
    expect(a.strokes.length).toBe(glyphStrokes('H7KQ3') + NORMAL.noiseLines);
  });

  it('keeps the characters inside the picture', () => {
    for (let seed = 0; seed < 30; seed++) {
      const scene = buildScene('WMQ8GB', HARD, seeded(seed));
      const glyphs = scene.strokes.slice(0, -HARD.noiseLines);
      for (const s of glyphs) {
        for (let i = 0; i < s.points.length; i += 2) {
          expect(s.points[i]! >= 0 && s.points[i]! <= IMAGE_WIDTH, `seed ${seed} x`).toBe(true);
          expect(s.points[i + 1]! >= 0 && s.points[i + 1]! <= IMAGE_HEIGHT, `seed ${seed} y`).toBe(true);
        }
      }
    }
  });

  it('refuses a character it has no glyph for', () => {
    expect(() => buildScene('AB0', NORMAL, seeded(1))).toThrow(/no glyph/);
  });

  it('renders the same scene as SVG', () => {
    const scene = buildScene('H7KQ3', NORMAL, seeded(4));
    const svg = renderSvg(scene);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="70"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(scene.strokes.length);
    expect(svg.match(/<circle /g)).toHaveLength(scene.dots.length);
    expect(svg).not.toMatch(/<text|H7KQ3/);
  });
});
