import { type Migration, migratePostgres } from '../db/migrations.js';
import type { PgPool } from '../db/postgres.js';
import type { BlobMeta, BlobStore } from './blob.js';
import { checkContentType, parseBlobKey } from './blob-key.js';

const migrations: readonly Migration[] = [
  {
    id: '001_tg_blobs',
    sql: `CREATE TABLE tg_blobs (
      key TEXT PRIMARY KEY,
      content_type TEXT NOT NULL,
      size INTEGER NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      body BYTEA NOT NULL)`,
  },
];

interface MetaRow {
  content_type: string;
  size: number;
  created_at: Date;
}

const toMeta = (key: string, r: MetaRow): BlobMeta => ({
  key,
  contentType: r.content_type,
  size: r.size,
  createdAt: r.created_at.toISOString(),
});

/**
 * Cluster blob store: one row per blob, so a put (an upsert) is atomic and every gateway sees the same blobs.
 * `size` is stored beside the body so that head() never has to fetch or detoast the body.
 */
export class PostgresBlobStore implements BlobStore {
  private constructor(private readonly pool: PgPool) {}

  static async open(pool: PgPool): Promise<PostgresBlobStore> {
    await migratePostgres(pool, 'blob', migrations);
    return new PostgresBlobStore(pool);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<BlobMeta> {
    parseBlobKey(key);
    checkContentType(contentType);
    // Stamped here rather than by now(): the returned meta must equal what head() reads back, to the millisecond.
    const meta: BlobMeta = { key, contentType, size: body.length, createdAt: new Date().toISOString() };
    await this.pool.query(
      `INSERT INTO tg_blobs (key, content_type, size, created_at, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET content_type = excluded.content_type, size = excluded.size,
         created_at = excluded.created_at, body = excluded.body`,
      [key, contentType, meta.size, meta.createdAt, body],
    );
    return meta;
  }

  async get(key: string): Promise<{ meta: BlobMeta; body: Buffer } | null> {
    parseBlobKey(key);
    const { rows } = await this.pool.query<MetaRow & { body: Buffer }>(
      'SELECT content_type, size, created_at, body FROM tg_blobs WHERE key = $1',
      [key],
    );
    const row = rows[0];
    return row ? { meta: toMeta(key, row), body: row.body } : null;
  }

  async head(key: string): Promise<BlobMeta | null> {
    parseBlobKey(key);
    const { rows } = await this.pool.query<MetaRow>(
      'SELECT content_type, size, created_at FROM tg_blobs WHERE key = $1',
      [key],
    );
    const row = rows[0];
    return row ? toMeta(key, row) : null;
  }

  async delete(key: string): Promise<boolean> {
    parseBlobKey(key);
    const { rowCount } = await this.pool.query('DELETE FROM tg_blobs WHERE key = $1', [key]);
    return (rowCount ?? 0) > 0;
  }

  async close(): Promise<void> {
    // The pool belongs to whoever opened it (it is shared with the event store and read models).
  }
}
