import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { KeyLookup, KeyRecord } from '../../core/auth/key-lookup.js';
import type { EventBus, Subscription } from '../../core/bus/bus.js';
import type { StoredEvent } from '../../core/events/envelope.js';
import { streamCategory } from '../../core/events/envelope.js';
import type { EventStore } from '../../core/events/event-store.js';
import type { ApiKeyEvent } from '../../services/apikeys/events.js';
import { APIKEY_CATEGORY, APIKEY_CONTEXT } from '../../services/apikeys/events.js';

/**
 * Cluster key lookups on Redis (DESIGN.md section 1: hot read models in Redis). Layout under the prefix:
 *   key:<sha256>   → JSON KeyRecord + `version`: what a gateway reads, one GET per (cached) authentication
 *   keyid:<keyId>  → JSON KeyDoc: the key's state and every hash it has had, so that a revocation (whose
 *                    event names no hash) reaches them all
 *   keylookup:built → global position of the last full rebuild (absent on a fresh Redis)
 * Redis should run with `maxmemory-policy noeviction` (BullMQ needs it too): an evicted document would let a
 * late duplicate event write an outdated record.
 */
export const KEY_LOOKUP_GROUP = 'keylookup';

export interface RedisKeyLookupOptions {
  /** Prepended to every key (e.g. `toolgate:keys:`), so deployments and test runs can share one Redis. */
  readonly prefix: string;
}

/**
 * How long a record outlives the instant it stops working, so lookups answer "expired" rather than "unknown".
 */
const GRACE_MS = 24 * 3600_000;
/** A document made from an event whose key was never seen here guards against late duplicates this long. */
const TOMBSTONE_MS = 30 * 24 * 3600_000;

/**
 * Per-key state: the projection's own aggregate, versioned by the stream version of the last applied event.
 */
export interface KeyDoc {
  readonly version: number;
  readonly keyId: string;
  readonly accountId: string;
  readonly scopes: readonly string[];
  readonly expiresAt: string | null;
  readonly revoked: boolean;
  /**
   * False when this Redis never saw the key's ApiKeyCreated (data lost): no records are written, fail closed.
   */
  readonly complete: boolean;
  /** Every hash still worth keeping → end of its overlap (null: the current secret). */
  readonly hashes: Readonly<Record<string, string | null>>;
  /** Set on incomplete documents only: when the tombstone may go. */
  readonly tombstoneUntil?: string;
}

interface StoredRecord extends KeyRecord {
  readonly version: number;
}

const minTime = (...values: (number | null)[]): number | null => {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : Math.min(...known);
};
const plus = (iso: string | null, ms: number): number | null => (iso === null ? null : Date.parse(iso) + ms);

/**
 * The next document after `event` (pure and deterministic: a replay yields the same state). Every earlier
 * secret ends no later than a new overlap, as in the SQL read model; hashes whose overlap ended long before
 * the event are dropped from the document (their records expire by themselves).
 */
export function nextKeyDoc(doc: KeyDoc | null, event: StoredEvent): KeyDoc | null {
  const e = { type: event.type, data: event.data } as ApiKeyEvent;
  const version = event.streamVersion;
  const tombstone = (keyId: string, accountId: string, revoked: boolean): KeyDoc => ({
    version,
    keyId,
    accountId,
    scopes: [],
    expiresAt: null,
    revoked,
    complete: false,
    hashes: {},
    tombstoneUntil: new Date(Date.parse(event.occurredAt) + TOMBSTONE_MS).toISOString(),
  });
  switch (e.type) {
    case 'ApiKeyCreated':
      return {
        version,
        keyId: e.data.keyId,
        accountId: e.data.accountId,
        scopes: [...e.data.scopes],
        expiresAt: e.data.expiresAt ?? null,
        revoked: false,
        complete: true,
        hashes: { [e.data.keyHash]: null },
      };
    case 'ApiKeyRevoked':
      return doc ? { ...doc, version, revoked: true } : tombstone(e.data.keyId, e.data.accountId, true);
    case 'ApiKeyRerolled': {
      if (!doc) return tombstone(e.data.keyId, e.data.accountId, false);
      const until = Date.parse(e.data.previousValidUntil);
      const forgetBefore = Date.parse(event.occurredAt) - GRACE_MS;
      const hashes: Record<string, string | null> = {};
      for (const [hash, validUntil] of Object.entries(doc.hashes)) {
        const end = validUntil === null ? Number.POSITIVE_INFINITY : Date.parse(validUntil);
        if (end < forgetBefore) continue;
        hashes[hash] = end <= until ? validUntil : e.data.previousValidUntil;
      }
      hashes[e.data.keyHash] = null;
      return { ...doc, version, hashes };
    }
    default:
      return null;
  }
}

/** What a document means in lookup records: hash → record and the instant (ms) it may disappear, or null. */
export function recordsOf(doc: KeyDoc): { hash: string; record: StoredRecord; expireAt: number | null }[] {
  if (!doc.complete) return [];
  return Object.entries(doc.hashes).map(([hash, validUntil]) => ({
    hash,
    record: {
      keyId: doc.keyId,
      accountId: doc.accountId,
      scopes: [...doc.scopes],
      expiresAt: doc.expiresAt,
      revoked: doc.revoked,
      validUntil,
      version: doc.version,
    },
    expireAt: minTime(plus(doc.expiresAt, GRACE_MS), plus(validUntil, GRACE_MS)),
  }));
}

const docExpireAt = (doc: KeyDoc): number | null =>
  doc.complete ? plus(doc.expiresAt, GRACE_MS) : plus(doc.tombstoneUntil ?? null, 0);

// Compare-and-set on the document's version, then every record, in one atomic step. 0: the event is not newer
// than what is stored (a duplicate or an older event: ignored). -1: the document moved since it was read
// (another projector instance during a consumer-group rebalance): read again. An expiry of '0' means none;
// SET … PXAT with an instant already past stores nothing, which is right for a key that expired long ago.
const APPLY = `local current = 0
local raw = redis.call('GET', KEYS[1])
if raw then current = tonumber(cjson.decode(raw).version) or 0 end
if current >= tonumber(ARGV[2]) then return 0 end
if current ~= tonumber(ARGV[1]) then return -1 end
local function put(key, value, at)
  if at == '0' then redis.call('SET', key, value) else redis.call('SET', key, value, 'PXAT', at) end
end
put(KEYS[1], ARGV[3], ARGV[4])
for i = 2, #KEYS do put(KEYS[i], ARGV[2 * i + 1], ARGV[2 * i + 2]) end
return 1`;
const APPLY_SHA = createHash('sha1').update(APPLY).digest('hex');

const HASH = /^[0-9a-f]{64}$/;
const MAX_ATTEMPTS = 10;

class RedisKeys {
  constructor(readonly prefix: string) {
    if (!prefix) throw new Error('RedisKeyLookup: a non-empty key prefix is required');
  }
  record = (hash: string) => `${this.prefix}key:${hash}`;
  doc = (keyId: string) => `${this.prefix}keyid:${keyId}`;
  built = () => `${this.prefix}keylookup:built`;
}

async function readDoc(redis: Redis, key: string): Promise<KeyDoc | null> {
  const raw = await redis.get(key);
  return raw === null ? null : (JSON.parse(raw) as KeyDoc);
}

/** KeyLookup on Redis: one GET per lookup. Records are written only by RedisKeyLookupProjector. */
export class RedisKeyLookup implements KeyLookup {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    options: RedisKeyLookupOptions,
  ) {
    this.keys = new RedisKeys(options.prefix);
  }

  async find(keyHash: string): Promise<KeyRecord | null> {
    if (!HASH.test(keyHash)) return null;
    const raw = await this.redis.get(this.keys.record(keyHash));
    if (raw === null) return null;
    let stored: StoredRecord;
    try {
      stored = JSON.parse(raw) as StoredRecord;
    } catch {
      // A damaged record must never authenticate anyone.
      return null;
    }
    const { version: _v, ...record } = stored;
    return record;
  }

  /** Stream version this Redis reflects for the key (0: never seen). */
  async versionOf(keyId: string): Promise<number> {
    return (await readDoc(this.redis, this.keys.doc(keyId)))?.version ?? 0;
  }

  /** True once the key's records reflect stream `version`; false after `timeoutMs`. */
  async waitForVersion(keyId: string, version: number, timeoutMs = 5_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
      if ((await this.versionOf(keyId)) >= version) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/**
 * Feeds RedisKeyLookup from the keys context (bus group `keylookup`). Delivery is at-least-once and a
 * rebalance can hand a stream to two instances for a moment, so every write is absolute and guarded by the
 * stream version: applying an event twice, or an older one after a newer one, changes nothing, and a revoked
 * key can never come back.
 */
export class RedisKeyLookupProjector {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    options: RedisKeyLookupOptions,
  ) {
    this.keys = new RedisKeys(options.prefix);
  }

  /** Applies one event; true when it changed the lookup, false for a duplicate, older or foreign event. */
  async apply(event: StoredEvent): Promise<boolean> {
    if (streamCategory(event.streamId) !== APIKEY_CATEGORY) return false;
    const keyId = (event.data as { keyId?: unknown }).keyId;
    if (typeof keyId !== 'string') return false;
    const docKey = this.keys.doc(keyId);
    for (let attempt = 1; ; attempt++) {
      const doc = await readDoc(this.redis, docKey);
      const base = doc?.version ?? 0;
      if (base >= event.streamVersion) return false;
      const next = nextKeyDoc(doc, event);
      if (!next) return false;
      const records = recordsOf(next);
      const at = (ms: number | null) => (ms === null ? '0' : String(Math.max(1, Math.floor(ms))));
      const keys = [docKey, ...records.map((r) => this.keys.record(r.hash))];
      const args = [
        String(base),
        String(next.version),
        JSON.stringify(next),
        at(docExpireAt(next)),
        ...records.flatMap((r) => [JSON.stringify(r.record), at(r.expireAt)]),
      ];
      const outcome = await this.run(keys, args);
      if (outcome === 1) return true;
      if (outcome === 0) return false;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`key lookup document ${keyId} keeps changing under us`);
    }
  }

  /**
   * Subscribes to the keys context. Given the event store, it first rebuilds a Redis that was never built
   * (fresh, or flushed), since the consumer group's checkpoint would otherwise skip everything before it.
   */
  async start(bus: EventBus, store?: EventStore): Promise<Subscription> {
    if (store) await this.ensureBuilt(store);
    return bus.subscribe({ group: KEY_LOOKUP_GROUP, contexts: [APIKEY_CONTEXT] }, async (event) => {
      await this.apply(event);
    });
  }

  /** Rebuilds when this prefix has never been built; returns whether it did. */
  async ensureBuilt(store: EventStore): Promise<boolean> {
    if ((await this.redis.exists(this.keys.built())) === 1) return false;
    await this.rebuildFrom(store);
    return true;
  }

  /**
   * Replays every keys event from position 0. On a fresh prefix this builds exactly the live state; on a live
   * one it changes nothing (every event is already applied), so it is safe to run beside the live subscriber.
   */
  async rebuildFrom(store: EventStore, batchSize = 500): Promise<{ position: number; applied: number }> {
    let position = 0;
    let applied = 0;
    for (;;) {
      const batch = await store.readAll(position, batchSize);
      for (const event of batch) {
        if (await this.apply(event)) applied++;
        position = event.globalPosition;
      }
      if (batch.length < batchSize) break;
    }
    await this.redis.set(this.keys.built(), String(position));
    return { position, applied };
  }

  private async run(keys: string[], args: string[]): Promise<number> {
    try {
      return Number(await this.redis.evalsha(APPLY_SHA, keys.length, ...keys, ...args));
    } catch (err) {
      // First use on this server (or after SCRIPT FLUSH): EVAL runs the script and caches it for next time.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return Number(await this.redis.eval(APPLY, keys.length, ...keys, ...args));
    }
  }
}
