import { inTransaction, type PgClient, type PgPool } from '../db/postgres.js';
import type { SqlDb, SqlParam } from './sql-db.js';

export class PostgresSqlDb implements SqlDb {
  readonly dialect = 'postgres' as const;

  constructor(private readonly pool: PgPool) {}

  async query<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
    return (await this.pool.query(sql, params as unknown[])).rows as T[];
  }

  async execute(sql: string, params: readonly SqlParam[] = []): Promise<number> {
    return (await this.pool.query(sql, params as unknown[])).rowCount ?? 0;
  }

  transaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, (client) => fn(clientDb(client)));
  }

  async close(): Promise<void> {
    // The pool belongs to whoever opened it.
  }
}

function clientDb(client: PgClient): SqlDb {
  const db: SqlDb = {
    dialect: 'postgres',
    query: async (sql, params = []) => (await client.query(sql, params as unknown[])).rows,
    execute: async (sql, params = []) => (await client.query(sql, params as unknown[])).rowCount ?? 0,
    transaction: (inner) => inner(db),
    close: async () => {},
  };
  return db;
}
