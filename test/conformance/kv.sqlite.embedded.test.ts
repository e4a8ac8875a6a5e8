import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../core/db/sqlite.js';
import { SqliteKvStore } from '../../core/kv/sqlite-kv.js';
import { describeKvContract } from './kv.contract.js';

const tempDirs: string[] = [];
const tempFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-kv-sqlite-'));
  tempDirs.push(dir);
  return join(dir, 'kv.db');
};

afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeKvContract('sqlite', async () => {
  const db = openSqlite(tempFile());
  const store = new SqliteKvStore(db);
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
    },
  };
});

describe('SqliteKvStore specifics', () => {
  const rowCount = (db: SqliteDatabase): number =>
    (db.prepare('SELECT count(*) AS n FROM kv_entries').get() as { n: number }).n;

  it('purges expired rows on a write once the purge interval has passed', async () => {
    const db = openSqlite(tempFile());
    let now = 1_000_000;
    const kv = new SqliteKvStore(db, { now: () => now, purgeIntervalMs: 1_000 });
    for (let i = 0; i < 100; i++) await kv.set(`tmp:${i}`, 'v', 100);
    await kv.set('kept', 'v');
    now += 500;
    await kv.increment('trigger');
    expect(rowCount(db)).toBe(102);
    now += 600;
    await kv.increment('trigger');
    expect(rowCount(db)).toBe(2);
    expect(await kv.get('trigger')).toBe('2');
    db.close();
  });

  it('shares state between two connections to the same file', async () => {
    const file = tempFile();
    const [db1, db2] = [openSqlite(file), openSqlite(file)];
    const [a, b] = [new SqliteKvStore(db1), new SqliteKvStore(db2)];
    expect(await a.setIfAbsent('lock', 'a', 60_000)).toBe(true);
    expect(await b.setIfAbsent('lock', 'b', 60_000)).toBe(false);
    await b.increment('n', 3);
    expect(await a.increment('n', 4)).toBe(7);
    db1.close();
    db2.close();
  });

  it('stays atomic across processes incrementing and racing setIfAbsent on one file', async () => {
    const file = tempFile();
    // Migrate once up front so the children race on data, not on schema creation.
    const db = openSqlite(file);
    new SqliteKvStore(db);
    const moduleUrl = new URL('../../core/kv/sqlite-kv.ts', import.meta.url).href;
    const sqliteUrl = new URL('../../core/db/sqlite.ts', import.meta.url).href;
    const child = `
      const { SqliteKvStore } = await import(${JSON.stringify(moduleUrl)});
      const { openSqlite } = await import(${JSON.stringify(sqliteUrl)});
      const kv = new SqliteKvStore(openSqlite(process.argv[1]));
      // Start together: process start-up takes longer than the work, which would otherwise run in turn.
      await new Promise((r) => setTimeout(r, Number(process.argv[2]) - Date.now()));
      const won = await kv.setIfAbsent('race', String(process.pid), 60_000);
      for (let i = 0; i < 2000; i++) await kv.increment('counter', 1, 60_000);
      process.stdout.write(JSON.stringify({ won }));`;
    const cwd = fileURLToPath(new URL('../..', import.meta.url));
    const startAt = String(Date.now() + 2_500);
    const run = (): Promise<{ won: boolean }> =>
      new Promise((resolve, reject) => {
        const p = spawn(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', child, file, startAt],
          {
            cwd,
          },
        );
        let out = '';
        let err = '';
        p.stdout.on('data', (d) => {
          out += d;
        });
        p.stderr.on('data', (d) => {
          err += d;
        });
        p.on('error', reject);
        p.on('close', (code) =>
          code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child ${code}: ${err}`)),
        );
      });
    const results = await Promise.all([run(), run(), run()]);
    expect(results.filter((r) => r.won)).toHaveLength(1);
    const kv = new SqliteKvStore(db);
    expect(await kv.get('counter')).toBe('6000');
    db.close();
  });
});
