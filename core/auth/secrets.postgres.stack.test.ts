import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type PgPool } from '../db/postgres.js';
import { PostgresSqlDb } from '../sql/postgres-sql-db.js';
import { SecretStore } from './secrets.js';

// core/ may not import test/support (layering rule), so this suite makes its own database from TEST_DATABASE_URL.
const adminUrl = process.env.TEST_DATABASE_URL;

describe('SecretStore on PostgreSQL', () => {
  const name = `tg_secrets_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const pools: PgPool[] = [];

  beforeAll(async () => {
    if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: run the stack suites through `npm test`');
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
  });
  afterAll(async () => {
    for (const p of pools) await p.end();
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });

  const connect = () => {
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    const pool = openPostgres(url.toString());
    pools.push(pool);
    return new PostgresSqlDb(pool);
  };

  it('makes processes racing at first start (table creation included) agree on one value', async () => {
    const stores = Array.from({ length: 6 }, () => new SecretStore(connect()));
    const values = await Promise.all(
      stores.map((s, i) => s.getOrCreate('race', async () => `candidate-${i}`)),
    );
    expect(new Set(values).size).toBe(1);
    let calls = 0;
    expect(await new SecretStore(connect()).getOrCreate('race', async () => `late-${++calls}`)).toBe(
      values[0],
    );
    expect(calls).toBe(0);
  });
});
