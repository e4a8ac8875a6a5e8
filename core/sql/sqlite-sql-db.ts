import type { SqliteDatabase } from '../db/sqlite.js';
import type { SqlDb, SqlParam } from './sql-db.js';

/** `$1 … $n` → `?` with the arguments in order of appearance (a placeholder may repeat). */
export function toSqlitePlaceholders(
  sql: string,
  params: readonly SqlParam[],
): { sql: string; args: unknown[] } {
  const args: unknown[] = [];
  const out = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= params.length) throw new Error(`placeholder $${n} has no parameter`);
    const v = params[index];
    args.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
    return '?';
  });
  return { sql: out, args };
}

/**
 * SQLite read-model database. better-sqlite3 is synchronous, but a transaction's callback is async, so while it
 * awaits, any other statement on the same connection would silently join it. A queue therefore runs transactions
 * and writes one at a time; give this adapter a connection of its own (not the event store's).
 */
export class SqliteSqlDb implements SqlDb {
  readonly dialect = 'sqlite' as const;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: SqliteDatabase) {}

  async query<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    const q = toSqlitePlaceholders(sql, params);
    return this.db.prepare(q.sql).all(...q.args) as T[];
  }

  execute(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    return this.serial(async () => this.run(sql, params));
  }

  transaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      const tx: SqlDb = {
        dialect: 'sqlite',
        query: (sql, params) => this.query(sql, params),
        execute: async (sql, params) => this.run(sql, params ?? []),
        transaction: (inner) => inner(tx),
        close: async () => {},
      };
      try {
        const result = await fn(tx);
        this.db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw err;
      }
    });
  }

  async close(): Promise<void> {
    await this.queue.catch(() => {});
  }

  private run(sql: string, params: readonly SqlParam[]): number {
    const q = toSqlitePlaceholders(sql, params);
    const stmt = this.db.prepare(q.sql);
    if (!stmt.reader) return stmt.run(...q.args).changes;
    stmt.all(...q.args);
    return 0;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }
}
