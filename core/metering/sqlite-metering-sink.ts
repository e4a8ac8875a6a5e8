import { type Migration, migrateSqlite } from '../db/migrations.js';
import { openSqlite, type SqliteDatabase } from '../db/sqlite.js';
import { type GroupCommitOptions, type GroupCommitStats, GroupCommitter } from './group-commit.js';
import type { GroupCommitSink } from './metering-sink.js';
import { checkServiceCall, dayOf, isCounted, periodOf, type ServiceCall } from './service-call.js';

/**
 * The embedded metering tables. `service_calls` keeps every call (the SQLite counterpart of ClickHouse's
 * table); `usage_monthly` counts the 2xx calls per account, month (UTC) and slug, and is what quota and usage
 * read.
 */
export const METERING_SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    id: '001_service_calls',
    sql: `
      CREATE TABLE service_calls (
        event_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        slug TEXT NOT NULL,
        operation_id TEXT NOT NULL,
        convention TEXT NOT NULL CHECK (convention IN ('S', 'R', 'D')),
        status INTEGER NOT NULL,
        latency_ms REAL NOT NULL,
        at TEXT NOT NULL,
        day TEXT NOT NULL,
        period TEXT NOT NULL);
      -- Admin figures: calls today; calls, top services and error rate of the month (covering, no table
      -- reads).
      CREATE INDEX service_calls_day ON service_calls (day);
      CREATE INDEX service_calls_period ON service_calls (period, slug, status);
      CREATE TABLE usage_monthly (
        account_id TEXT NOT NULL,
        period TEXT NOT NULL,
        slug TEXT NOT NULL,
        calls INTEGER NOT NULL,
        PRIMARY KEY (account_id, period, slug)) WITHOUT ROWID;`,
  },
];

export const METERING_SQLITE_NAMESPACE = 'metering';

export interface SqliteMeteringSinkOptions extends GroupCommitOptions {
  /** Close the connection on close(); default false (a connection handed in belongs to the caller). */
  readonly ownsDb?: boolean;
}

/**
 * Embedded metering: each group-committed batch is one SQLite transaction that inserts the calls and adds the
 * 2xx ones to usage_monthly, so usage is exact and durable when record() resolves. `INSERT OR IGNORE` on the
 * event id makes a retried record() harmless: only a newly inserted call is counted.
 *
 * Give it a connection of its own (DATA_DIR/metering.db): a metering transaction then never waits for, or
 * holds up, the event store's writers. Durability is that of the connection's `synchronous` setting: with
 * openSqlite's WAL + NORMAL a commit survives the process being killed; FULL would also survive a power cut,
 * at one fsync per batch.
 */
export class SqliteMeteringSink implements GroupCommitSink {
  private readonly committer: GroupCommitter<ServiceCall>;
  private readonly ownsDb: boolean;
  private readonly writeBatch: (calls: readonly ServiceCall[]) => void;

  constructor(
    private readonly db: SqliteDatabase,
    options: SqliteMeteringSinkOptions = {},
  ) {
    this.ownsDb = options.ownsDb ?? false;
    migrateSqlite(db, METERING_SQLITE_NAMESPACE, METERING_SQLITE_MIGRATIONS);
    const insert = db.prepare(
      `INSERT OR IGNORE INTO service_calls (event_id, account_id, key_id, slug, operation_id, convention,
         status, latency_ms, at, day, period) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const upsert = db.prepare(
      `INSERT INTO usage_monthly (account_id, period, slug, calls) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, period, slug) DO UPDATE SET calls = calls + excluded.calls`,
    );
    const transaction = db.transaction((calls: readonly ServiceCall[]) => {
      // Summed per counter first: a batch of 500 calls of one account and slug is one upsert, not 500.
      const counts = new Map<string, [accountId: string, period: string, slug: string, calls: number]>();
      for (const c of calls) {
        const period = periodOf(c.at);
        const { changes } = insert.run(
          c.eventId,
          c.accountId,
          c.keyId,
          c.slug,
          c.operationId,
          c.convention,
          c.status,
          c.latencyMs,
          c.at,
          dayOf(c.at),
          period,
        );
        if (changes === 0 || !isCounted(c.status)) continue;
        const key = `${c.accountId} ${period} ${c.slug}`;
        const counter = counts.get(key);
        if (counter) counter[3]++;
        else counts.set(key, [c.accountId, period, c.slug, 1]);
      }
      for (const counter of counts.values()) upsert.run(...counter);
    });
    // IMMEDIATE takes the write lock up front; a deferred transaction that upgrades can fail with SQLITE_BUSY
    // without waiting for busy_timeout.
    this.writeBatch = (calls) => transaction.immediate(calls);
    this.committer = new GroupCommitter((calls) => this.writeBatch(calls), options);
  }

  /** Opens (creating) a metering database file with a connection of its own, closed by close(). */
  static open(file: string, options: Omit<SqliteMeteringSinkOptions, 'ownsDb'> = {}): SqliteMeteringSink {
    const db = openSqlite(file);
    try {
      return new SqliteMeteringSink(db, { ...options, ownsDb: true });
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** The connection, for a reader of the same tables (SqliteUsageReader) in the same process. */
  get database(): SqliteDatabase {
    return this.db;
  }

  record(call: ServiceCall): Promise<void> {
    try {
      // Checked here, not in the batch: one malformed call must not fail the calls it would share a write
      // with.
      checkServiceCall(call);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.committer.submit(call);
  }

  stats(): GroupCommitStats {
    return this.committer.stats();
  }

  async close(): Promise<void> {
    await this.committer.close();
    if (this.ownsDb && this.db.open) this.db.close();
  }
}
