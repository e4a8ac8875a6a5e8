import type { PgClient, PgPool } from '../db/postgres.js';

/** At most one holder across every process of a deployment (the relay must not run twice at once). */
export interface LeaderLock {
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
}

/** Single-process deployments: the lock is always ours. */
export const soleLeader: LeaderLock = { tryAcquire: async () => true, release: async () => {} };

/** A session-level advisory lock held on a dedicated connection; losing the connection loses the lock. */
export class PostgresLeaderLock implements LeaderLock {
  private client: PgClient | null = null;

  constructor(
    private readonly pool: PgPool,
    private readonly name: string,
  ) {}

  async tryAcquire(): Promise<boolean> {
    if (this.client) return true;
    const client = await this.pool.connect();
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [
      this.name,
    ]);
    if (rows[0]?.ok) {
      client.on('error', () => {
        this.client = null;
      });
      this.client = client;
      return true;
    }
    client.release();
    return false;
  }

  async release(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [this.name]).catch(() => {});
    client.release();
  }
}
