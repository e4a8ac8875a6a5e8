import { migrateSqlite } from '../db/migrations.js';
import type { SqliteDatabase } from '../db/sqlite.js';
import type { CheckpointStore } from './checkpoints.js';

export class SqliteCheckpointStore implements CheckpointStore {
  constructor(private readonly db: SqliteDatabase) {
    migrateSqlite(db, 'checkpoints', [
      {
        id: '001-checkpoints',
        sql: 'CREATE TABLE checkpoints (name TEXT PRIMARY KEY, position INTEGER NOT NULL, updated_at TEXT NOT NULL)',
      },
    ]);
  }

  async load(name: string): Promise<number> {
    const row = this.db.prepare('SELECT position FROM checkpoints WHERE name = ?').get(name) as
      | { position: number }
      | undefined;
    return row?.position ?? 0;
  }

  async save(name: string, position: number): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO checkpoints (name, position, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
      )
      .run(name, position, new Date().toISOString());
  }

  async list(): Promise<{ name: string; position: number; updatedAt: string }[]> {
    return (
      this.db.prepare('SELECT name, position, updated_at FROM checkpoints ORDER BY name').all() as {
        name: string;
        position: number;
        updated_at: string;
      }[]
    ).map((r) => ({ name: r.name, position: r.position, updatedAt: r.updated_at }));
  }

  async reset(name: string): Promise<void> {
    this.db.prepare('DELETE FROM checkpoints WHERE name = ?').run(name);
  }
}
