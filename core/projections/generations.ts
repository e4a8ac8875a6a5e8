import type { SqlDb } from '../sql/sql-db.js';
import type { Projection } from './projection.js';
import { viewName } from './projection.js';

/**
 * Every projection's tables exist in numbered generations (`rm_<logical>_g<N>`, plus `rm_<name>__seen_g<N>` that
 * records the last global position applied per stream, for idempotence). The registry row says which generation
 * is live; stable views `rm_<logical>` point at it. Swapping generations is one transaction that also
 * re-points the views, so readers never see a half-built read model.
 */
export const REGISTRY_TABLE = 'projection_registry';

export interface RegistryRow {
  name: string;
  version: number;
  generation: number;
  position: number;
  updated_at: string;
}

export const physicalName = (logical: string, generation: number): string => `rm_${logical}_g${generation}`;
export const seenTable = (projection: string, generation: number): string =>
  `rm_${projection.replace(/[^a-z0-9_]/g, '_')}__seen_g${generation}`;

export async function ensureRegistry(db: SqlDb): Promise<void> {
  await db.execute(`CREATE TABLE IF NOT EXISTS ${REGISTRY_TABLE} (
    name TEXT PRIMARY KEY, version INTEGER NOT NULL, generation INTEGER NOT NULL,
    position BIGINT NOT NULL, updated_at TEXT NOT NULL)`);
}

/** Reads the registry row; inside a transaction on PostgreSQL it also waits for (and then sees) a running swap. */
export async function readRegistry(db: SqlDb, name: string, lock = false): Promise<RegistryRow | undefined> {
  const suffix = lock && db.dialect === 'postgres' ? ' FOR UPDATE' : '';
  const rows = await db.query<RegistryRow>(`SELECT * FROM ${REGISTRY_TABLE} WHERE name = $1${suffix}`, [
    name,
  ]);
  const row = rows[0];
  return row ? { ...row, position: Number(row.position) } : undefined;
}

export async function createGeneration(db: SqlDb, projection: Projection, generation: number): Promise<void> {
  await dropGeneration(db, projection, generation);
  for (const [logical, statements] of Object.entries(projection.tables)) {
    for (const statement of statements) {
      await db.execute(statement.replaceAll('{table}', physicalName(logical, generation)));
    }
  }
  await db.execute(
    `CREATE TABLE ${seenTable(projection.name, generation)} (stream_id TEXT PRIMARY KEY, position BIGINT NOT NULL)`,
  );
}

export async function dropGeneration(db: SqlDb, projection: Projection, generation: number): Promise<void> {
  for (const logical of Object.keys(projection.tables)) {
    await db.execute(`DROP TABLE IF EXISTS ${physicalName(logical, generation)}`);
  }
  await db.execute(`DROP TABLE IF EXISTS ${seenTable(projection.name, generation)}`);
}

export async function pointViews(db: SqlDb, projection: Projection, generation: number): Promise<void> {
  for (const logical of Object.keys(projection.tables)) {
    await db.execute(`DROP VIEW IF EXISTS ${viewName(logical)}`);
    await db.execute(
      `CREATE VIEW ${viewName(logical)} AS SELECT * FROM ${physicalName(logical, generation)}`,
    );
  }
}

export async function writeRegistry(db: SqlDb, row: Omit<RegistryRow, 'updated_at'>): Promise<void> {
  await db.execute(
    `INSERT INTO ${REGISTRY_TABLE} (name, version, generation, position, updated_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, generation = excluded.generation,
       position = excluded.position, updated_at = excluded.updated_at`,
    [row.name, row.version, row.generation, row.position, new Date().toISOString()],
  );
}
