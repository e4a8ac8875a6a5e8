import { streamCategory } from '../../core/events/envelope.js';
import type { Projection } from '../../core/projections/projection.js';
import type { ApiKeyEvent } from '../../services/apikeys/events.js';
import { APIKEY_CATEGORY, APIKEY_CONTEXT } from '../../services/apikeys/events.js';

/**
 * The API-keys read model: `api_keys` (one row per key, for the portal list) and `api_key_hashes` (every hash
 * a key has had → its key, for authentication in the embedded profile). Never a key or a secret: hashes only.
 */
export const apiKeysProjection: Projection = {
  name: 'apikeys',
  version: 1,
  contexts: [APIKEY_CONTEXT],
  tables: {
    api_keys: [
      `CREATE TABLE {table} (
        key_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        name TEXT NOT NULL,
        scopes TEXT NOT NULL,
        start TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        rotated_at TEXT,
        version INTEGER NOT NULL)`,
      'CREATE INDEX {table}_account ON {table} (account_id, created_at)',
    ],
    api_key_hashes: [
      `CREATE TABLE {table} (
        key_hash TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        valid_until TEXT)`,
      'CREATE INDEX {table}_key ON {table} (key_id)',
    ],
  },
  async apply(event, { db, table }) {
    if (streamCategory(event.streamId) !== APIKEY_CATEGORY) return;
    const keys = table('api_keys');
    const hashes = table('api_key_hashes');
    const e = { type: event.type, data: event.data } as ApiKeyEvent;
    const at = event.occurredAt;
    const v = event.streamVersion;
    switch (e.type) {
      case 'ApiKeyCreated': {
        const d = e.data;
        await db.execute(
          `INSERT INTO ${keys} (key_id, account_id, name, scopes, start, created_at, expires_at, revoked_at,
             rotated_at, version)
           VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL, $8)`,
          [d.keyId, d.accountId, d.name, d.scopes.join(','), d.start, at, d.expiresAt ?? null, v],
        );
        await db.execute(`INSERT INTO ${hashes} (key_hash, key_id, valid_until) VALUES ($1, $2, NULL)`, [
          d.keyHash,
          d.keyId,
        ]);
        return;
      }
      case 'ApiKeyRevoked':
        await db.execute(`UPDATE ${keys} SET revoked_at = $2, version = $3 WHERE key_id = $1`, [
          e.data.keyId,
          at,
          v,
        ]);
        return;
      case 'ApiKeyRerolled': {
        const d = e.data;
        // Every earlier secret (the one replaced now, and any still in an older overlap) ends no later than
        // the new overlap: a reroll with overlap 0 after a leak must stop all of them. Compared as instants
        // in JS, not as text in SQL, where PostgreSQL's collation could order ISO strings unexpectedly.
        const until = Date.parse(d.previousValidUntil);
        const old = await db.query<{ key_hash: string; valid_until: string | null }>(
          `SELECT key_hash, valid_until FROM ${hashes} WHERE key_id = $1`,
          [d.keyId],
        );
        for (const row of old) {
          if (row.valid_until !== null && Date.parse(row.valid_until) <= until) continue;
          await db.execute(`UPDATE ${hashes} SET valid_until = $2 WHERE key_hash = $1`, [
            row.key_hash,
            d.previousValidUntil,
          ]);
        }
        await db.execute(`INSERT INTO ${hashes} (key_hash, key_id, valid_until) VALUES ($1, $2, NULL)`, [
          d.keyHash,
          d.keyId,
        ]);
        await db.execute(`UPDATE ${keys} SET start = $2, rotated_at = $3, version = $4 WHERE key_id = $1`, [
          d.keyId,
          d.start,
          at,
          v,
        ]);
        return;
      }
    }
  },
};
