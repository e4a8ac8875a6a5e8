import type { KeyLookup, KeyRecord } from '../../core/auth/key-lookup.js';
import type { SqlDb } from '../../core/sql/sql-db.js';

/** A key as its owner sees it in the portal list: never the key, the secret or a hash. */
export interface ApiKeySummary {
  readonly keyId: string;
  readonly name: string;
  readonly start: string;
  readonly scopes: string[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  /** Present once the secret has been rerolled. */
  readonly lastRotatedAt?: string;
}

/** The whole row, for audits and for waiting on a write. */
export interface ApiKeyView {
  readonly keyId: string;
  readonly accountId: string;
  readonly name: string;
  readonly start: string;
  readonly scopes: string[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly rotatedAt: string | null;
  /** Stream version the row reflects: a caller that just wrote can wait for it. */
  readonly version: number;
}

interface Row {
  key_id: string;
  account_id: string;
  name: string;
  scopes: string;
  start: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  rotated_at: string | null;
  version: number;
}

const toView = (r: Row): ApiKeyView => ({
  keyId: r.key_id,
  accountId: r.account_id,
  name: r.name,
  start: r.start,
  scopes: r.scopes.split(',').filter(Boolean),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  rotatedAt: r.rotated_at,
  version: Number(r.version),
});

const toSummary = (r: Row): ApiKeySummary => ({
  keyId: r.key_id,
  name: r.name,
  start: r.start,
  scopes: r.scopes.split(',').filter(Boolean),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  ...(r.rotated_at ? { lastRotatedAt: r.rotated_at } : {}),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Typed queries over the keys views (`rm_api_keys`, `rm_api_key_hashes`). */
export class ApiKeysReader {
  constructor(private readonly db: SqlDb) {}

  /** The account's keys that are not revoked, newest first; expired ones stay listed until deleted. */
  async listByAccount(accountId: string): Promise<ApiKeySummary[]> {
    const rows = await this.db.query<Row>(
      `SELECT * FROM rm_api_keys WHERE account_id = $1 AND revoked_at IS NULL
       ORDER BY created_at DESC, key_id DESC`,
      [accountId],
    );
    return rows.map(toSummary);
  }

  async byId(keyId: string): Promise<ApiKeyView | null> {
    const rows = await this.db.query<Row>('SELECT * FROM rm_api_keys WHERE key_id = $1', [keyId]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /**
   * Resolves true once the row reflects stream `version` (the read model is eventually consistent), false
   * when it has not after `timeoutMs`. Polls, so it works whichever process runs the projection.
   */
  async waitForVersion(keyId: string, version: number, timeoutMs = 5_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
      if (((await this.byId(keyId))?.version ?? 0) >= version) return true;
      if (Date.now() >= deadline) return false;
      await sleep(pause);
    }
  }

  /** Every row in a stable order: audits, and the rebuild-equals-incremental check. */
  async all(): Promise<ApiKeyView[]> {
    return (await this.db.query<Row>('SELECT * FROM rm_api_keys ORDER BY key_id')).map(toView);
  }

  /**
   * Every hash with its key and overlap end, in a stable order (tests and audits; hashes are not secrets).
   */
  async hashes(): Promise<{ keyHash: string; keyId: string; validUntil: string | null }[]> {
    const rows = await this.db.query<{ key_hash: string; key_id: string; valid_until: string | null }>(
      'SELECT * FROM rm_api_key_hashes ORDER BY key_hash',
    );
    return rows.map((r) => ({ keyHash: r.key_hash, keyId: r.key_id, validUntil: r.valid_until }));
  }
}

/** KeyLookup over the SQL read model: the embedded profile's authentication path. */
export class SqlKeyLookup implements KeyLookup {
  constructor(private readonly db: SqlDb) {}

  async find(keyHash: string): Promise<KeyRecord | null> {
    const rows = await this.db.query<Row & { valid_until: string | null }>(
      `SELECT k.*, h.valid_until FROM rm_api_key_hashes h JOIN rm_api_keys k ON k.key_id = h.key_id
       WHERE h.key_hash = $1`,
      [keyHash],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      keyId: r.key_id,
      accountId: r.account_id,
      scopes: r.scopes.split(',').filter(Boolean),
      expiresAt: r.expires_at,
      revoked: r.revoked_at !== null,
      validUntil: r.valid_until,
    };
  }
}
