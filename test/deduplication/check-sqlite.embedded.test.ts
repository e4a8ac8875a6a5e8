/**
 * The check route's counting on the embedded store (SqliteKvStore on a real file): concurrent submissions in one
 * process, on two connections, and from several processes sharing the file, as gateways of one host would.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../core/db/sqlite.js';
import { SqliteKvStore } from '../../core/kv/sqlite-kv.js';
import type { CallContext, RouteDefinition } from '../../core/service/definition.js';
import { createDeduplicationService } from '../../services/deduplication/service.js';

const dirs: string[] = [];
const tempFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-dedup-'));
  dirs.push(dir);
  return join(dir, 'kv.db');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ctx = (accountId: string): CallContext => ({
  requestId: 'r',
  accountId,
  keyId: 'k',
  roles: ['ROLE_USER'],
  plan: 'PRO',
  batchLimit: 100,
  ip: '127.0.0.1',
  now: () => new Date(),
});

interface Result {
  result: string;
  occurrences: number;
  firstSeen: string;
  hash: string;
}

const checkRoute = (kv: SqliteKvStore): RouteDefinition =>
  createDeduplicationService({ kv }).routes.find((r) => r.operationId === 'deduplicationCheck')!;

const submit = (route: RouteDefinition, body: unknown, accountId = 'acc-1') =>
  route.handler({ params: {}, query: {}, body, headers: {} }, ctx(accountId)) as Promise<Result>;

const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const sorted = (results: Result[]) => results.map((r) => r.occurrences).sort((a, b) => a - b);

describe('check on SQLite', () => {
  it('50 concurrent identical submissions: exactly one UNIQUE, occurrences 1 to 50 once each', async () => {
    const db = openSqlite(tempFile());
    const route = checkRoute(new SqliteKvStore(db));
    const body = { content: 'the same event payload', namespace: 'events' };
    const results = await Promise.all(Array.from({ length: 50 }, () => submit(route, body)));
    expect(results.filter((r) => r.result === 'UNIQUE')).toHaveLength(1);
    expect(sorted(results)).toEqual(oneToN(50));
    expect(new Set(results.map((r) => r.firstSeen)).size).toBe(1);
    expect(await submit(route, body)).toMatchObject({ result: 'EXACT_DUPLICATE', occurrences: 51 });
    db.close();
  });

  it('keeps accounts and namespaces apart in one file', async () => {
    const db = openSqlite(tempFile());
    const route = checkRoute(new SqliteKvStore(db));
    await submit(route, { content: 'x', namespace: 'n' }, 'acc-a');
    expect(await submit(route, { content: 'x', namespace: 'n' }, 'acc-b')).toMatchObject({
      result: 'UNIQUE',
    });
    expect(await submit(route, { content: 'x', namespace: 'm' }, 'acc-a')).toMatchObject({
      result: 'UNIQUE',
    });
    expect(await submit(route, { content: 'x', namespace: 'n' }, 'acc-a')).toMatchObject({ occurrences: 2 });
    db.close();
  });

  it('counts submissions through two connections to the file as one sequence', async () => {
    const file = tempFile();
    const [db1, db2] = [openSqlite(file), openSqlite(file)];
    const [a, b] = [checkRoute(new SqliteKvStore(db1)), checkRoute(new SqliteKvStore(db2))];
    const body = { content: 'shared', namespace: 'n' };
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => submit(i % 2 ? a : b, body)));
    expect(results.filter((r) => r.result === 'UNIQUE')).toHaveLength(1);
    expect(sorted(results)).toEqual(oneToN(40));
    db1.close();
    db2.close();
  });

  it('counts exactly across three processes submitting at the same moment', async () => {
    const file = tempFile();
    // Migrate once up front, so the children race on entries, not on creating the table.
    const db = openSqlite(file);
    new SqliteKvStore(db);
    const url = (path: string) => new URL(path, import.meta.url).href;
    const child = `
      const { SqliteKvStore } = await import(${JSON.stringify(url('../../core/kv/sqlite-kv.ts'))});
      const { openSqlite } = await import(${JSON.stringify(url('../../core/db/sqlite.ts'))});
      const { createDeduplicationService } = await import(${JSON.stringify(url('../../services/deduplication/service.ts'))});
      const kv = new SqliteKvStore(openSqlite(process.argv[1]));
      const route = createDeduplicationService({ kv }).routes.find((r) => r.operationId === 'deduplicationCheck');
      const ctx = { requestId: 'r', accountId: 'acc-1', keyId: 'k', roles: [], plan: 'PRO', batchLimit: 1,
        ip: '127.0.0.1', now: () => new Date() };
      // Start together: process start-up takes longer than the work, which would otherwise run in turn.
      await new Promise((r) => setTimeout(r, Number(process.argv[2]) - Date.now()));
      const body = { content: 'across processes', namespace: 'n' };
      const results = await Promise.all(Array.from({ length: 20 }, () =>
        route.handler({ params: {}, query: {}, body, headers: {} }, ctx)));
      process.stdout.write(JSON.stringify(results));`;
    const cwd = fileURLToPath(new URL('../..', import.meta.url));
    const startAt = String(Date.now() + 3_000);
    const run = (): Promise<Result[]> =>
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
    const results = (await Promise.all([run(), run(), run()])).flat();
    expect(results.filter((r) => r.result === 'UNIQUE')).toHaveLength(1);
    expect(sorted(results)).toEqual(oneToN(60));
    expect(new Set(results.map((r) => r.firstSeen)).size).toBe(1);
    db.close();
  }, 30_000);
});
