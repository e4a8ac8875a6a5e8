/**
 * 10,000 records: blocking keeps the work near-linear (counted in comparisons, not timed), and still finds
 * planted duplicates among thousands of people who share first names, surnames, domains and area codes.
 */
import { describe, expect, it } from 'vitest';
import { maxCandidatePairs } from './blocking.js';
import { detectDuplicates } from './detect.js';

const FIRST = [
  'james',
  'mary',
  'john',
  'patricia',
  'robert',
  'jennifer',
  'michael',
  'linda',
  'william',
  'elizabeth',
  'david',
  'barbara',
  'richard',
  'susan',
  'joseph',
  'jessica',
  'thomas',
  'sarah',
  'charles',
  'karen',
  'christopher',
  'nancy',
  'daniel',
  'lisa',
  'matthew',
  'betty',
  'anthony',
  'margaret',
  'mark',
  'sandra',
  'donald',
  'ashley',
  'steven',
  'kimberly',
  'paul',
  'emily',
  'andrew',
  'donna',
  'joshua',
  'michelle',
];
const LAST = [
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'garcia',
  'miller',
  'davis',
  'rodriguez',
  'martinez',
  'hernandez',
  'lopez',
  'gonzalez',
  'wilson',
  'anderson',
  'thomas',
  'taylor',
  'moore',
  'jackson',
  'martin',
  'lee',
  'perez',
  'thompson',
  'white',
  'harris',
  'sanchez',
  'clark',
  'ramirez',
  'lewis',
  'robinson',
  'walker',
  'young',
  'allen',
  'king',
  'wright',
  'scott',
  'torres',
  'nguyen',
  'hill',
  'flores',
];
const DOMAINS = ['example.com', 'example.org', 'mail.example.net', 'corp.example'];
const AREAS = ['415', '212', '312', '617', '206'];

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Person {
  readonly first: string;
  readonly last: string;
  readonly email: string;
  readonly area: string;
  readonly line: string;
}

const title = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** One typo of the kinds people make: two letters swapped, one dropped, one doubled. */
function typo(word: string, next: () => number): string {
  const i = 1 + Math.floor(next() * (word.length - 2));
  switch (Math.floor(next() * 3)) {
    case 0:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    default:
      return word.slice(0, i) + word[i] + word.slice(i);
  }
}

/** A record of a person, written one of several ways. */
function write(p: Person, next: () => number, variant: boolean): Record<string, unknown> {
  if (!variant) {
    return {
      name: `${title(p.first)} ${title(p.last)}`,
      email: p.email,
      phone: `+1 ${p.area} ${p.line.slice(0, 3)} ${p.line.slice(3)}`,
    };
  }
  const names = [
    () => `${title(p.last)}, ${title(p.first)}`,
    () => `${title(p.first)} ${title(typo(p.last, next))}`,
    () => `${p.first.toUpperCase()}  ${p.last.toUpperCase()}`,
    () => `${title(typo(p.first, next))} ${title(p.last)}`,
  ];
  const [local, domain] = p.email.split('@') as [string, string];
  const emails = [
    () => p.email.toUpperCase(),
    () => `${local.replaceAll('.', '')}@${domain}`,
    () => `${local}+shop@${domain}`,
    () => p.email,
  ];
  const phones = [
    () => `(${p.area}) ${p.line.slice(0, 3)}-${p.line.slice(3)}`,
    () => `${p.area}.${p.line.slice(0, 3)}.${p.line.slice(3)}`,
    () => `1-${p.area}-${p.line.slice(0, 3)}-${p.line.slice(3)}`,
  ];
  const pick = <T>(list: (() => T)[]) => list[Math.floor(next() * list.length)]!();
  return { name: pick(names), email: pick(emails), phone: pick(phones) };
}

/** `people` distinct people (names repeat, e-mail addresses and numbers do not) plus `copies` variants. */
function dataset(people: number, copies: number, seed: number) {
  const next = random(seed);
  const persons: Person[] = [];
  const lines = new Set<string>();
  for (let i = 0; i < people; i++) {
    const first = FIRST[Math.floor(next() * FIRST.length)]!;
    const last = LAST[Math.floor(next() * LAST.length)]!;
    let line: string;
    do line = String(Math.floor(next() * 1e7)).padStart(7, '0');
    while (lines.has(line));
    lines.add(line);
    const email = `${first}.${last}${i}@${DOMAINS[i % DOMAINS.length]}`;
    persons.push({ first, last, email, area: AREAS[i % AREAS.length]!, line });
  }
  const records = persons.map((p) => write(p, next, false));
  const owner = persons.map((_, i) => i);
  for (let c = 0; c < copies; c++) {
    const i = Math.floor(next() * people);
    records.push(write(persons[i]!, next, true));
    owner.push(i);
  }
  return { records, owner };
}

describe('detectDuplicates on 10,000 records', () => {
  it('finds the planted duplicates with at most 50 comparisons per record, and no false group', async () => {
    const { records, owner } = dataset(9_000, 1_000, 2026);
    expect(records).toHaveLength(10_000);
    const result = await detectDuplicates(records, {
      strategy: 'FUZZY',
      matchFields: ['name', 'email', 'phone'],
      threshold: 0.85,
    });
    expect(result.comparisons).toBeLessThanOrEqual(50 * records.length);
    expect(result.comparisons).toBeLessThanOrEqual(maxCandidatePairs(records.length));

    const groupOf = new Map<number, number>();
    result.duplicateGroups.forEach((g, k) => {
      for (const i of g.indices) groupOf.set(i, k);
    });
    let found = 0;
    for (let r = 9_000; r < 10_000; r++)
      if (groupOf.get(r) !== undefined && groupOf.get(r) === groupOf.get(owner[r]!)) found++;
    expect(found / 1_000).toBeGreaterThanOrEqual(0.98);
    const mixed = result.duplicateGroups.filter((g) => new Set(g.indices.map((i) => owner[i])).size > 1);
    expect(mixed).toEqual([]);
  });

  it('keeps the comparisons bounded when every record shares its name, domain and area code', async () => {
    const records = Array.from({ length: 10_000 }, (_, i) => ({
      name: 'John Smith',
      email: `john.smith${i}@example.com`,
      phone: `+1 415 ${String(1_000_000 + i * 37).slice(-7)}`,
    }));
    const result = await detectDuplicates(records, {
      strategy: 'FUZZY',
      matchFields: ['name', 'email', 'phone'],
      threshold: 0.85,
    });
    expect(result.comparisons).toBeLessThanOrEqual(50 * records.length);
    // Distinct e-mail addresses and numbers: no one is a duplicate, however alike the names.
    expect(result.duplicatesFound).toBe(0);
  });

  it('grows linearly: four times the records, about four times the comparisons', async () => {
    const count = async (n: number) => {
      const { records } = dataset(n * 0.9, n * 0.1, 7);
      return (
        await detectDuplicates(records, {
          strategy: 'FUZZY',
          matchFields: ['name', 'email', 'phone'],
          threshold: 0.85,
        })
      ).comparisons;
    };
    const [small, large] = [await count(2_500), await count(10_000)];
    expect(small).toBeGreaterThan(0);
    expect(large / small).toBeLessThan(5);
  });
});
