export type SqlDialect = 'sqlite' | 'postgres';
export type SqlParam = string | number | bigint | boolean | null | Buffer;

/**
 * The SQL port of relational read models. Statements use `$1, $2 …` placeholders and the SQL both dialects
 * share (TEXT, INTEGER, BIGINT, `INSERT … ON CONFLICT … DO UPDATE SET x = excluded.x`); `dialect` is there for
 * the rare statement that differs. Adapters: SQLite (embedded), PostgreSQL (cluster).
 */
export interface SqlDb {
  readonly dialect: SqlDialect;
  query<T = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Returns the number of rows changed. */
  execute(sql: string, params?: readonly SqlParam[]): Promise<number>;
  /** Runs `fn` atomically; everything it does through `tx` commits or rolls back together. */
  transaction<T>(fn: (tx: SqlDb) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
