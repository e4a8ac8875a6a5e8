import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BlobStore } from '../core/blob/blob.js';
import { FileBlobStore } from '../core/blob/file-blob.js';
import { PostgresBlobStore } from '../core/blob/postgres-blob.js';
import type { EventBus } from '../core/bus/bus.js';
import { InProcessBus } from '../core/bus/in-process-bus.js';
import { KafkaBus } from '../core/bus/kafka-bus.js';
import { PostgresLeaderLock } from '../core/bus/leader-lock.js';
import { Relay } from '../core/bus/relay.js';
import type { CheckpointStore } from '../core/checkpoints/checkpoints.js';
import { PostgresCheckpointStore } from '../core/checkpoints/postgres-checkpoints.js';
import { SqliteCheckpointStore } from '../core/checkpoints/sqlite-checkpoints.js';
import type { Config } from '../core/config/config.js';
import { openPostgres, type PgPool } from '../core/db/postgres.js';
import { openSqlite, type SqliteDatabase } from '../core/db/sqlite.js';
import type { EventStore } from '../core/events/event-store.js';
import { PostgresEventStore } from '../core/events/postgres-event-store.js';
import { EventSchemaRegistry } from '../core/events/schema-registry.js';
import { SqliteEventStore } from '../core/events/sqlite-event-store.js';
import { checkHealth, type HealthCheck, type HealthReport } from '../core/health.js';
import type { KvStore } from '../core/kv/kv.js';
import { RedisKvStore } from '../core/kv/redis-kv.js';
import { SqliteKvStore } from '../core/kv/sqlite-kv.js';
import { ProjectionRunner } from '../core/projections/runner.js';
import { PostgresSqlDb } from '../core/sql/postgres-sql-db.js';
import type { SqlDb } from '../core/sql/sql-db.js';
import { SqliteSqlDb } from '../core/sql/sqlite-sql-db.js';
import { accountsProjection } from '../projections/accounts/projection.js';
import { AccountsReader } from '../projections/accounts/reader.js';
import { apiKeysProjection } from '../projections/apikeys/projection.js';
import { ipReputationProjection } from '../projections/ip-reputation/projection.js';
import { AccountCommands } from '../services/accounts/commands.js';

/** Every read model the platform builds; `toolgate projections rebuild NAME` takes one of these names. */
export const PROJECTIONS = [accountsProjection, apiKeysProjection, ipReputationProjection];

/** The ports of one process, wired for its profile. The composition root: nothing else picks adapters. */
export interface Runtime {
  readonly config: Config;
  readonly store: EventStore;
  readonly bus: EventBus;
  readonly checkpoints: CheckpointStore;
  readonly readModels: SqlDb;
  readonly kv: KvStore;
  readonly blobs: BlobStore;
  readonly projections: ProjectionRunner;
  /** Cluster only: the outbox relay from the event store to Kafka. */
  readonly relay: Relay | null;
  /** Cluster only: the shared clients, for the adapters the platform adds on top (limits, usage, key lookup). */
  readonly clients: {
    readonly pool: PgPool;
    readonly redis: Redis;
    readonly clickhouse: ClickHouseClient;
  } | null;
  readonly accounts: { readonly commands: AccountCommands; readonly reader: AccountsReader };
  health(): Promise<HealthReport>;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, logger: Logger): Promise<Runtime> {
  const schemas = EventSchemaRegistry.fromDirectory();
  return config.cluster ? openCluster(config, logger, schemas) : openEmbedded(config, logger, schemas);
}

async function openEmbedded(config: Config, logger: Logger, schemas: EventSchemaRegistry): Promise<Runtime> {
  mkdirSync(config.dataDir, { recursive: true });
  // Separate files: a read-model transaction awaiting between statements must never hold the event log.
  const eventsDb = openSqlite(join(config.dataDir, 'events.db'));
  const readDb = openSqlite(join(config.dataDir, 'readmodels.db'));
  const kvDb = openSqlite(join(config.dataDir, 'kv.db'));
  const sqlite: SqliteDatabase[] = [eventsDb, readDb, kvDb];

  const inner = new SqliteEventStore(eventsDb, { schemas });
  const checkpoints = new SqliteCheckpointStore(eventsDb);
  const bus = new InProcessBus(inner, checkpoints);
  const store = wakeOnAppend(inner, bus);
  const readModels = new SqliteSqlDb(readDb);
  const kv = new SqliteKvStore(kvDb);
  const blobs = new FileBlobStore(join(config.dataDir, 'blobs'));
  const projections = newRunner(readModels, store, bus, logger);

  return assemble({
    config,
    store,
    bus,
    checkpoints,
    readModels,
    kv,
    blobs,
    projections,
    relay: null,
    clients: null,
    checks: {
      eventStore: async () => ({ adapter: 'sqlite', head: await store.headPosition() }),
      readModels: async () => ({ adapter: 'sqlite', ...(await probe(readModels)) }),
      kv: async () => ({ adapter: 'sqlite', ...(await kvProbe(kv)) }),
      bus: async () => ({ adapter: 'in-process', ...(await bus.health()) }),
    },
    close: async () => {
      await bus.close();
      for (const db of sqlite) db.close();
    },
  });
}

async function openCluster(config: Config, logger: Logger, schemas: EventSchemaRegistry): Promise<Runtime> {
  const cluster = config.cluster!;
  const pool: PgPool = openPostgres(cluster.databaseUrl);
  const redis = new Redis(cluster.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  redis.on('error', (err) => logger.warn({ err: { message: err.message } }, 'redis connection error'));
  // The client's own console logger is off: failures surface through /readyz and our logger instead.
  const clickhouse: ClickHouseClient = createClient({
    url: cluster.clickhouseUrl,
    log: { level: ClickHouseLogLevel.OFF },
  });
  const store = await PostgresEventStore.open(pool, { schemas });
  const checkpoints = await PostgresCheckpointStore.open(pool);
  const bus = await KafkaBus.open({
    brokers: cluster.kafkaBrokers,
    clientId: 'toolgate',
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    partitions: config.KAFKA_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION,
    onLog: (entry) =>
      logger[entry.level === 'debug' ? 'debug' : entry.level]({ kafka: entry.detail }, entry.message),
  });
  const readModels = new PostgresSqlDb(pool);
  const kv = new RedisKvStore(redis, { prefix: `${config.REDIS_PREFIX}kv:` });
  const blobs = await PostgresBlobStore.open(pool);
  const projections = newRunner(readModels, store, bus, logger);
  const relay = new Relay({
    store,
    bus,
    checkpoints,
    leader: new PostgresLeaderLock(pool, 'toolgate:relay'),
    onError: (err) => logger.error({ err: errorSummary(err) }, 'relay batch failed; retrying'),
  });

  return assemble({
    config,
    store,
    bus,
    checkpoints,
    readModels,
    kv,
    blobs,
    projections,
    relay,
    clients: { pool, redis, clickhouse },
    checks: {
      eventStore: async () => ({ adapter: 'postgres', head: await store.headPosition() }),
      readModels: async () => ({ adapter: 'postgres', ...(await probe(readModels)) }),
      kv: async () => ({ adapter: 'redis', ...(await kvProbe(kv)) }),
      bus: async () => ({ adapter: 'kafka', ...(await bus.health()) }),
      relay: async () => ({ lag: await relay.lag() }),
      clickhouse: async () => {
        const ping = await clickhouse.ping();
        if (!ping.success) throw ping.error;
        return { adapter: 'clickhouse' };
      },
    },
    close: async () => {
      await relay.stop();
      await bus.close();
      await clickhouse.close();
      redis.disconnect();
      await pool.end();
    },
  });
}

interface Parts extends Omit<Runtime, 'accounts' | 'health' | 'close'> {
  readonly checks: Record<string, HealthCheck>;
  close(): Promise<void>;
}

function assemble(parts: Parts): Runtime {
  const { checks, close, ...ports } = parts;
  let closing: Promise<void> | null = null;
  return {
    ...ports,
    accounts: { commands: new AccountCommands(ports.store), reader: new AccountsReader(ports.readModels) },
    health: () =>
      checkHealth({
        ...checks,
        projections: async () => {
          const status = await ports.projections.status();
          return Object.fromEntries(status.map((s) => [s.name, { lag: s.lag, generation: s.generation }]));
        },
      }),
    close: () => {
      closing ??= (async () => {
        await ports.projections.stop();
        await ports.relay?.stop();
        await close();
      })();
      return closing;
    },
  };
}

function newRunner(db: SqlDb, store: EventStore, bus: EventBus, logger: Logger): ProjectionRunner {
  return new ProjectionRunner({
    db,
    store,
    bus,
    projections: PROJECTIONS,
    onError: (projection, event, err) =>
      logger.error(
        { projection, eventId: event.eventId, type: event.type, err: errorSummary(err) },
        'projection handler failed; the event will be retried',
      ),
  });
}

/** Embedded: subscribers are woken by appends in this process instead of waiting for their next poll. */
function wakeOnAppend(store: EventStore, bus: InProcessBus): EventStore {
  return {
    append: async (...args) => {
      const result = await store.append(...args);
      bus.wake();
      return result;
    },
    readStream: (...args) => store.readStream(...args),
    readAll: (...args) => store.readAll(...args),
    headPosition: () => store.headPosition(),
    deleteStream: (...args) => store.deleteStream(...args),
    close: () => store.close(),
  };
}

async function probe(db: SqlDb): Promise<Record<string, unknown>> {
  await db.query('SELECT 1 AS ok');
  return {};
}

async function kvProbe(kv: KvStore): Promise<Record<string, unknown>> {
  await kv.set('health:probe', String(Date.now()), 10_000);
  if ((await kv.get('health:probe')) === null) throw new Error('kv did not return what was written');
  return {};
}

export const errorSummary = (err: unknown): { name: string; message: string } =>
  err instanceof Error
    ? { name: err.name, message: err.message.split('\n')[0] ?? '' }
    : { name: 'Error', message: String(err) };
