import { describe, expect, it } from 'vitest';
import { comparePair, emailScore, fieldScore, identifierScore, phoneScore, textScore } from './compare.js';
import { type FieldValue, prepareField } from './normalize.js';

const value = (v: unknown, field = 'f'): FieldValue => {
  const prepared = prepareField({ [field]: v }, field);
  if (!prepared) throw new Error(`no value: ${String(v)}`);
  return prepared;
};
const text = (a: string, b: string) => textScore(value(a), value(b));
const row = (...values: unknown[]) => values.map((v, i) => prepareField({ [`f${i}`]: v }, `f${i}`));

describe('textScore', () => {
  it('scores spelling variants, reordered names and diacritics high', () => {
    expect(text('John Smith', 'john  smith.')).toBe(1);
    expect(text('Smith, John', 'John Smith')).toBe(1);
    expect(text('José Müller', 'Jose Muller')).toBe(1);
    expect(text('John Smith', 'Jon Smith')).toBeGreaterThan(0.95);
    expect(text('Acme Corp.', 'ACME Corporation')).toBeGreaterThan(0.85);
    expect(text('Catherine', 'Katherine')).toBeGreaterThan(0.85);
  });

  it('scores different people with a shared first or last name below 0.85', () => {
    expect(text('John Smith', 'John Adams')).toBeLessThan(0.7);
    expect(text('John Smith', 'Mary Smith')).toBeLessThan(0.85);
    expect(text('John', 'John Smith')).toBeLessThan(0.7);
    expect(text('Smith', 'John Smith')).toBeLessThan(0.7);
  });

  it('compares long single tokens by indel ratio only', () => {
    const a = `${'x'.repeat(40)}1`;
    expect(text(a, `${'x'.repeat(40)}2`)).toBeCloseTo(80 / 82, 12);
  });

  it('returns a value below the floor, without scoring, when the lengths alone rule it out', () => {
    const long = value(Array.from({ length: 12 }, (_, i) => `word${i}`).join(' '));
    const short = value('a b c d e f g h');
    const full = textScore(long, short);
    expect(textScore(long, short, 0.9)).toBeLessThan(0.9);
    expect(full).toBeLessThan(0.9);
  });
});

describe('phoneScore', () => {
  it('treats a number with and without its country code as the same', () => {
    expect(phoneScore('14155550100', '4155550100')).toBe(1);
    expect(fieldScore(value('+44 20 7946 0958', 'phone'), value('020 7946 0958', 'phone'))).toBe(1);
  });

  it('keeps 0.7 for one typo in ten digits and drops to 0 for different numbers', () => {
    expect(phoneScore('4155550100', '4155550109')).toBeCloseTo(0.7, 12);
    expect(phoneScore('4155550100', '4155551000')).toBeCloseTo(0.7, 12);
    expect(phoneScore('14155550100', '14155557821')).toBe(0);
    expect(phoneScore('14155550100', '12125550100')).toBeLessThan(0.5);
  });

  it('does not treat a short number inside a longer one as the same', () => {
    expect(phoneScore('55501', '4155550100')).toBeLessThan(0.5);
  });
});

describe('emailScore and identifierScore', () => {
  const email = (v: string) => value(v).email!;

  it('ignores dots and +tags of the local part and letter case', () => {
    expect(emailScore(email('John.Smith+news@Example.com'), email('johnsmith@example.com'))).toBe(1);
  });

  it('keeps 0.8·0.7 + 0.2 for one typo, and 0.2 for another mailbox on the same domain', () => {
    expect(emailScore(email('jhonsmith@example.com'), email('johnsmith@example.com'))).toBeCloseTo(
      0.8 * (1 - 3 / 9) + 0.2,
      12,
    );
    expect(emailScore(email('a@example.com'), email('b@example.com'))).toBeCloseTo(0.2, 12);
    expect(emailScore(email('david.thomas27138@x.com'), email('david.thomas7701@x.com'))).toBeLessThan(0.5);
  });

  it('scores identifiers by edits, not by shared prefixes', () => {
    expect(identifierScore('abc', 'abc')).toBe(1);
    expect(identifierScore('abcdefghij', 'abcdefghiX')).toBeCloseTo(0.7, 12);
    expect(identifierScore('abcdefghij', 'abcdefXYZW')).toBe(0);
  });
});

describe('comparePair', () => {
  it('averages the fields either record has; a field only one has scores 0', () => {
    const pair = comparePair(row('John Smith', 'js@example.com', null), row('John Smith', null, null), 0);
    expect(pair).toEqual({ similarity: 0.5, scores: [1, 0, null] });
  });

  it('is null when no field is comparable', () => {
    expect(comparePair(row(null, null), row(undefined, null), 0)).toBeNull();
  });

  it('returns a pair exactly when its full similarity reaches the threshold', () => {
    const names = [
      'John Smith',
      'Jon Smith',
      'Smith John',
      'John Smyth',
      'Mary Smith',
      'J. Smith',
      'Jane Doe',
    ];
    const mails = ['js@example.com', 'j.s@example.com', 'mary@example.com', null];
    const rows = names.flatMap((n, i) =>
      mails.map((m, k) => row(n, m, i % 2 === 0 ? '+1 415 555 0100' : null, k)),
    );
    let matched = 0;
    for (const threshold of [0.5, 0.7, 0.85, 0.95, 1]) {
      for (const a of rows) {
        for (const b of rows) {
          const full = comparePair(a, b, 0);
          const cut = comparePair(a, b, threshold);
          if (full && full.similarity >= threshold) {
            expect(cut).toEqual(full);
            matched++;
          } else {
            expect(cut).toBeNull();
          }
        }
      }
    }
    expect(matched).toBeGreaterThan(100);
  });
});
