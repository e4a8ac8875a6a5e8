import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyRefusal, keyUsable } from '../../core/auth/key-lookup.js';
import { InProcessBus } from '../../core/bus/in-process-bus.js';
import { PostgresCheckpointStore } from '../../core/checkpoints/postgres-checkpoints.js';
import { openPostgres, type PgPool } from '../../core/db/postgres.js';
import type { StoredEvent } from '../../core/events/envelope.js';
import { PostgresEventStore } from '../../core/events/postgres-event-store.js';
import { EventSchemaRegistry } from '../../core/events/schema-registry.js';
import { newId } from '../../core/ids.js';
import { RedisKeyLookup, RedisKeyLookupProjector } from '../../projections/apikeys/redis-key-lookup.js';
import { ApiKeyCommands, apiKeyStream } from '../../services/apikeys/commands.js';
import { hashKey } from '../../services/apikeys/key.js';
import { createTestDatabase, stackEnv, uniqueName } from '../support/stack.js';

async function deletePrefixed(redis: Redis, prefix: string): Promise<void> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('RedisKeyLookup fed by RedisKeyLookupProjector (real Redis, PostgreSQL event store)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let pool: PgPool;
  let store: PostgresEventStore;
  let checkpoints: PostgresCheckpointStore;
  let redis: Redis;
  let prefixes: string[];
  let commands: ApiKeyCommands;
  const ada = newId();

  const open = () => {
    const prefix = `${uniqueName('tgkeys')}:`;
    prefixes.push(prefix);
    return {
      prefix,
      lookup: new RedisKeyLookup(redis, { prefix }),
      projector: new RedisKeyLookupProjector(redis, { prefix }),
    };
  };
  const eventsOf = (keyId: string): Promise<StoredEvent[]> => store.readStream(apiKeyStream(keyId));

  beforeAll(async () => {
    redis = new Redis(stackEnv().redisUrl);
  });
  afterAll(async () => {
    await redis?.quit();
  });
  beforeEach(async () => {
    database = await createTestDatabase();
    pool = openPostgres(database.url);
    store = await PostgresEventStore.open(pool, { schemas: EventSchemaRegistry.fromDirectory() });
    checkpoints = await PostgresCheckpointStore.open(pool);
    commands = new ApiKeyCommands(store);
    prefixes = [];
  });
  afterEach(async () => {
    for (const p of prefixes) await deletePrefixed(redis, p);
    await pool.end();
    await database.drop();
  });

  it('finds a new key, and reports it revoked within one second of the revocation’s append', async () => {
    const { lookup, projector } = open();
    const bus = new InProcessBus(store, checkpoints);
    const sub = await projector.start(bus, store);
    try {
      const k = await commands.create(ada, { name: 'live', scopes: ['captcha'] });
      const found = await until(
        () => lookup.find(hashKey(k.key)),
        (r) => r !== null,
      );
      expect(found).toEqual({
        keyId: k.keyId,
        accountId: ada,
        scopes: ['captcha'],
        expiresAt: null,
        revoked: false,
        validUntil: null,
      });
      expect(keyUsable(found!, new Date())).toBe(true);

      await commands.revoke(ada, k.keyId);
      const appended = performance.now();
      const revoked = await until(
        () => lookup.find(hashKey(k.key)),
        (r) => r?.revoked === true,
        1_000,
      );
      expect(performance.now() - appended).toBeLessThan(1_000);
      // Still found, so the gateway can say "revoked" rather than "unknown key".
      expect(keyRefusal(revoked!, new Date())).toBe('revoked');
      expect(await lookup.versionOf(k.keyId)).toBe(2);
    } finally {
      await sub.stop();
      await bus.close();
    }
  });

  it('ignores duplicate and out-of-order deliveries: a revoked key never comes back', async () => {
    const { lookup, projector } = open();
    const k = await commands.create(ada, { name: 'dup', scopes: ['*'] });
    const r = await commands.reroll(ada, k.keyId, 600);
    await commands.revoke(ada, k.keyId);
    const events = await eventsOf(k.keyId);
    expect(events.map((e) => e.streamVersion)).toEqual([1, 2, 3]);

    for (const e of events) expect(await projector.apply(e)).toBe(true);
    const settled = [await lookup.find(hashKey(k.key)), await lookup.find(hashKey(r.key))];
    expect(settled.map((x) => x?.revoked)).toEqual([true, true]);

    for (const e of [...events].reverse()) expect(await projector.apply(e)).toBe(false);
    expect(await projector.apply(events[0]!)).toBe(false);
    expect(await projector.apply(events[1]!)).toBe(false);
    expect([await lookup.find(hashKey(k.key)), await lookup.find(hashKey(r.key))]).toEqual(settled);

    // On a Redis that saw the revocation first (its earlier events lost), the late creation is refused as
    // well.
    const other = open();
    expect(await other.projector.apply(events[2]!)).toBe(true);
    expect(await other.projector.apply(events[0]!)).toBe(false);
    expect(await other.projector.apply(events[1]!)).toBe(false);
    expect(await other.lookup.find(hashKey(k.key))).toBeNull();
    expect(await other.lookup.find(hashKey(r.key))).toBeNull();
  });

  it('two projector instances applying one stream at once end where one alone would', async () => {
    const k = await commands.create(ada, { name: 'race', scopes: ['cron'] });
    const keys = [k.key];
    for (let i = 0; i < 5; i++) keys.push((await commands.reroll(ada, k.keyId, 300 - i * 60)).key);
    await commands.revoke(ada, k.keyId);
    const events = await eventsOf(k.keyId);

    const reference = open();
    for (const e of events) await reference.projector.apply(e);
    const shared = open();
    const second = new Redis(stackEnv().redisUrl);
    try {
      const twin = new RedisKeyLookupProjector(second, { prefix: shared.prefix });
      await Promise.all([
        (async () => {
          for (const e of events) await shared.projector.apply(e);
        })(),
        (async () => {
          for (const e of events) await twin.apply(e);
        })(),
      ]);
    } finally {
      await second.quit();
    }
    for (const key of keys) {
      const expected = await reference.lookup.find(hashKey(key));
      expect(expected?.revoked).toBe(true);
      expect(await shared.lookup.find(hashKey(key))).toEqual(expected);
    }
    expect(await shared.lookup.versionOf(k.keyId)).toBe(events.length);
  });

  it('keeps an old secret usable for exactly its overlap; overlap 0 ends them all', async () => {
    const { lookup, projector, prefix } = open();
    const k = await commands.create(ada, { name: 'roll', scopes: ['dns-checker'] });
    const r1 = await commands.reroll(ada, k.keyId, 60);
    for (const e of await eventsOf(k.keyId)) await projector.apply(e);

    const old = (await lookup.find(hashKey(k.key)))!;
    const current = (await lookup.find(hashKey(r1.key)))!;
    expect(old).toMatchObject({ keyId: k.keyId, validUntil: r1.previousValidUntil, revoked: false });
    expect(current).toMatchObject({ keyId: k.keyId, validUntil: null, scopes: ['dns-checker'] });
    const end = Date.parse(r1.previousValidUntil);
    expect(keyUsable(old, new Date(end - 1))).toBe(true);
    expect(keyRefusal(old, new Date(end))).toBe('rotated');
    expect(keyUsable(current, new Date(end + 3_600_000))).toBe(true);
    // The old record lingers a day past its overlap (answers "rotated", not "unknown"), then Redis drops it.
    const ttl = await redis.pttl(`${prefix}key:${hashKey(k.key)}`);
    expect(Math.abs(ttl - (end + 86_400_000 - Date.now()))).toBeLessThan(5_000);
    expect(await redis.pttl(`${prefix}key:${hashKey(r1.key)}`)).toBe(-1);

    const r2 = await commands.reroll(ada, k.keyId, 0);
    for (const e of await eventsOf(k.keyId)) await projector.apply(e);
    for (const key of [k.key, r1.key]) {
      const rec = (await lookup.find(hashKey(key)))!;
      expect(rec.validUntil).toBe(r2.previousValidUntil);
      expect(keyUsable(rec, new Date())).toBe(false);
    }
    expect(keyUsable((await lookup.find(hashKey(r2.key)))!, new Date())).toBe(true);
  });

  it('expires the records of an expiring key a day after it expires', async () => {
    const { lookup, projector, prefix } = open();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const k = await commands.create(ada, { name: 'temp', scopes: ['captcha'], expiresAt });
    for (const e of await eventsOf(k.keyId)) await projector.apply(e);
    expect(await lookup.find(hashKey(k.key))).toMatchObject({ expiresAt });
    const expected = Date.parse(expiresAt) + 86_400_000 - Date.now();
    for (const key of [`${prefix}key:${hashKey(k.key)}`, `${prefix}keyid:${k.keyId}`]) {
      expect(Math.abs((await redis.pttl(key)) - expected)).toBeLessThan(5_000);
    }
    expect(await lookup.find('not-a-hash')).toBeNull();
    expect(await lookup.find('0'.repeat(64))).toBeNull();
    await redis.set(`${prefix}key:${'1'.repeat(64)}`, '{damaged');
    expect(await lookup.find('1'.repeat(64))).toBeNull();
  });

  it('rebuilds a Redis that lost its data from the event store, once, then follows the bus', async () => {
    const { lookup, projector, prefix } = open();
    const keys: { keyId: string; key: string }[] = [];
    for (let i = 0; i < 4; i++) keys.push(await commands.create(ada, { name: `k${i}`, scopes: ['captcha'] }));
    const rolled = await commands.reroll(ada, keys[1]!.keyId, 600);
    await commands.revoke(ada, keys[2]!.keyId);

    let bus = new InProcessBus(store, checkpoints, { pollMs: 10 });
    let sub = await projector.start(bus);
    const hashes = [...keys.map((k) => hashKey(k.key)), hashKey(rolled.key)];
    try {
      await until(
        () => lookup.versionOf(keys[2]!.keyId),
        (v) => v === 2,
      );
      const before = await Promise.all(hashes.map((h) => lookup.find(h)));
      expect(before.every((r) => r !== null)).toBe(true);
      await sub.stop();
      await bus.close();

      // Redis loses everything; the consumer group's checkpoint is past every event, so only a rebuild helps.
      await deletePrefixed(redis, prefix);
      expect(await lookup.find(hashes[0]!)).toBeNull();
      bus = new InProcessBus(store, checkpoints, { pollMs: 10 });
      sub = await projector.start(bus, store);
      expect(await Promise.all(hashes.map((h) => lookup.find(h)))).toEqual(before);
      expect(await projector.ensureBuilt(store)).toBe(false);

      const late = await commands.create(ada, { name: 'late', scopes: ['captcha'] });
      await until(
        () => lookup.find(hashKey(late.key)),
        (r) => r !== null,
      );
    } finally {
      await sub.stop();
      await bus.close();
    }
  });
});
