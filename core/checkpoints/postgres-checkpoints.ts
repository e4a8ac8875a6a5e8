import { migratePostgres } from '../db/migrations.js';
import type { PgPool } from '../db/postgres.js';
import type { CheckpointStore } from './checkpoints.js';

export class PostgresCheckpointStore implements CheckpointStore {
  private constructor(private readonly pool: PgPool) {}

  static async open(pool: PgPool): Promise<PostgresCheckpointStore> {
    await migratePostgres(pool, 'checkpoints', [
      {
        id: '001-checkpoints',
        sql: 'CREATE TABLE tg_checkpoints (name TEXT PRIMARY KEY, position BIGINT NOT NULL, updated_at TIMESTAMPTZ NOT NULL)',
      },
    ]);
    return new PostgresCheckpointStore(pool);
  }

  async load(name: string): Promise<number> {
    const { rows } = await this.pool.query<{ position: number }>(
      'SELECT position FROM tg_checkpoints WHERE name = $1',
      [name],
    );
    return rows[0]?.position ?? 0;
  }

  async save(name: string, position: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO tg_checkpoints (name, position, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = EXCLUDED.updated_at`,
      [name, position],
    );
  }

  async list(): Promise<{ name: string; position: number; updatedAt: string }[]> {
    const { rows } = await this.pool.query<{ name: string; position: number; updated_at: Date }>(
      'SELECT name, position, updated_at FROM tg_checkpoints ORDER BY name',
    );
    return rows.map((r) => ({ name: r.name, position: r.position, updatedAt: r.updated_at.toISOString() }));
  }

  async reset(name: string): Promise<void> {
    await this.pool.query('DELETE FROM tg_checkpoints WHERE name = $1', [name]);
  }
}
