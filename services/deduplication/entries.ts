import { AppError } from '../../core/errors/catalogue.js';
import { randomToken } from '../../core/ids.js';
import type { KvStore } from '../../core/kv/kv.js';

export const DEFAULT_TTL_HOURS = 720;
export const MAX_TTL_HOURS = 8760;
export const NAMESPACE_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

const HOUR_MS = 3_600_000;
/**
 * The counter outlives its entry by this much, so it can never vanish first: an entry still present always
 * finds its own counter (a fresh counter for an old entry would report a repeat as UNIQUE).
 */
const COUNTER_GRACE_MS = 60_000;
/** An entry that expires between our read and our write is simply created again; twice is already unusual. */
const ATTEMPTS = 3;

export type CheckResultKind = 'UNIQUE' | 'EXACT_DUPLICATE';

export interface CheckResult {
  readonly result: CheckResultKind;
  readonly hash: string;
  readonly namespace: string;
  readonly firstSeen: string;
  readonly occurrences: number;
  readonly expiresAt: string;
}

/** What the entry key holds. `generation` names this life of the entry's counter. */
interface Entry {
  readonly firstSeen: string;
  readonly expiresAt: string;
  readonly generation: string;
}

/**
 * `dedup:<accountId>:<namespace>:<hash>`. The account id comes from the API key, never from the request, so
 * one account cannot reach another's entries; namespaces cannot contain `:` (NAMESPACE_PATTERN) and hashes are
 * hex, so no two (account, namespace, hash) triples share a key.
 */
export const entryKey = (accountId: string, namespace: string, hash: string): string =>
  `dedup:${accountId}:${namespace}:${hash}`;

const counterKey = (key: string, entry: Entry): string => `${key}:${entry.generation}`;

function parseEntry(raw: string): Entry {
  const value = JSON.parse(raw) as Partial<Entry>;
  if (
    typeof value.firstSeen !== 'string' ||
    typeof value.expiresAt !== 'string' ||
    typeof value.generation !== 'string'
  ) {
    throw new Error('deduplication: malformed entry in the kv store');
  }
  return value as Entry;
}

/** The entry of `key`: the stored one, or a new one when this call is the first (setIfAbsent decides). */
async function entryFor(kv: KvStore, key: string, now: Date, ttlMs: number): Promise<Entry> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const stored = await kv.get(key);
    if (stored !== null) return parseEntry(stored);
    const fresh: Entry = {
      firstSeen: now.toISOString(),
      expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
      generation: randomToken(9),
    };
    if (await kv.setIfAbsent(key, JSON.stringify(fresh), ttlMs)) return fresh;
  }
  throw new AppError('SERVICE_UNAVAILABLE', 'the deduplication store is busy; retry');
}

export interface CheckInput {
  readonly accountId: string;
  readonly namespace: string;
  readonly hash: string;
  readonly ttlHours: number;
}

/**
 * Records one submission of `hash` and says whether it was the first. Two atomic kv operations, whatever the
 * adapter (SQLite, Redis):
 *
 * 1. the entry `{firstSeen, expiresAt, generation}` is created with setIfAbsent (lifetime ttlHours), or read;
 * 2. the counter `<entry key>:<generation>` is incremented; the call that gets 1 is UNIQUE, every other
 *    EXACT_DUPLICATE, and `occurrences` is that number.
 *
 * Concurrent first submissions all end up on the one entry that setIfAbsent let in, hence on one counter:
 * exactly one gets 1, and the others get 2, 3, … each once. The entry's lifetime is fixed by its first
 * submission (a later `ttlHours` neither extends nor shortens it). When it expires, the next submission makes
 * a new entry with a new generation, hence a new counter starting at 1; the old counter expires by itself.
 */
export async function recordSubmission(kv: KvStore, input: CheckInput, now: Date): Promise<CheckResult> {
  const key = entryKey(input.accountId, input.namespace, input.hash);
  const entry = await entryFor(kv, key, now, input.ttlHours * HOUR_MS);
  const remainingMs = Math.max(1, Date.parse(entry.expiresAt) - now.getTime());
  const occurrences = await kv.increment(counterKey(key, entry), 1, remainingMs + COUNTER_GRACE_MS);
  return {
    result: occurrences === 1 ? 'UNIQUE' : 'EXACT_DUPLICATE',
    hash: input.hash,
    namespace: input.namespace,
    firstSeen: entry.firstSeen,
    occurrences,
    expiresAt: entry.expiresAt,
  };
}
