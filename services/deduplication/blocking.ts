import type { FieldValue } from './normalize.js';
import { phoneticKey } from './phonetic.js';

/** Blocking keys each record takes part in: the rarest of its keys that at least one other record shares. */
export const MAX_KEYS_PER_RECORD = 6;
/** In a block, each record is compared with this many records after it in the block's sorted order. */
export const WINDOW = 8;
/** The most pairs blocking can propose: n × MAX_KEYS_PER_RECORD × WINDOW. */
export const maxCandidatePairs = (n: number): number => n * MAX_KEYS_PER_RECORD * WINDOW;

/** Fewest trailing digits of a phone number that make a key (a country code then does not matter). */
const PHONE_TAIL = 7;

/** Key kinds, the more specific first: they win ties in rarity. */
const KIND_ORDER = '=#@~';

/**
 * Every blocking key of one record, tagged with the field index so that keys of different fields never meet:
 * the whole normalised value (`=`), the last seven digits of a phone number (`#`), the local part of an e-mail
 * address (`@`), and the phonetic key of each token of two characters or more (`~`).
 */
export function candidateKeys(fields: readonly (FieldValue | null)[]): string[] {
  const keys = new Set<string>();
  fields.forEach((value, f) => {
    if (!value) return;
    if (value.digits !== null) {
      keys.add(`${f}=${value.digits}`);
      if (value.digits.length >= PHONE_TAIL) keys.add(`${f}#${value.digits.slice(-PHONE_TAIL)}`);
      return;
    }
    keys.add(`${f}=${value.text}`);
    if (value.email) {
      keys.add(`${f}@${value.email.local}`);
      return;
    }
    for (const token of value.tokens) if (token.length >= 2) keys.add(`${f}~${phoneticKey(token)}`);
  });
  return [...keys];
}

/**
 * A string that sorts similar records next to each other inside a block: per field, the sorted phonetic keys
 * of its tokens (digits for phone numbers), then the normalised values. John Smith and Jon Smith get the same.
 */
export function sortKey(fields: readonly (FieldValue | null)[]): string {
  const phonetic = fields.map((v) => {
    if (!v) return '';
    if (v.digits !== null) return v.digits;
    return v.tokens.map(phoneticKey).sort().join(' ');
  });
  return `${phonetic.join('|')}\u0000${fields.map((v) => v?.text ?? '').join('|')}`;
}

/** The kind character follows the field index: `2~S530` is kind `~`. */
const kindRank = (key: string): number => KIND_ORDER.indexOf(key[key.search(/\D/)]!);

const byRarity = (count: (key: string) => number) => (x: string, y: string) =>
  count(x) - count(y) || kindRank(x) - kindRank(y) || (x < y ? -1 : x > y ? 1 : 0);

/**
 * Candidate pairs by blocking with a sorted neighbourhood (Hernández and Stolfo 1995), each pair once, i < j.
 *
 * 1. Every record's candidate keys are counted over the whole input; keys no other record has are dropped,
 *    and each record keeps its MAX_KEYS_PER_RECORD rarest (rare keys make small, telling blocks; a common
 *    surname or a shared domain makes a large one).
 * 2. Each block (the records sharing a key) is sorted by sortKey, and every record is paired with the next
 *    WINDOW records of that order. A block of up to WINDOW + 1 records is thus compared completely; a larger
 *    one costs WINDOW comparisons per record instead of all pairs.
 *
 * Hence at most n × MAX_KEYS_PER_RECORD × WINDOW pairs, whatever the data.
 */
export function candidatePairs(records: readonly (readonly (FieldValue | null)[])[]): [number, number][] {
  const keysOf = records.map(candidateKeys);
  const counts = new Map<string, number>();
  for (const keys of keysOf) for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  const count = (k: string) => counts.get(k) ?? 0;
  const blocks = new Map<string, number[]>();
  keysOf.forEach((keys, i) => {
    const kept = keys
      .filter((k) => count(k) >= 2)
      .sort(byRarity(count))
      .slice(0, MAX_KEYS_PER_RECORD);
    for (const k of kept) {
      const block = blocks.get(k);
      if (block) block.push(i);
      else blocks.set(k, [i]);
    }
  });
  const sortKeys = new Map<number, string>();
  const sortKeyOf = (i: number): string => {
    let key = sortKeys.get(i);
    if (key === undefined) {
      key = sortKey(records[i]!);
      sortKeys.set(i, key);
    }
    return key;
  };
  const n = records.length;
  const seen = new Set<number>();
  const pairs: [number, number][] = [];
  for (const block of blocks.values()) {
    if (block.length < 2) continue;
    if (block.length > WINDOW + 1) {
      block.sort((x, y) => {
        const kx = sortKeyOf(x);
        const ky = sortKeyOf(y);
        return kx < ky ? -1 : kx > ky ? 1 : x - y;
      });
    }
    for (let p = 0; p < block.length; p++) {
      for (let q = p + 1; q <= p + WINDOW && q < block.length; q++) {
        const i = Math.min(block[p]!, block[q]!);
        const j = Math.max(block[p]!, block[q]!);
        const id = i * n + j;
        if (seen.has(id)) continue;
        seen.add(id);
        pairs.push([i, j]);
      }
    }
  }
  return pairs;
}
