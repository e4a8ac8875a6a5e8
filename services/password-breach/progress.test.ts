import { describe, expect, it } from 'vitest';
import { clock, formatProgress, progressStats, shortCount } from './progress.js';

const halfway = {
  bytesRead: 500_000_000,
  totalBytes: 1_000_000_000,
  lines: 10_000_000,
  entries: 9_999_999,
  elapsedMs: 4_000,
};

describe('import progress', () => {
  it('computes the rate in lines per second and the time left from the bytes read', () => {
    expect(progressStats(halfway)).toEqual({ rate: 2_500_000, fraction: 0.5, etaSeconds: 4 });
    expect(progressStats({ ...halfway, totalBytes: null })).toEqual({
      rate: 2_500_000,
      fraction: null,
      etaSeconds: null,
    });
    expect(progressStats({ ...halfway, bytesRead: 0, lines: 0, elapsedMs: 0 })).toEqual({
      rate: 0,
      fraction: 0,
      etaSeconds: null,
    });
  });

  it('draws a bar for terminals', () => {
    expect(formatProgress(halfway, 'bar')).toBe(
      ' 50.0% [############............] 9,999,999 hashes  2.50M lines/s  ETA 0:04',
    );
  });

  it('writes a plain line for logs, and the bytes read when the size is unknown', () => {
    expect(formatProgress(halfway, 'line')).toBe(
      'importing: 50.0%, 9,999,999 hashes, 2.50M lines/s, ETA 0:04',
    );
    expect(formatProgress({ ...halfway, totalBytes: null }, 'line')).toBe(
      'importing: 9,999,999 hashes, 2.50M lines/s, 500.00MB read',
    );
  });

  it('shortens counts and durations', () => {
    expect([shortCount(999), shortCount(45_600), shortCount(1_234_567), shortCount(2.5e9)]).toEqual([
      '999',
      '45.6k',
      '1.23M',
      '2.50G',
    ]);
    expect([clock(0), clock(59.6), clock(61), clock(3_725), clock(-3)]).toEqual([
      '0:00',
      '1:00',
      '1:01',
      '1:02:05',
      '0:00',
    ]);
  });
});
