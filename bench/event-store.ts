/**
 * Event store and bus benchmark: our adapters against the raw libraries, measured in the same run.
 *
 *   npm run -s bench:event-store            (BENCH_SCALE=0.2 for a quick run, 2 for a longer one)
 *
 * Needs PostgreSQL and Kafka (deploy/local/up.sh); BENCH_DATABASE_URL and BENCH_KAFKA_BROKERS override the
 * local defaults. Creates a throwaway database and `tgbench_…` topics and removes them at the end, also on
 * failure. Prints one markdown table; see BENCHMARKS.md for a recorded run.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import {
  type Consumer,
  Kafka,
  type LogEntry,
  logLevel,
  type Message,
  Partitioners,
  type Producer,
} from 'kafkajs';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { KafkaBus } from '../core/bus/kafka-bus.js';
import { Relay } from '../core/bus/relay.js';
import { PostgresCheckpointStore } from '../core/checkpoints/postgres-checkpoints.js';
import { openPostgres, type PgPool } from '../core/db/postgres.js';
import { openSqlite, type SqliteDatabase } from '../core/db/sqlite.js';
import type { NewEvent, StoredEvent } from '../core/events/envelope.js';
import { postgresEventStoreMigrations, sqliteEventStoreMigrations } from '../core/events/migrations.js';
import { PostgresEventStore } from '../core/events/postgres-event-store.js';
import { SqliteEventStore } from '../core/events/sqlite-event-store.js';
import { newId } from '../core/ids.js';
import {
  benchScale,
  Cleanup,
  compareAbba,
  latencySummary,
  machineFacts,
  type Row,
  renderTable,
  scaled,
  type Work,
  withTimeout,
} from './lib/bench.js';
import { LagTracker } from './lib/lag.js';

const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const KAFKA_BROKERS = (process.env.BENCH_KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

const SCALE = benchScale();
// About a minute at scale 1 on 2 cores; each side of every case runs for at least ~0.5 s.
const COUNTS = {
  sqliteAppends: scaled(20_000, SCALE, 2),
  sqliteBatches: scaled(2000, SCALE, 2),
  sqliteReadEvents: scaled(20_000, SCALE, 500),
  pgAppends: scaled(4000, SCALE, 16),
  pgReadEvents: scaled(20_000, SCALE, 500),
  kafkaEvents: scaled(50_000, SCALE, 400),
  kafkaPacedEvents: scaled(10_000, SCALE, 400),
  fullPathAppends: scaled(4000, SCALE, 16),
};
const BATCH = 10;
const READ_PAGE = 500;
const READ_PASSES = 10;
const KAFKA_BATCH = 200;
/** Offered load of the paced Kafka case: one batch of KAFKA_BATCH every KAFKA_BATCH / rate seconds. */
const KAFKA_PACED_RATE = 5000;
const KAFKA_PARTITIONS = 3;
const WRITERS_MANY = 8;
const DRAIN_TIMEOUT_MS = 120_000;
// The bus' production defaults (kafka-bus.ts), spelled out so that the raw consumer gets the very same ones.
const CONSUMER = {
  sessionTimeout: 30_000,
  rebalanceTimeout: 60_000,
  heartbeatInterval: 3000,
  maxWaitTimeInMs: 1000,
};

const progress = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};

// ------------------------------------------------------------------------------------------------ fixtures

const ACCOUNT = `acct_${randomBytes(6).toString('hex')}`;
let seq = 0;

/** A metering event of realistic size (~200 bytes of data and metadata). */
function callEvent(eventId?: string): NewEvent {
  const i = seq++;
  return {
    type: 'call.completed',
    accountId: ACCOUNT,
    data: {
      service: 'qr',
      method: 'GET',
      path: '/v1/qr/encode',
      status: 200,
      durationMs: 3 + (i % 97),
      units: 1,
      responseBytes: 1024 + (i % 4096),
    },
    metadata: { requestId: `req-${i}`, actor: ACCOUNT },
    ...(eventId === undefined ? {} : { eventId }),
  };
}

const callEvents = (n: number): NewEvent[] => Array.from({ length: n }, () => callEvent());

/** A fully numbered event for the bus cases, which publish without a store. */
function storedEvent(position: number, streams: number): StoredEvent {
  const e = callEvent();
  return {
    eventId: newId(),
    type: e.type,
    streamId: `test-bus${position % streams}`,
    streamVersion: Math.floor(position / streams) + 1,
    globalPosition: position,
    occurredAt: new Date().toISOString(),
    accountId: e.accountId ?? null,
    data: e.data,
    metadata: e.metadata ?? {},
  };
}

interface StreamSlot {
  readonly id: string;
  /** The stream's current version, i.e. the expected version of its next append. */
  version: number;
}

/** Round-robin over `count` fresh streams, each remembering its version. */
function streamCycle(label: string, count: number): () => StreamSlot {
  const slots: StreamSlot[] = Array.from({ length: count }, (_, k) => ({
    id: `test-${label}-${k}`,
    version: 0,
  }));
  let i = 0;
  return () => slots[i++ % count]!;
}

/** `writers` concurrent loops, each over its own streams; `count` appends in all per call. */
function writers(n: number, label: string, append: (slot: StreamSlot) => Promise<void>): Work {
  const cycles = Array.from({ length: n }, (_, w) => streamCycle(`${label}w${w}`, 50));
  return async (count) => {
    await Promise.all(
      cycles.map(async (next, w) => {
        const mine = Math.floor(count / n) + (w < count % n ? 1 : 0);
        for (let k = 0; k < mine; k++) await append(next());
      }),
    );
  };
}

const packageVersion = (name: string): string => {
  try {
    const url = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

// ------------------------------------------------------------------------------------------------ SQLite

/** Raw better-sqlite3 with the pragmas openSqlite sets that matter for speed. */
function openRawSqlite(file: string): SqliteDatabase {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  return db;
}

async function sqliteCases(cleanup: Cleanup, facts: string[]): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-'));
  cleanup.add('remove SQLite files', () => rmSync(dir, { recursive: true, force: true }));
  const oursDb = openSqlite(join(dir, 'ours.db'));
  cleanup.add('close ours.db', () => oursDb.close());
  const rawDb = openRawSqlite(join(dir, 'raw.db'));
  cleanup.add('close raw.db', () => rawDb.close());
  facts.push(
    `SQLite ${(oursDb.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v} (better-sqlite3 ${packageVersion('better-sqlite3')}), files in ${dir}`,
  );

  const store = new SqliteEventStore(oursDb);
  // The very same table as the store's (constraints and indexes included); the raw side ignores `streams`.
  rawDb.exec(sqliteEventStoreMigrations.map((m) => m.sql).join('\n'));
  const insert = rawDb.prepare(
    `INSERT INTO events (event_id, stream_id, stream_version, type, account_id, occurred_at, data, metadata)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const rawAppend = rawDb.transaction((slot: StreamSlot, events: readonly NewEvent[]) => {
    const occurredAt = new Date().toISOString();
    for (const e of events) {
      slot.version += 1;
      insert.run(
        uuidv7(),
        slot.id,
        slot.version,
        e.type,
        e.accountId ?? null,
        occurredAt,
        JSON.stringify(e.data),
        JSON.stringify(e.metadata ?? {}),
      );
    }
  });
  const oursAppends = (streams: number, size: number): Work => {
    const next = streamCycle(`s${size}`, streams);
    return async (count) => {
      for (let k = 0; k < count; k++) {
        const slot = next();
        const result = await store.append(slot.id, callEvents(size), slot.version);
        slot.version = result.nextExpectedVersion;
      }
    };
  };
  const rawAppends = (streams: number, size: number): Work => {
    const next = streamCycle(`s${size}`, streams);
    return async (count) => {
      for (let k = 0; k < count; k++) rawAppend.immediate(next(), callEvents(size));
    };
  };
  const rows: Row[] = [];

  progress(`SQLite: ${COUNTS.sqliteAppends} single-event appends`);
  const single = await compareAbba(oursAppends(1000, 1), rawAppends(1000, 1), COUNTS.sqliteAppends, 200);
  rows.push({
    case: 'SQLite append, 1 event per append',
    ops: COUNTS.sqliteAppends,
    seconds: single.ours,
    baselineSeconds: single.base,
    notes:
      'appends/s; 1,000 streams, exact expected version; raw: one INSERT in BEGIN IMMEDIATE (WAL, synchronous=NORMAL)',
  });

  progress(`SQLite: ${COUNTS.sqliteBatches} appends of ${BATCH} events`);
  const batched = await compareAbba(
    oursAppends(100, BATCH),
    rawAppends(100, BATCH),
    COUNTS.sqliteBatches,
    20,
  );
  rows.push({
    case: `SQLite append, batches of ${BATCH}`,
    ops: COUNTS.sqliteBatches * BATCH,
    seconds: batched.ours,
    baselineSeconds: batched.base,
    notes: `events/s; ${COUNTS.sqliteBatches} appends over 100 streams; raw: ${BATCH} INSERTs in one transaction`,
  });

  progress(`SQLite: readAll over ${COUNTS.sqliteReadEvents} events`);
  const readFile = join(dir, 'read.db');
  const readDb = openSqlite(readFile);
  cleanup.add('close read.db', () => readDb.close());
  const readStore = new SqliteEventStore(readDb);
  for (let b = 0; b < COUNTS.sqliteReadEvents / 100; b++) {
    await readStore.append(`test-read-${b % 200}`, callEvents(100), 'any');
  }
  const rawReadDb = openRawSqlite(readFile);
  cleanup.add('close read.db (raw)', () => rawReadDb.close());
  const select = rawReadDb.prepare<[number, number], Record<string, unknown>>(
    'SELECT * FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?',
  );
  const expectRead = (n: number) => {
    if (n !== COUNTS.sqliteReadEvents)
      throw new Error(`SQLite read ${n} events, expected ${COUNTS.sqliteReadEvents}`);
  };
  const oursRead: Work = async (passes) => {
    for (let p = 0; p < passes; p++) {
      let position = 0;
      let n = 0;
      for (;;) {
        const page = await readStore.readAll(position, READ_PAGE);
        if (page.length === 0) break;
        n += page.length;
        position = page.at(-1)!.globalPosition;
      }
      expectRead(n);
    }
  };
  const rawRead: Work = async (passes) => {
    for (let p = 0; p < passes; p++) {
      let position = 0;
      let n = 0;
      for (;;) {
        const page = select.all(position, READ_PAGE);
        if (page.length === 0) break;
        for (const r of page) {
          r.data = JSON.parse(r.data as string);
          r.metadata = JSON.parse(r.metadata as string);
        }
        n += page.length;
        position = page.at(-1)!.global_position as number;
      }
      expectRead(n);
    }
  };
  const read = await compareAbba(oursRead, rawRead, READ_PASSES, 1);
  rows.push({
    case: `SQLite readAll, pages of ${READ_PAGE}`,
    ops: READ_PASSES * COUNTS.sqliteReadEvents,
    seconds: read.ours,
    baselineSeconds: read.base,
    notes: `events/s; ${READ_PASSES} passes over ${COUNTS.sqliteReadEvents.toLocaleString('en-US')} events; raw: same SELECT, JSON.parse of data and metadata`,
  });
  return rows;
}

// ------------------------------------------------------------------------------------------------ PostgreSQL

interface PgFixture {
  readonly oursPool: PgPool;
  readonly rawPool: pg.Pool;
  readonly store: PostgresEventStore;
}

/** A throwaway database (dropped by cleanup) with the store's tables in `public` and a copy in `raw`. */
async function openPg(cleanup: Cleanup, facts: string[]): Promise<PgFixture> {
  const name = `tg_bench_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    facts.push(
      `PostgreSQL: ${(await admin.query<{ v: string }>('SELECT version() AS v')).rows[0]?.v ?? '?'}`,
    );
    const settings = await admin.query<{ name: string; setting: string }>(
      "SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name IN ('synchronous_commit', 'fsync', 'shared_buffers', 'max_connections') ORDER BY name",
    );
    facts.push(`PostgreSQL settings: ${settings.rows.map((r) => `${r.name}=${r.setting}`).join(', ')}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  cleanup.add(`drop database ${name}`, async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  // Both pools at the production size (openPostgres' default of 10).
  const oursPool = openPostgres(url.toString());
  cleanup.add('end ours pool', () => oursPool.end());
  const rawPool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  rawPool.on('error', () => {});
  cleanup.add('end raw pool', () => rawPool.end());
  const store = await PostgresEventStore.open(oursPool);
  const client = await rawPool.connect();
  try {
    await client.query('CREATE SCHEMA raw; SET search_path = raw');
    await client.query(postgresEventStoreMigrations.map((m) => m.sql).join('\n'));
    await client.query('RESET search_path');
  } finally {
    client.release();
  }
  return { oursPool, rawPool, store };
}

const RAW_INSERT = `INSERT INTO raw.tg_events
  (global_position, event_id, stream_id, stream_version, type, account_id, occurred_at, data, metadata)
  VALUES (nextval('raw.tg_global_position'), $1, $2, $3, $4, $5, $6, $7, $8)`;
const RAW_LOCK = "SELECT pg_advisory_xact_lock(hashtext('toolgate:bench:raw-lock'))";

/** BEGIN; [advisory lock;] INSERT one row; COMMIT: the least a transactional single-event append can do. */
async function rawPgAppend(pool: pg.Pool, slot: StreamSlot, event: NewEvent, lock: boolean): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (lock) await client.query(RAW_LOCK);
    await client.query(RAW_INSERT, [
      event.eventId ?? uuidv7(),
      slot.id,
      slot.version + 1,
      event.type,
      event.accountId ?? null,
      new Date().toISOString(),
      JSON.stringify(event.data),
      JSON.stringify(event.metadata ?? {}),
    ]);
    await client.query('COMMIT');
    slot.version += 1;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

async function postgresCases(fx: PgFixture): Promise<Row[]> {
  const { store, rawPool } = fx;
  const rows: Row[] = [];
  const oursWriters = (n: number, label: string): Work =>
    writers(n, label, async (slot) => {
      const result = await store.append(slot.id, [callEvent()], slot.version);
      slot.version = result.nextExpectedVersion;
    });
  const rawWriters = (n: number, label: string, lock: boolean): Work =>
    writers(n, label, (slot) => rawPgAppend(rawPool, slot, callEvent(), lock));

  for (const n of [1, WRITERS_MANY]) {
    progress(`PostgreSQL: ${COUNTS.pgAppends} single-event appends from ${n} writer(s)`);
    const r = await compareAbba(
      oursWriters(n, `n${n}`),
      rawWriters(n, `n${n}`, false),
      COUNTS.pgAppends,
      100,
    );
    rows.push({
      case: `PG append, 1 event, ${n} concurrent writer${n === 1 ? '' : 's'}`,
      ops: COUNTS.pgAppends,
      seconds: r.ours,
      baselineSeconds: r.base,
      notes: `appends/s; each writer its own 50 streams, exact expected version; raw: BEGIN/INSERT/COMMIT from ${n} client${n === 1 ? '' : 's'}`,
    });
  }

  progress(`PostgreSQL: the advisory lock alone, ${WRITERS_MANY} raw writers`);
  const lock = await compareAbba(
    rawWriters(WRITERS_MANY, 'lock', true),
    rawWriters(WRITERS_MANY, 'nolock', false),
    COUNTS.pgAppends,
    100,
  );
  rows.push({
    case: `PG raw append + advisory xact lock, ${WRITERS_MANY} writers`,
    ops: COUNTS.pgAppends,
    seconds: lock.ours,
    baselineSeconds: lock.base,
    notes: `appends/s; not our code: raw BEGIN/lock/INSERT/COMMIT vs BEGIN/INSERT/COMMIT, isolates what serializing commits costs`,
  });

  progress(`PostgreSQL: readAll over ${COUNTS.pgReadEvents} events`);
  const start = await store.headPosition();
  for (let b = 0; b < COUNTS.pgReadEvents / 100; b++) {
    await store.append(`test-read-${b % 200}`, callEvents(100), 'any');
  }
  const expectRead = (n: number) => {
    if (n !== COUNTS.pgReadEvents) throw new Error(`PG read ${n} events, expected ${COUNTS.pgReadEvents}`);
  };
  const oursRead: Work = async (passes) => {
    for (let p = 0; p < passes; p++) {
      let position = start;
      let n = 0;
      for (;;) {
        const page = await store.readAll(position, READ_PAGE);
        if (page.length === 0) break;
        n += page.length;
        position = page.at(-1)!.globalPosition;
      }
      expectRead(n);
    }
  };
  const rawRead: Work = async (passes) => {
    for (let p = 0; p < passes; p++) {
      let position = start;
      let n = 0;
      for (;;) {
        const { rows: page } = await rawPool.query<{ global_position: number }>(
          'SELECT * FROM public.tg_events WHERE global_position > $1 ORDER BY global_position LIMIT $2',
          [position, READ_PAGE],
        );
        if (page.length === 0) break;
        n += page.length;
        position = page.at(-1)!.global_position;
      }
      expectRead(n);
    }
  };
  const read = await compareAbba(oursRead, rawRead, READ_PASSES, 1);
  rows.push({
    case: `PG readAll, pages of ${READ_PAGE}`,
    ops: READ_PASSES * COUNTS.pgReadEvents,
    seconds: read.ours,
    baselineSeconds: read.base,
    notes: `events/s; ${READ_PASSES} passes over ${COUNTS.pgReadEvents.toLocaleString('en-US')} events; raw: same SELECT via pg (which parses the jsonb itself)`,
  });
  return rows;
}

// ------------------------------------------------------------------------------------------------ Kafka

const kafkaLog =
  () =>
  ({ namespace, log }: LogEntry): void => {
    progress(`kafkajs ${namespace}: ${log.message}`);
  };

/** Deletes every consumer group and topic of this run. */
async function dropKafkaPrefix(prefix: string): Promise<void> {
  const admin = new Kafka({
    clientId: 'tg-bench-cleanup',
    brokers: KAFKA_BROKERS,
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const mine = groups.map((g) => g.groupId).filter((id) => id.startsWith(prefix));
    if (mine.length > 0) await admin.deleteGroups(mine);
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/** The same record KafkaBus.publish writes. */
const toMessage = (event: StoredEvent): Message => ({
  key: event.streamId,
  value: JSON.stringify(event),
  headers: { eventId: event.eventId, type: event.type },
});

interface RawKafka {
  readonly kafka: Kafka;
  readonly producer: Producer;
  createTopic(topic: string): Promise<void>;
  /** A consumer of `topic` in a new group that hands every event id to `onEvent`. */
  consume(topic: string, group: string, onEvent: (eventId: string) => void): Promise<Consumer>;
}

async function openRawKafka(cleanup: Cleanup): Promise<RawKafka> {
  const kafka = new Kafka({
    clientId: 'tg-bench-raw',
    brokers: KAFKA_BROKERS,
    logLevel: logLevel.ERROR,
    logCreator: kafkaLog,
  });
  const admin = kafka.admin();
  await admin.connect();
  cleanup.add('disconnect raw admin', () => admin.disconnect());
  // The bus' producer settings: idempotent, one request in flight, murmur2 partitioning.
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  cleanup.add('disconnect raw producer', () => producer.disconnect());
  return {
    kafka,
    producer,
    createTopic: async (topic) => {
      await admin.createTopics({
        topics: [{ topic, numPartitions: KAFKA_PARTITIONS, replicationFactor: 1 }],
        waitForLeaders: true,
      });
    },
    consume: async (topic, group, onEvent) => {
      const consumer = kafka.consumer({ groupId: group, allowAutoTopicCreation: false, ...CONSUMER });
      cleanup.add(`disconnect raw consumer ${group}`, () => consumer.disconnect());
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        eachBatch: async ({ batch }) => {
          for (const message of batch.messages) {
            if (!message.value) continue;
            onEvent((JSON.parse(message.value.toString('utf8')) as StoredEvent).eventId);
          }
        },
      });
      return consumer;
    },
  };
}

async function openBus(prefix: string, cleanup: Cleanup): Promise<KafkaBus> {
  const bus = await KafkaBus.open({
    brokers: KAFKA_BROKERS,
    clientId: 'tg-bench',
    topicPrefix: prefix,
    partitions: KAFKA_PARTITIONS,
    replicationFactor: 1,
    contexts: ['test'],
    logLevel: 'error',
    onLog: (entry) => progress(`KafkaBus ${entry.level}: ${entry.message}`),
  });
  cleanup.add(`close bus ${prefix}`, () => bus.close());
  return bus;
}

/**
 * Publishes `count` events in batches of KAFKA_BATCH, one batch after the other (as the relay does), and waits
 * until the subscriber has them all. With `rate` (events/s) each batch starts on a fixed schedule instead of
 * right after the previous one was acknowledged.
 */
function publisher(
  tracker: LagTracker,
  publish: (batch: StoredEvent[]) => Promise<void>,
  rate?: number,
): Work {
  let position = 0;
  return async (count) => {
    const batches: StoredEvent[][] = [];
    for (let off = 0; off < count; off += KAFKA_BATCH) {
      batches.push(
        Array.from({ length: Math.min(KAFKA_BATCH, count - off) }, () => storedEvent(++position, 100)),
      );
    }
    const t0 = performance.now();
    for (const [k, batch] of batches.entries()) {
      if (rate !== undefined) {
        const wait = t0 + (k * KAFKA_BATCH * 1000) / rate - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      tracker.sent(batch.map((e) => e.eventId));
      await publish(batch);
    }
    await withTimeout('Kafka delivery', DRAIN_TIMEOUT_MS, tracker.drained());
  };
}

async function kafkaCases(prefix: string, raw: RawKafka, cleanup: Cleanup): Promise<Row[]> {
  progress(`Kafka: ${COUNTS.kafkaEvents} events through KafkaBus and through raw kafkajs`);
  const bus = await openBus(`${prefix}bus.`, cleanup);
  const oursTracker = new LagTracker();
  const sub = await bus.subscribe({ group: 'sub' }, async (event) => oursTracker.received(event.eventId));
  cleanup.add('stop bus subscription', () => sub.stop());

  const rawTopic = `${prefix}raw.test`;
  await raw.createTopic(rawTopic);
  const rawTracker = new LagTracker();
  await raw.consume(rawTopic, `${prefix}raw.sub`, (id) => rawTracker.received(id));

  const oursPublish = (batch: StoredEvent[]) => bus.publish(batch);
  const rawPublish = async (batch: StoredEvent[]) => {
    await raw.producer.send({ topic: rawTopic, messages: batch.map(toMessage), acks: -1 });
  };
  const ours = publisher(oursTracker, oursPublish);
  const base = publisher(rawTracker, rawPublish);
  // The warm-up also waits out both consumers' first partition assignment.
  await ours(1000);
  await base(1000);
  oursTracker.take();
  rawTracker.take();
  const r = await compareAbba(ours, base, COUNTS.kafkaEvents, 0);
  const rows: Row[] = [
    {
      case: 'Kafka publish → subscriber via KafkaBus, back to back',
      ops: COUNTS.kafkaEvents,
      seconds: r.ours,
      baselineSeconds: r.base,
      notes: `events/s, first publish to last receipt; batches of ${KAFKA_BATCH}, each sent when the previous was acknowledged, ${KAFKA_PARTITIONS} partitions, 1 subscriber; lag ms p50/p95/p99 ours ${latencySummary(oursTracker.take().lagsMs)}, raw ${latencySummary(rawTracker.take().lagsMs)} (includes the backlog of a saturated consumer); raw: kafkajs producer (idempotent, acks -1, 1 in flight) + eachBatch consumer`,
    },
  ];

  progress(`Kafka: ${COUNTS.kafkaPacedEvents} events paced at ${KAFKA_PACED_RATE}/s`);
  const paced = await compareAbba(
    publisher(oursTracker, oursPublish, KAFKA_PACED_RATE),
    publisher(rawTracker, rawPublish, KAFKA_PACED_RATE),
    COUNTS.kafkaPacedEvents,
    0,
  );
  rows.push({
    case: `Kafka publish → subscriber via KafkaBus, paced at ${KAFKA_PACED_RATE.toLocaleString('en-US')} events/s`,
    ops: COUNTS.kafkaPacedEvents,
    seconds: paced.ours,
    baselineSeconds: paced.base,
    notes: `events/s is the offered load, so the ratio only says whether both keep up; the point is the lag: ms p50/p95/p99 ours ${latencySummary(oursTracker.take().lagsMs)}, raw ${latencySummary(rawTracker.take().lagsMs)}; a batch of ${KAFKA_BATCH} every ${(KAFKA_BATCH * 1000) / KAFKA_PACED_RATE} ms`,
  });
  return rows;
}

interface PgRow {
  global_position: number;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  account_id: string | null;
  occurred_at: Date;
  data: unknown;
  metadata: Record<string, string>;
}

/**
 * The raw counterpart of the relay: polls raw.tg_events by position, publishes, stores its position. Writers
 * commit out of position order without a lock, so it publishes only the gap-free prefix of what it reads and
 * waits for the gap to fill (correct here only because no insert in this run ever rolls back).
 */
async function rawRelay(
  pool: pg.Pool,
  producer: Producer,
  topic: string,
): Promise<{ stop: () => Promise<void>; errors: unknown[] }> {
  let stopped = false;
  let wake: (() => void) | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const errors: unknown[] = [];
  await pool.query('CREATE TABLE raw.checkpoints (name TEXT PRIMARY KEY, position BIGINT NOT NULL)');
  const head = await pool.query<{ head: number }>(
    'SELECT coalesce(max(global_position), 0)::bigint AS head FROM raw.tg_events',
  );
  let position = head.rows[0]?.head ?? 0;
  await pool.query("INSERT INTO raw.checkpoints VALUES ('relay', $1)", [position]);
  const once = async (): Promise<number> => {
    const { rows } = await pool.query<PgRow>(
      'SELECT * FROM raw.tg_events WHERE global_position > $1 ORDER BY global_position LIMIT $2',
      [position, KAFKA_BATCH],
    );
    let k = 0;
    while (k < rows.length && rows[k]!.global_position === position + k + 1) k++;
    if (k > 0) {
      const batch = rows.slice(0, k);
      await producer.send({
        topic,
        acks: -1,
        messages: batch.map((r) =>
          toMessage({
            eventId: r.event_id,
            type: r.type,
            streamId: r.stream_id,
            streamVersion: r.stream_version,
            globalPosition: r.global_position,
            occurredAt: r.occurred_at.toISOString(),
            accountId: r.account_id,
            data: r.data,
            metadata: r.metadata,
          }),
        ),
      });
      position = batch.at(-1)!.global_position;
      await pool.query("UPDATE raw.checkpoints SET position = $1 WHERE name = 'relay'", [position]);
    }
    return k;
  };
  const running = (async () => {
    while (!stopped) {
      try {
        if ((await once()) < KAFKA_BATCH) await pause(100);
      } catch (err) {
        errors.push(err);
        progress(`raw relay error: ${err instanceof Error ? err.message : String(err)}`);
        await pause(1000);
      }
    }
  })();
  return {
    errors,
    stop: async () => {
      stopped = true;
      wake?.();
      await running;
    },
  };
}

async function fullPathCase(fx: PgFixture, prefix: string, raw: RawKafka, cleanup: Cleanup): Promise<Row> {
  progress(
    `Full path: ${COUNTS.fullPathAppends} appends from ${WRITERS_MANY} writers → relay → Kafka → subscriber`,
  );
  const { store, oursPool, rawPool } = fx;
  const bus = await openBus(`${prefix}relay.`, cleanup);
  const oursTracker = new LagTracker();
  const sub = await bus.subscribe({ group: 'sub' }, async (event) => oursTracker.received(event.eventId));
  cleanup.add('stop relay subscription', () => sub.stop());
  const checkpoints = await PostgresCheckpointStore.open(oursPool);
  await checkpoints.save('bench-relay', await store.headPosition());
  const relayErrors: unknown[] = [];
  const relay = new Relay({
    store,
    bus,
    checkpoints,
    checkpointName: 'bench-relay',
    onError: (err) => {
      relayErrors.push(err);
      progress(`relay error: ${err instanceof Error ? err.message : String(err)}`);
    },
  });
  relay.start();
  cleanup.add('stop relay', () => relay.stop());

  const rawTopic = `${prefix}rawrelay.test`;
  await raw.createTopic(rawTopic);
  const rawTracker = new LagTracker();
  await raw.consume(rawTopic, `${prefix}rawrelay.sub`, (id) => rawTracker.received(id));
  const poller = await rawRelay(rawPool, raw.producer, rawTopic);
  cleanup.add('stop raw relay', () => poller.stop());

  const drainAfter =
    (work: Work, tracker: LagTracker): Work =>
    async (count) => {
      await work(count);
      await withTimeout('full-path delivery', DRAIN_TIMEOUT_MS, tracker.drained());
    };
  const ours = drainAfter(
    writers(WRITERS_MANY, 'fp', async (slot) => {
      const eventId = newId();
      oursTracker.sent([eventId]);
      const result = await store.append(slot.id, [callEvent(eventId)], slot.version);
      slot.version = result.nextExpectedVersion;
    }),
    oursTracker,
  );
  const base = drainAfter(
    writers(WRITERS_MANY, 'fp', async (slot) => {
      const eventId = uuidv7();
      rawTracker.sent([eventId]);
      await rawPgAppend(rawPool, slot, callEvent(eventId), false);
    }),
    rawTracker,
  );
  await ours(100);
  await base(100);
  oursTracker.take();
  rawTracker.take();
  const r = await compareAbba(ours, base, COUNTS.fullPathAppends, 0);
  if (relayErrors.length > 0) throw new Error(`the relay failed ${relayErrors.length} time(s)`);
  if (poller.errors.length > 0) throw new Error(`the raw relay failed ${poller.errors.length} time(s)`);
  return {
    case: `Full path: PG store → Relay → KafkaBus → subscriber, ${WRITERS_MANY} writers`,
    ops: COUNTS.fullPathAppends,
    seconds: r.ours,
    baselineSeconds: r.base,
    notes: `events/s, first append to last receipt; lag (append call → handler) ms p50/p95/p99 ours ${latencySummary(oursTracker.take().lagsMs)}, raw ${latencySummary(rawTracker.take().lagsMs)}; raw: BEGIN/INSERT/COMMIT + gap-waiting poller + kafkajs; both poll every 100 ms, batches ≤ ${KAFKA_BATCH}`,
  };
}

// ------------------------------------------------------------------------------------------------ main

async function main(): Promise<number> {
  const cleanup = new Cleanup();
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    progress('interrupted: cleaning up');
    void cleanup.run().finally(() => process.exit(130));
  });
  const facts = [
    `date: ${new Date().toISOString()}`,
    `command: cd ${process.cwd()} && ${SCALE === 1 ? '' : `BENCH_SCALE=${SCALE} `}npm run -s bench:event-store`,
    ...machineFacts(),
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `kafkajs ${packageVersion('kafkajs')}, pg ${packageVersion('pg')}; Kafka brokers ${KAFKA_BROKERS.join(',')}`,
  ];
  const rows: Row[] = [];
  let failed = false;
  const t0 = Date.now();
  try {
    rows.push(...(await sqliteCases(cleanup, facts)));
    const fx = await openPg(cleanup, facts);
    rows.push(...(await postgresCases(fx)));
    const prefix = `tgbench_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}.`;
    cleanup.add('delete Kafka topics and groups', () => dropKafkaPrefix(prefix));
    const raw = await openRawKafka(cleanup);
    rows.push(...(await kafkaCases(prefix, raw, cleanup)));
    rows.push(await fullPathCase(fx, prefix, raw, cleanup));
  } catch (err) {
    failed = true;
    process.stderr.write(
      `benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  const measured = (Date.now() - t0) / 1000;
  const cleanupFailures = interrupted ? [] : await cleanup.run();
  for (const f of cleanupFailures) process.stderr.write(`cleanup failed: ${f}\n`);
  if (rows.length > 0) {
    const out = [
      '## Event store and bus (bench/event-store.ts)',
      '',
      ...facts.map((f) => `- ${f}`),
      `- total run: ${measured.toFixed(0)} s${failed ? ' (FAILED: the table is incomplete)' : ''}`,
      '',
      renderTable(rows),
      '',
    ];
    process.stdout.write(out.join('\n'));
  }
  return failed || cleanupFailures.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`benchmark crashed: ${String(err)}\n`);
    process.exit(1);
  },
);
