import { describe, expect, it } from 'vitest';
import { ibanDetector } from './iban.js';
import type { Finding } from './types.js';

const found = (text: string): string[] => {
  const out: Finding[] = [];
  ibanDetector.scan(text, out, {});
  return out.map((f) => text.slice(f.start, f.end));
};

describe('ibanDetector', () => {
  it('finds IBANs compact and in printed groups of four', () => {
    expect(found('iban=DE89370400440532013000, payee GB82 WEST 1234 5698 7654 32.')).toEqual([
      'DE89370400440532013000',
      'GB82 WEST 1234 5698 7654 32',
    ]);
    expect(found('FR14 2004 1010 0505 0001 3M02 606 EUR')).toEqual(['FR14 2004 1010 0505 0001 3M02 606']);
  });

  it('refuses a wrong checksum, a wrong length, mixed grouping and glued text', () => {
    expect(found('DE89370400440532013001')).toEqual([]);
    expect(found('DE8937040044053201300')).toEqual([]);
    expect(found('DE893704004405320130001')).toEqual([]);
    expect(found('DE89 37040044 0532 0130 00')).toEqual([]);
    expect(found('XDE89370400440532013000')).toEqual([]);
    expect(found('US12345678901234567890')).toEqual([]);
  });
});
