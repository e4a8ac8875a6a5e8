import { type Migration, migrateSqlite } from '../db/migrations.js';
import type { SqliteDatabase } from '../db/sqlite.js';
import { checkIncrementBy, checkTtl, type KvStore, nextCounter } from './kv.js';

const migrations: readonly Migration[] = [
  {
    id: '001_kv_entries',
    sql: `CREATE TABLE kv_entries (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER);
          CREATE INDEX kv_entries_expires_at ON kv_entries (expires_at) WHERE expires_at IS NOT NULL;`,
  },
];

export interface SqliteKvOptions {
  /** Clock in epoch ms. */
  now?: () => number;
  /** How often, at most, a write purges expired rows. */
  purgeIntervalMs?: number;
}

/**
 * Embedded store on the shared SQLite file. Several processes may open the file: setIfAbsent is one UPSERT
 * statement and increment a BEGIN IMMEDIATE transaction, so both are atomic across connections. Expired rows
 * read as absent and are purged by writes at most once per interval (the partial index keeps that cheap).
 */
export class SqliteKvStore implements KvStore {
  private readonly now: () => number;
  private readonly purgeIntervalMs: number;
  private lastPurge: number;
  private readonly stmts;
  private readonly incrementTx;

  constructor(db: SqliteDatabase, options: SqliteKvOptions = {}) {
    migrateSqlite(db, 'kv', migrations);
    this.now = options.now ?? Date.now;
    this.purgeIntervalMs = options.purgeIntervalMs ?? 60_000;
    this.lastPurge = this.now();
    const live = '(expires_at IS NULL OR expires_at > @now)';
    this.stmts = {
      get: db.prepare<{ key: string; now: number }, { value: string; expires_at: number | null }>(
        `SELECT value, expires_at FROM kv_entries WHERE key = @key AND ${live}`,
      ),
      set: db.prepare(
        `INSERT INTO kv_entries (key, value, expires_at) VALUES (@key, @value, @expiresAt)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      ),
      // The conflict branch only replaces an expired row, which counts as absent.
      setIfAbsent: db.prepare(
        `INSERT INTO kv_entries (key, value, expires_at) VALUES (@key, @value, @expiresAt)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
         WHERE kv_entries.expires_at IS NOT NULL AND kv_entries.expires_at <= @now`,
      ),
      setValue: db.prepare('UPDATE kv_entries SET value = @value WHERE key = @key'),
      delete: db.prepare<{ key: string }, { expires_at: number | null }>(
        'DELETE FROM kv_entries WHERE key = @key RETURNING expires_at',
      ),
      purge: db.prepare('DELETE FROM kv_entries WHERE expires_at <= @now'),
    };
    this.incrementTx = db.transaction((key: string, by: number, ttlMs: number | undefined): number => {
      // Read the clock only once the write lock is held: waiting for it may have taken a while.
      const now = this.now();
      const row = this.stmts.get.get({ key, now });
      const next = nextCounter(key, row?.value ?? null, by);
      if (row) this.stmts.setValue.run({ key, value: String(next) });
      else this.stmts.set.run({ key, value: String(next), expiresAt: expiry(now, ttlMs) });
      return next;
    });
  }

  async get(key: string): Promise<string | null> {
    return this.stmts.get.get({ key, now: this.now() })?.value ?? null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkTtl(ttlMs);
    const now = this.purgeIfDue();
    this.stmts.set.run({ key, value, expiresAt: expiry(now, ttlMs) });
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    checkTtl(ttlMs);
    const now = this.purgeIfDue();
    return this.stmts.setIfAbsent.run({ key, value, expiresAt: expiry(now, ttlMs), now }).changes > 0;
  }

  async increment(key: string, by = 1, ttlMs?: number): Promise<number> {
    checkIncrementBy(by);
    checkTtl(ttlMs);
    this.purgeIfDue();
    // IMMEDIATE takes the write lock before the read; a deferred transaction would fail to upgrade (SQLITE_BUSY)
    // whenever another connection wrote in between.
    return this.incrementTx.immediate(key, by, ttlMs);
  }

  async delete(key: string): Promise<boolean> {
    const row = this.stmts.delete.get({ key });
    return row !== undefined && (row.expires_at === null || row.expires_at > this.now());
  }

  async ttl(key: string): Promise<number | null> {
    const now = this.now();
    const expiresAt = this.stmts.get.get({ key, now })?.expires_at ?? null;
    return expiresAt === null ? null : expiresAt - now;
  }

  async close(): Promise<void> {
    // The database handle belongs to whoever opened it (it is shared with the other embedded adapters).
  }

  /** Returns the current time, purging expired rows first when the interval has passed. */
  private purgeIfDue(): number {
    const now = this.now();
    if (now - this.lastPurge >= this.purgeIntervalMs) {
      this.lastPurge = now;
      this.stmts.purge.run({ now });
    }
    return now;
  }
}

const expiry = (now: number, ttlMs: number | undefined): number | null =>
  ttlMs === undefined ? null : now + ttlMs;
