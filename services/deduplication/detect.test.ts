import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD, detectDuplicates } from './detect.js';
import { UnionFind } from './union-find.js';

const example = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../schemas/api/deduplication/${name}`, import.meta.url), 'utf8')) as {
    examples: Record<string, unknown>[];
  };

describe('EXACT', () => {
  const exact = (records: Record<string, unknown>[], matchFields: string[]) =>
    detectDuplicates(records, { strategy: 'EXACT', matchFields, threshold: DEFAULT_THRESHOLD });

  it('groups records whose match fields hold equal JSON values, byte for byte', async () => {
    const result = await exact(
      [
        { email: 'a@example.com', n: 1 },
        { email: 'a@example.com ', n: 1 },
        { email: 'A@example.com', n: 1 },
        { email: 'a@example.com', n: 1.0, other: 'ignored' },
        { email: 'a@example.com', n: '1' },
      ],
      ['email', 'n'],
    );
    expect(result).toEqual({
      duplicateGroups: [{ similarity: 1, indices: [0, 3], scores: { email: 1, n: 1 } }],
      totalRecords: 5,
      duplicatesFound: 1,
      comparisons: 0,
    });
  });

  it('compares objects whatever their key order, and takes an absent field as null', async () => {
    const result = await exact(
      [
        { address: { city: 'Paris', zip: '75001' }, tag: null },
        { address: { zip: '75001', city: 'Paris' } },
        { address: { zip: '75001', city: 'paris' } },
        {},
        { unrelated: true },
      ],
      ['address', 'tag'],
    );
    // Records with none of the fields are in no group, however many there are.
    expect(result.duplicateGroups).toEqual([
      { similarity: 1, indices: [0, 1], scores: { address: 1, tag: null } },
    ]);
  });
});

describe('FUZZY', () => {
  const fuzzy = (records: Record<string, unknown>[], matchFields: string[], threshold = DEFAULT_THRESHOLD) =>
    detectDuplicates(records, { strategy: 'FUZZY', matchFields, threshold });

  it('returns what the documented example says', async () => {
    const request = example('detect-request.json').examples[0] as {
      records: Record<string, unknown>[];
      matchFields: string[];
      threshold: number;
    };
    const { comparisons, ...result } = await fuzzy(request.records, request.matchFields, request.threshold);
    expect(result).toEqual(example('detect-response.json').examples[0]);
    expect(comparisons).toBeGreaterThan(0);
  });

  it('joins duplicates of duplicates into one group (single linkage) with the mean of its links', async () => {
    // 0–1 and 1–2 are close; 0 and 2 are two edits apart and below the threshold on their own.
    const records = [
      { name: 'Katherine Johnson' },
      { name: 'Catherine Johnson' },
      { name: 'Catherine Jonson' },
    ];
    const pairs = await Promise.all(
      (
        [
          [0, 1],
          [1, 2],
          [0, 2],
        ] as const
      ).map(
        async ([i, j]) =>
          (await fuzzy([records[i]!, records[j]!], ['name'], 0.01)).duplicateGroups[0]!.similarity,
      ),
    );
    const threshold = Math.min(pairs[0]!, pairs[1]!) - 0.001;
    expect(pairs[2]).toBeLessThan(threshold);
    const result = await fuzzy(records, ['name'], threshold);
    expect(result.duplicateGroups).toHaveLength(1);
    expect(result.duplicateGroups[0]).toMatchObject({ indices: [0, 1, 2] });
    expect(result.duplicateGroups[0]!.similarity).toBeCloseTo((pairs[0]! + pairs[1]!) / 2, 3);
    expect(result.duplicatesFound).toBe(2);
  });

  it('orders groups by their first index and counts duplicates as group size minus one', async () => {
    const result = await fuzzy(
      [
        { name: 'Zoe Quinn' },
        { name: 'Adam Brook' },
        { name: 'Adam Brooke' },
        { name: 'Zoë Quinn' },
        { name: 'Adam Brooks' },
        { name: 'Someone Else' },
      ],
      ['name'],
    );
    expect(result.duplicateGroups.map((g) => g.indices)).toEqual([
      [0, 3],
      [1, 2, 4],
    ]);
    expect(result.duplicatesFound).toBe(3);
    expect(result.totalRecords).toBe(6);
  });

  it('gives a per-field breakdown, null for a field no link had', async () => {
    const result = await fuzzy(
      [
        { name: 'John Smith', city: 'Boston', fax: null },
        { name: 'Jon Smith', city: 'Boston' },
      ],
      ['name', 'city', 'fax'],
    );
    const [group] = result.duplicateGroups;
    expect(Object.keys(group!.scores)).toEqual(['name', 'city', 'fax']);
    expect(group!.scores.city).toBe(1);
    expect(group!.scores.fax).toBeNull();
    expect(group!.scores.name).toBeGreaterThan(0.95);
    expect(group!.similarity).toBeCloseTo((group!.scores.name! + 1) / 2, 3);
  });

  it('matches on nested fields by dotted path', async () => {
    const result = await fuzzy(
      [{ person: { name: 'Ann Lee' } }, { person: { name: 'ann  LEE' } }, { person: { name: 'Bo Chan' } }],
      ['person.name'],
    );
    expect(result.duplicateGroups).toEqual([
      { similarity: 1, indices: [0, 1], scores: { 'person.name': 1 } },
    ]);
  });

  it('at threshold 1 finds only records whose normalised fields have the same words', async () => {
    const records = [{ name: 'Smith, John' }, { name: 'john smith' }, { name: 'Jon Smith' }];
    expect((await fuzzy(records, ['name'], 1)).duplicateGroups.map((g) => g.indices)).toEqual([[0, 1]]);
    expect((await fuzzy(records, ['name'], 0.9)).duplicateGroups.map((g) => g.indices)).toEqual([[0, 1, 2]]);
  });

  it('does not match people who share only a name when e-mail and phone differ', async () => {
    const result = await fuzzy(
      [
        { name: 'David Thomas', email: 'david.thomas27138@example.com', phone: '+1 555 516 6189' },
        { name: 'David Thomas', email: 'david.thomas7701@example.com', phone: '+1 555 516 9105' },
      ],
      ['name', 'email', 'phone'],
    );
    expect(result.duplicateGroups).toEqual([]);
  });

  it('is deterministic: the same input gives the same groups in the same order', async () => {
    const records = Array.from({ length: 300 }, (_, i) => ({
      name: `person ${i % 50} ${['a', 'b'][i % 2]}`,
    }));
    const first = await fuzzy(records, ['name'], 0.8);
    expect(await fuzzy(records, ['name'], 0.8)).toEqual(first);
    expect(first.duplicateGroups.length).toBeGreaterThan(0);
  });
});

describe('UnionFind', () => {
  it('joins sets and tells whether a union joined anything', () => {
    const sets = new UnionFind(5);
    expect(sets.union(0, 1)).toBe(true);
    expect(sets.union(3, 4)).toBe(true);
    expect(sets.union(1, 0)).toBe(false);
    expect(sets.union(1, 4)).toBe(true);
    expect(sets.find(0)).toBe(sets.find(3));
    expect(sets.find(2)).not.toBe(sets.find(0));
  });
});
