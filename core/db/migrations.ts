import type { PgPool } from './postgres.js';
import type { SqliteDatabase } from './sqlite.js';

/** An ordered, append-only list of schema changes; `id` never changes once released. */
export interface Migration {
  readonly id: string;
  readonly sql: string;
}

const SQLITE_LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (
  namespace TEXT NOT NULL, id TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (namespace, id))`;

export function migrateSqlite(
  db: SqliteDatabase,
  namespace: string,
  migrations: readonly Migration[],
): string[] {
  db.exec(SQLITE_LEDGER);
  const applied = new Set(
    db
      .prepare('SELECT id FROM schema_migrations WHERE namespace = ?')
      .all(namespace)
      .map((r) => (r as { id: string }).id),
  );
  const done: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (namespace, id, applied_at) VALUES (?, ?, ?)').run(
        namespace,
        m.id,
        new Date().toISOString(),
      );
    }).immediate();
    done.push(m.id);
  }
  return done;
}

/** Applies pending migrations under an advisory lock, so concurrent starts of several roles migrate once. */
export async function migratePostgres(
  pool: PgPool,
  namespace: string,
  migrations: readonly Migration[],
): Promise<string[]> {
  const client = await pool.connect();
  const done: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('toolgate:migrations'))");
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      namespace TEXT NOT NULL, id TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (namespace, id))`);
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM schema_migrations WHERE namespace = $1',
      [namespace],
    );
    const applied = new Set(rows.map((r) => r.id));
    for (const m of migrations) {
      if (applied.has(m.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (namespace, id) VALUES ($1, $2)', [
          namespace,
          m.id,
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
      done.push(m.id);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('toolgate:migrations'))").catch(() => {});
    client.release();
  }
  return done;
}
