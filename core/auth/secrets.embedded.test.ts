import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../db/sqlite.js';
import { SqliteSqlDb } from '../sql/sqlite-sql-db.js';
import { SecretStore } from './secrets.js';

describe('SecretStore on SQLite', () => {
  let dir: string;
  const open: SqliteDatabase[] = [];
  const connect = () => {
    const db = openSqlite(join(dir, 'readmodels.db'));
    open.push(db);
    return new SqliteSqlDb(db);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tg-secrets-'));
  });
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a secret once and returns the stored value ever after, across instances', async () => {
    let calls = 0;
    const make = async () => `value-${++calls}`;
    const first = new SecretStore(connect());
    expect(await first.getOrCreate('jwt.key', make)).toBe('value-1');
    expect(await first.getOrCreate('jwt.key', make)).toBe('value-1');
    expect(await new SecretStore(connect()).getOrCreate('jwt.key', make)).toBe('value-1');
    expect(calls).toBe(1);
    expect(await first.getOrCreate('other', make)).toBe('value-2');
  });

  it('makes processes racing at first start agree on one value', async () => {
    // Separate connections to one file stand for separate processes.
    const stores = Array.from({ length: 6 }, () => new SecretStore(connect()));
    const values = await Promise.all(
      stores.map((s, i) =>
        s.getOrCreate('race', async () => {
          await new Promise((r) => setTimeout(r, 5));
          return `candidate-${i}`;
        }),
      ),
    );
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toMatch(/^candidate-\d$/);
    const rows = await connect().query('SELECT name, value FROM system_secrets');
    expect(rows).toEqual([{ name: 'race', value: values[0] }]);
  });

  it('refuses bad names and empty values, and stores nothing then', async () => {
    const store = new SecretStore(connect());
    await expect(store.getOrCreate('Bad Name', async () => 'x')).rejects.toThrow(RangeError);
    await expect(store.getOrCreate("x'; DROP TABLE system_secrets; --", async () => 'x')).rejects.toThrow(
      RangeError,
    );
    await expect(store.getOrCreate('empty', async () => '')).rejects.toThrow(TypeError);
    await expect(
      store.getOrCreate('failing', async () => {
        throw new Error('generator failed');
      }),
    ).rejects.toThrow('generator failed');
    expect(await connect().query('SELECT name FROM system_secrets')).toEqual([]);
  });
});
