import type { ImportProgress } from './import.js';

const BAR_WIDTH = 24;

const grouped = (n: number): string => Math.round(n).toLocaleString('en-US');

/** 1234567 → `1.23M`, 45600 → `45.6k`. */
export function shortCount(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

/** Seconds → `m:ss`, or `h:mm:ss` from an hour on. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Lines per second and, when the input size is known, the fraction done and the time left. */
export function progressStats(p: ImportProgress): {
  rate: number;
  fraction: number | null;
  etaSeconds: number | null;
} {
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? p.lines / seconds : 0;
  if (!p.totalBytes) return { rate, fraction: null, etaSeconds: null };
  const fraction = Math.min(1, p.bytesRead / p.totalBytes);
  const etaSeconds = p.bytesRead > 0 ? ((p.totalBytes - p.bytesRead) * seconds) / p.bytesRead : null;
  return { rate, fraction, etaSeconds };
}

/** One status text: a bar for terminals, a plain sentence for logs. */
export function formatProgress(p: ImportProgress, style: 'bar' | 'line'): string {
  const { rate, fraction, etaSeconds } = progressStats(p);
  const parts = [`${grouped(p.entries)} hashes`, `${shortCount(rate)} lines/s`];
  if (etaSeconds !== null) parts.push(`ETA ${clock(etaSeconds)}`);
  if (fraction === null) parts.push(`${shortCount(p.bytesRead)}B read`);
  const pct = fraction === null ? null : `${(fraction * 100).toFixed(1).padStart(5)}%`;
  if (style === 'line') return `importing: ${[...(pct ? [pct.trim()] : []), ...parts].join(', ')}`;
  const bar =
    fraction === null ? '' : `[${'#'.repeat(Math.round(fraction * BAR_WIDTH)).padEnd(BAR_WIDTH, '.')}] `;
  return `${pct ? `${pct} ` : ''}${bar}${parts.join('  ')}`;
}
