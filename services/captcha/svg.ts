import type { Rgb, Scene } from './scene.js';

const hex = (c: Rgb): string => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** The same scene as an SVG document: polylines and circles, nothing but numbers and colours from the scene. */
export function renderSvg(scene: Scene): string {
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" ` +
      `viewBox="0 0 ${scene.width} ${scene.height}">`,
    `<rect width="100%" height="100%" fill="${hex(scene.background)}"/>`,
  ];
  for (const s of scene.strokes) {
    const points: string[] = [];
    for (let i = 0; i + 1 < s.points.length; i += 2) points.push(`${s.points[i]},${s.points[i + 1]}`);
    parts.push(
      `<polyline points="${points.join(' ')}" fill="none" stroke="${hex(s.color)}" ` +
        `stroke-width="${s.width.toFixed(1)}" stroke-linecap="round" stroke-linejoin="round"/>`,
    );
  }
  for (const d of scene.dots)
    parts.push(`<circle cx="${d.x}" cy="${d.y}" r="${d.r}" fill="${hex(d.color)}"/>`);
  parts.push('</svg>');
  return parts.join('');
}
