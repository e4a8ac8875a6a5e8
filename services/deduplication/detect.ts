import { candidatePairs } from './blocking.js';
import { comparePair, type PairScore } from './compare.js';
import { fieldValue, isPhoneField, prepareField } from './normalize.js';
import { UnionFind } from './union-find.js';

export const STRATEGIES = ['EXACT', 'FUZZY'] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const DEFAULT_THRESHOLD = 0.85;

export interface DetectOptions {
  readonly strategy: Strategy;
  readonly matchFields: readonly string[];
  /** FUZZY only: the least pair similarity that makes two records duplicates. */
  readonly threshold: number;
}

export interface DuplicateGroup {
  readonly similarity: number;
  /** Positions in the input, ascending. */
  readonly indices: readonly number[];
  /** Per match field: its mean score over the links of the group; null where no link compared it. */
  readonly scores: Readonly<Record<string, number | null>>;
}

export interface Detection {
  /** Ordered by their first index. */
  readonly duplicateGroups: readonly DuplicateGroup[];
  readonly totalRecords: number;
  /** Records that duplicate another: the sum over groups of their size minus one. */
  readonly duplicatesFound: number;
  /** Record pairs scored (0 for EXACT, which only hashes). */
  readonly comparisons: number;
}

export type Records = readonly Readonly<Record<string, unknown>>[];

/** Pair comparisons between two turns of the event loop. */
const YIELD_EVERY = 2_000;

const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** JSON with object keys sorted, so {a, b} and {b, a} are one value. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Absent and null are both "no value". */
const present = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * EXACT: records whose match fields hold equal JSON values (strings byte for byte, objects whatever their key
 * order, absent equal to null) form a group; a record with none of the fields is in no group.
 */
function exactGroups(records: Records, fields: readonly string[]): DuplicateGroup[] {
  const groups = new Map<string, { indices: number[]; has: boolean[] }>();
  records.forEach((record, i) => {
    const values = fields.map((f) => fieldValue(record, f));
    const has = values.map(present);
    if (!has.some(Boolean)) return;
    const key = canonical(values.map((v) => (present(v) ? v : null)));
    const group = groups.get(key);
    if (group) group.indices.push(i);
    else groups.set(key, { indices: [i], has });
  });
  return [...groups.values()]
    .filter((g) => g.indices.length > 1)
    .map((g) => ({
      similarity: 1,
      indices: g.indices,
      scores: Object.fromEntries(fields.map((f, k) => [f, g.has[k] ? 1 : null])),
    }));
}

interface Link {
  readonly i: number;
  readonly j: number;
  readonly score: PairScore;
}

/**
 * FUZZY: candidate pairs from blocking (blocking.ts) are scored (compare.ts); pairs at or above the threshold
 * link their records, and groups are the connected records (single linkage). Links are taken strongest first
 * (Kruskal), so each group of k records keeps the k − 1 strongest links that connect it; its similarity and
 * per-field scores are the means over those links, each at least the threshold.
 */
async function fuzzyGroups(
  records: Records,
  fields: readonly string[],
  threshold: number,
): Promise<{ groups: DuplicateGroup[]; comparisons: number }> {
  const phone = fields.map(isPhoneField);
  const prepared = records.map((r) => fields.map((f, k) => prepareField(r, f, phone[k])));
  const pairs = candidatePairs(prepared);
  const links: Link[] = [];
  for (let p = 0; p < pairs.length; p++) {
    // Large inputs take seconds: other requests get the event loop in between.
    if (p > 0 && p % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    const [i, j] = pairs[p]!;
    const score = comparePair(prepared[i]!, prepared[j]!, threshold);
    if (score) links.push({ i, j, score });
  }
  links.sort((x, y) => y.score.similarity - x.score.similarity || x.i - y.i || x.j - y.j);
  const sets = new UnionFind(records.length);
  const tree = links.filter((l) => sets.union(l.i, l.j));
  const byRoot = new Map<number, Link[]>();
  for (const link of tree) {
    const root = sets.find(link.i);
    const group = byRoot.get(root);
    if (group) group.push(link);
    else byRoot.set(root, [link]);
  }
  const groups = [...byRoot.values()].map((groupLinks) => {
    const indices = [...new Set(groupLinks.flatMap((l) => [l.i, l.j]))].sort((a, b) => a - b);
    const similarity = groupLinks.reduce((s, l) => s + l.score.similarity, 0) / groupLinks.length;
    const scores = fields.map((_, k) => {
      const values = groupLinks.map((l) => l.score.scores[k]).filter((s) => s !== null && s !== undefined);
      return values.length === 0 ? null : round4(values.reduce((s, v) => s + v, 0) / values.length);
    });
    return {
      similarity: round4(similarity),
      indices,
      scores: Object.fromEntries(fields.map((f, k) => [f, scores[k] ?? null])),
    };
  });
  return { groups, comparisons: pairs.length };
}

export async function detectDuplicates(records: Records, options: DetectOptions): Promise<Detection> {
  const { groups, comparisons } =
    options.strategy === 'EXACT'
      ? { groups: exactGroups(records, options.matchFields), comparisons: 0 }
      : await fuzzyGroups(records, options.matchFields, options.threshold);
  const ordered = groups.sort((a, b) => a.indices[0]! - b.indices[0]!);
  return {
    duplicateGroups: ordered,
    totalRecords: records.length,
    duplicatesFound: ordered.reduce((n, g) => n + g.indices.length - 1, 0),
    comparisons,
  };
}
