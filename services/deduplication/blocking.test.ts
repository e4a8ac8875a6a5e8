import { describe, expect, it } from 'vitest';
import {
  candidateKeys,
  candidatePairs,
  MAX_KEYS_PER_RECORD,
  maxCandidatePairs,
  sortKey,
  WINDOW,
} from './blocking.js';
import { prepareField } from './normalize.js';

const FIELDS = ['name', 'email', 'phone'];
const prepare = (records: Record<string, unknown>[]) =>
  records.map((r) => FIELDS.map((f) => prepareField(r, f)));
const has = (pairs: [number, number][], i: number, j: number) => pairs.some(([x, y]) => x === i && y === j);

describe('candidateKeys', () => {
  it('tags each key with its field: whole value, phone tail, e-mail local part, token sounds', () => {
    const [fields] = prepare([{ name: 'Jon Smith', email: 'J.Smith@example.com', phone: '+1 415 555 0100' }]);
    expect(candidateKeys(fields!).sort()).toEqual(
      [
        '0=jon smith',
        '0~J500',
        '0~S530',
        '1=j smith example com',
        '1@jsmith',
        '2=14155550100',
        '2#5550100',
      ].sort(),
    );
  });

  it('skips one-letter tokens and absent fields', () => {
    const [fields] = prepare([{ name: 'J Smith' }]);
    expect(candidateKeys(fields!).sort()).toEqual(['0=j smith', '0~S530']);
  });
});

describe('sortKey', () => {
  it('is the same for spelling variants and reordered names', () => {
    const [a, b, c] = prepare([{ name: 'John Smith' }, { name: 'Smyth, Jon' }, { name: 'Mary Smith' }]);
    expect(sortKey(a!).split('\u0000')[0]).toBe(sortKey(b!).split('\u0000')[0]);
    expect(sortKey(a!)).not.toBe(sortKey(c!));
  });
});

describe('candidatePairs', () => {
  it('pairs records that share a key, each pair once with i < j, and no others', () => {
    const pairs = candidatePairs(
      prepare([
        { name: 'John Smith' },
        { name: 'Alice Martin' },
        { name: 'Jon Smyth' },
        { name: 'Bob Kowalski' },
      ]),
    );
    expect(pairs).toEqual([[0, 2]]);
  });

  it('proposes nothing for records that share no key', () => {
    const names = ['Alice Martin', 'Bob Kowalski', 'Carl Zhang', 'Dora Quint', 'Evan Pryce'];
    expect(candidatePairs(prepare(names.map((name) => ({ name }))))).toEqual([]);
  });

  it(`stays within n × ${MAX_KEYS_PER_RECORD} keys × ${WINDOW} neighbours when every record shares every key`, () => {
    const n = 2_000;
    const records = Array.from({ length: n }, () => ({
      name: 'john smith alpha beta gamma delta epsilon zeta',
      email: 'john@example.com',
      phone: '+1 415 555 0100',
    }));
    const pairs = candidatePairs(prepare(records));
    expect(pairs.length).toBeLessThanOrEqual(maxCandidatePairs(n));
    expect(maxCandidatePairs(n)).toBe(n * MAX_KEYS_PER_RECORD * WINDOW);
    // Identical records: each block is one sorted run, so consecutive records are always paired (a chain).
    const ids = new Set(pairs.map(([i, j]) => i * n + j));
    const missing = Array.from({ length: n - 1 }, (_, i) => i).filter((i) => !ids.has(i * n + i + 1));
    expect(missing).toEqual([]);
  });

  it('finds a duplicate pair inside a block of thousands (sorted neighbourhood)', () => {
    const surnames = ['smith', 'jones', 'brown', 'taylor', 'wilson', 'davies', 'evans', 'thomas'];
    const records: Record<string, unknown>[] = [];
    for (let i = 0; i < 3_000; i++)
      records.push({ name: `john ${surnames[i % 8]}${String.fromCharCode(97 + (i % 26))}${i}` });
    records.push({ name: 'John Fitzgerald-Kennedy' }, { name: 'Jon Fitzgerald Kenedy' });
    const pairs = candidatePairs(prepare(records));
    expect(has(pairs, 3_000, 3_001)).toBe(true);
    expect(pairs.length).toBeLessThanOrEqual(maxCandidatePairs(records.length));
  });
});
