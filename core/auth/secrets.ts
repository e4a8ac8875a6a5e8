import type { SqlDb } from '../sql/sql-db.js';

const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** SQL both SQLite and PostgreSQL accept as written: no dialect branch needed. */
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS system_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL)`;

/**
 * Long-lived secrets the platform makes for itself (the JWT signing key, signing secrets), kept in the
 * read-model database (`system_secrets`) so every process of one installation shares them.
 *
 * `getOrCreate` is safe when several processes start at once: each may generate a candidate, but the row is
 * written with `INSERT … ON CONFLICT DO NOTHING` and every process then reads back the one row that won, so all
 * of them agree. Values are returned to the caller only: never logged, never part of an error message.
 */
export class SecretStore {
  private ready: Promise<void> | null = null;

  constructor(
    private readonly db: SqlDb,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async getOrCreate(name: string, create: () => Promise<string>): Promise<string> {
    if (!NAME.test(name)) throw new RangeError(`secrets: invalid secret name ${JSON.stringify(name)}`);
    await this.ensureTable();
    const existing = await this.read(name);
    if (existing !== null) return existing;

    const candidate = await create();
    if (typeof candidate !== 'string' || candidate.length === 0) {
      throw new TypeError(`secrets: the generator of ${name} returned no value`);
    }
    await this.db.execute(
      'INSERT INTO system_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
      [name, candidate, this.now().toISOString()],
    );
    const stored = await this.read(name);
    // Only a concurrent delete could get here; nothing deletes secrets, so this is a broken database.
    if (stored === null) throw new Error(`secrets: ${name} was not stored`);
    return stored;
  }

  private async read(name: string): Promise<string | null> {
    const rows = await this.db.query<{ value: string }>('SELECT value FROM system_secrets WHERE name = $1', [
      name,
    ]);
    return rows[0]?.value ?? null;
  }

  private ensureTable(): Promise<void> {
    this.ready ??= createTable(this.db).catch((err: unknown) => {
      this.ready = null;
      throw err;
    });
    return this.ready;
  }
}

/**
 * PostgreSQL's `CREATE TABLE IF NOT EXISTS` is not safe against itself: two sessions racing can both pass the
 * existence check and one then fails on the catalogue's unique index. The loser simply tries again and finds
 * the table.
 */
async function createTable(db: SqlDb): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.execute(CREATE_TABLE);
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
      await new Promise((r) => setTimeout(r, 20 * attempt));
    }
  }
}
