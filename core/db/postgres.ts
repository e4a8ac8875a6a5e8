import pg from 'pg';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;

// BIGINT columns (global positions) fit in a JS number for any realistic log; parse them as numbers.
pg.types.setTypeParser(20, (v: string) => Number(v));

export function openPostgres(connectionString: string, max = 10): PgPool {
  const pool = new pg.Pool({ connectionString, max, application_name: 'toolgate' });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

export async function inTransaction<T>(pool: PgPool, fn: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
