import { describe, expect, it } from 'vitest';
import { phoneDetector } from './phone.js';
import type { Finding } from './types.js';

const found = (text: string): string[][] => {
  const out: Finding[] = [];
  phoneDetector.scan(text, out, {});
  return out.map((f) => [text.slice(f.start, f.end), f.confidence]);
};

describe('phoneDetector', () => {
  it('finds international numbers with an assigned calling code (HIGH)', () => {
    expect(found('tel +1 (415) 555-2671, +44 20 7946 0958; +34 612 345 678.')).toEqual([
      ['+1 (415) 555-2671', 'HIGH'],
      ['+44 20 7946 0958', 'HIGH'],
      ['+34 612 345 678', 'HIGH'],
    ]);
    expect(found('"+4930901820"')).toEqual([['+4930901820', 'HIGH']]);
    expect(found('+44 (0)20 7946 0958')).toEqual([['+44 (0)20 7946 0958', 'HIGH']]);
    expect(found('+1-202-555-0143')).toEqual([['+1-202-555-0143', 'HIGH']]);
  });

  it('finds North American numbers with a parenthesised area code (MEDIUM)', () => {
    expect(found('(415) 555-2671 (212)555.0199 (646) 555 0100')).toEqual([
      ['(415) 555-2671', 'MEDIUM'],
      ['(212)555.0199', 'MEDIUM'],
      ['(646) 555 0100', 'MEDIUM'],
    ]);
  });

  it('leaves time zones, arithmetic, short and invalid numbers alone', () => {
    expect(found('[10/Oct/2023:13:55:36 +0000] +05:30 a+1234567890 9+12345678901')).toEqual([]);
    expect(found('+1 415 555 267 +1 115 555 2671 +289 1234 5678 +1234567890123456')).toEqual([]);
    expect(found('(111: Connection refused) (415) 055-2671 f(415) 555-2671')).toEqual([]);
  });
});
