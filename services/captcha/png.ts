import { PNG } from 'pngjs';
import type { Rgb, Scene } from './scene.js';

/**
 * Rasterizes a scene into an RGB PNG. Strokes are drawn as round-capped thick segments with one pixel of
 * anti-aliasing (coverage from the distance to the segment), dots as discs.
 */
export function renderPng(scene: Scene): Buffer {
  const { width, height } = scene;
  const png = new PNG({ width, height, colorType: 2, inputHasAlpha: true });
  const data = png.data;
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = scene.background[0];
    data[i * 4 + 1] = scene.background[1];
    data[i * 4 + 2] = scene.background[2];
    data[i * 4 + 3] = 255;
  }
  const paint = (x: number, y: number, color: Rgb, coverage: number) => {
    const o = (y * width + x) * 4;
    for (let c = 0; c < 3; c++)
      data[o + c] = Math.round(data[o + c]! * (1 - coverage) + color[c]! * coverage);
  };
  const shape = (
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    reach: number,
    distance: (px: number, py: number) => number,
    radius: number,
    color: Rgb,
  ) => {
    const minX = Math.max(0, Math.floor(Math.min(x0, x1) - reach));
    const maxX = Math.min(width - 1, Math.ceil(Math.max(x0, x1) + reach));
    const minY = Math.max(0, Math.floor(Math.min(y0, y1) - reach));
    const maxY = Math.min(height - 1, Math.ceil(Math.max(y0, y1) + reach));
    for (let y = minY; y <= maxY; y++) {
      for (let x = minX; x <= maxX; x++) {
        const coverage = Math.min(1, Math.max(0, radius + 0.5 - distance(x + 0.5, y + 0.5)));
        if (coverage > 0) paint(x, y, color, coverage);
      }
    }
  };

  for (const stroke of scene.strokes) {
    const r = stroke.width / 2;
    const p = stroke.points;
    for (let i = 0; i + 3 < p.length; i += 2) {
      const [ax, ay, bx, by] = [p[i]!, p[i + 1]!, p[i + 2]!, p[i + 3]!];
      shape(ax, ay, bx, by, r + 1, (x, y) => segmentDistance(x, y, ax, ay, bx, by), r, stroke.color);
    }
  }
  for (const d of scene.dots) {
    shape(d.x, d.y, d.x, d.y, d.r + 1, (x, y) => Math.hypot(x - d.x, y - d.y), d.r, d.color);
  }
  return PNG.sync.write(png, { colorType: 2 });
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
