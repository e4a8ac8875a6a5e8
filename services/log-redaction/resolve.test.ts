import { describe, expect, it } from 'vitest';
import { resolveOverlaps } from './resolve.js';
import { type Finding, RANK } from './types.js';

const f = (
  type: Finding['type'],
  start: number,
  end: number,
  rank: number,
  confidence: Finding['confidence'] = 'HIGH',
) => ({ type, start, end, rank, confidence }) satisfies Finding;

describe('resolveOverlaps', () => {
  it('keeps the longest of overlapping findings and returns them in text order', () => {
    const kept = resolveOverlaps(
      [
        f('EMAIL', 10, 20, RANK.EMAIL),
        f('PASSWORD', 5, 25, RANK.FIELD),
        f('IP_ADDRESS', 30, 40, RANK.IP_ADDRESS),
      ],
      50,
    );
    expect(kept.map((k) => [k.type, k.start])).toEqual([
      ['PASSWORD', 5],
      ['IP_ADDRESS', 30],
    ]);
  });

  it('on equal spans prefers the more confident, then the more specific rule', () => {
    const sameSpan = [f('API_KEY', 0, 10, RANK.FIELD), f('JWT', 0, 10, RANK.JWT)];
    expect(resolveOverlaps(sameSpan, 10).map((k) => k.type)).toEqual(['JWT']);
    const confidence = [f('SSN', 0, 11, RANK.SSN, 'MEDIUM'), f('SSN', 0, 11, RANK.FIELD, 'HIGH')];
    expect(resolveOverlaps(confidence, 11).map((k) => k.confidence)).toEqual(['HIGH']);
  });

  it('is deterministic whatever the input order', () => {
    const items = [
      f('PHONE', 0, 12, RANK.PHONE),
      f('CREDIT_CARD', 2, 14, RANK.CREDIT_CARD),
      f('EMAIL', 20, 30, RANK.EMAIL),
      f('API_KEY', 25, 35, RANK.ENTROPY, 'MEDIUM'),
    ];
    const expected = resolveOverlaps(items, 40);
    expect(expected.map((k) => k.type)).toEqual(['CREDIT_CARD', 'EMAIL']);
    expect(resolveOverlaps([...items].reverse(), 40)).toEqual(expected);
  });

  it('keeps adjacent findings (end is exclusive) and drops empty ones', () => {
    const kept = resolveOverlaps(
      [f('EMAIL', 0, 5, RANK.EMAIL), f('IP_ADDRESS', 5, 9, 7), f('JWT', 9, 9, 1)],
      9,
    );
    expect(kept.map((k) => k.type)).toEqual(['EMAIL', 'IP_ADDRESS']);
  });
});
