import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../core/db/sqlite.js';
import { newId } from '../../core/ids.js';
import {
  InvalidServiceCallError,
  isCounted,
  newServiceCall,
  periodOf,
  type ServiceCall,
} from '../../core/metering/service-call.js';
import { SqliteMeteringSink } from '../../core/metering/sqlite-metering-sink.js';
import { SqliteUsageReader } from '../../projections/usage/sqlite-usage-reader.js';

const ACCOUNTS = [newId(), newId(), newId()];
const SLUGS = ['captcha', 'cron', 'dns-checker', 'ip-geolocation'];
const STATUSES = [200, 201, 204, 299, 302, 400, 404, 429, 500, 503];

function call(i: number, at = '2024-05-15T10:00:00.000Z'): ServiceCall {
  return newServiceCall({
    accountId: ACCOUNTS[i % ACCOUNTS.length]!,
    keyId: `key${i % 7}`,
    slug: SLUGS[i % SLUGS.length]!,
    operationId: 'doIt',
    convention: (['S', 'R', 'D'] as const)[i % 3]!,
    status: STATUSES[(i * 7) % STATUSES.length]!,
    latencyMs: i % 50,
    at,
  });
}

/** Expected usage_monthly rows: 2xx calls per account, period and slug. */
function expectedUsage(calls: readonly ServiceCall[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of calls) {
    if (!isCounted(c.status)) continue;
    const k = `${c.accountId}|${periodOf(c.at)}|${c.slug}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

function usageRows(db: SqliteDatabase): Record<string, number> {
  const rows = db.prepare('SELECT account_id, period, slug, calls FROM usage_monthly').all() as {
    account_id: string;
    period: string;
    slug: string;
    calls: number;
  }[];
  return Object.fromEntries(rows.map((r) => [`${r.account_id}|${r.period}|${r.slug}`, r.calls]));
}

/**
 * Counts executed transactions independently of the sink's own figures: the sink builds its transaction
 * function once through db.transaction(), and this wrapper counts every run of what that returns.
 */
function countTransactions(db: SqliteDatabase): { db: SqliteDatabase; count: () => number } {
  let runs = 0;
  const proxy = new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') {
        return (fn: (...args: unknown[]) => unknown) => {
          const tx = target.transaction(fn);
          const count = <T>(run: () => T): T => {
            runs++;
            return run();
          };
          return Object.assign((...a: unknown[]) => count(() => tx(...a)), {
            deferred: (...a: unknown[]) => count(() => tx.deferred(...a)),
            immediate: (...a: unknown[]) => count(() => tx.immediate(...a)),
            exclusive: (...a: unknown[]) => count(() => tx.exclusive(...a)),
          });
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, count: () => runs };
}

describe('SqliteMeteringSink + SqliteUsageReader', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tg-metering-'));
    file = join(dir, 'metering.db');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts 1,000 concurrent calls exactly, in far fewer transactions than calls', async () => {
    const db = openSqlite(file);
    const counting = countTransactions(db);
    const sink = new SqliteMeteringSink(counting.db);
    const migrationRuns = counting.count();
    const reader = new SqliteUsageReader(db);
    const observer = new Database(file, { readonly: true });
    // Month boundary included: a call at the last millisecond of April belongs to April.
    const calls = Array.from({ length: 1000 }, (_, i) =>
      call(
        i,
        i % 10 === 0 ? '2024-04-30T23:59:59.999Z' : i % 10 === 1 ? '2024-05-01T00:00:00.000Z' : undefined,
      ),
    );
    const isVisible = observer.prepare('SELECT 1 FROM service_calls WHERE event_id = ?');
    let resolvedUnseen = 0;
    // Concurrent requests arriving over many event-loop turns, as they do through an HTTP server.
    await Promise.all(
      calls.map(async (c, i) => {
        for (let t = 0; t < (i * 13) % 40; t++) await nextTurn();
        await sink.record(c);
        if (!isVisible.get(c.eventId)) resolvedUnseen++;
      }),
    );
    expect(resolvedUnseen).toBe(0);
    const expected = expectedUsage(calls);
    expect(usageRows(db)).toEqual(expected);
    expect(Object.values(expected).reduce((a, b) => a + b, 0)).toBe(400);
    for (const account of ACCOUNTS) {
      for (const period of ['2024-04', '2024-05']) {
        const breakdown: Record<string, number> = {};
        for (const [k, n] of Object.entries(expected)) {
          const [a, p, slug] = k.split('|');
          if (a === account && p === period) breakdown[slug!] = n;
        }
        const used = Object.values(breakdown).reduce((a, b) => a + b, 0);
        expect(await reader.monthly(account, period)).toEqual({ used, breakdown });
      }
    }
    expect(db.prepare('SELECT COUNT(*) AS n FROM service_calls').get()).toEqual({ n: 1000 });
    const transactions = counting.count() - migrationRuns;
    const stats = sink.stats();
    console.info(
      `group commit (SQLite): 1000 calls in ${transactions} transactions, ` +
        `largest batch ${stats.largestBatch}, mean ${(1000 / transactions).toFixed(1)}`,
    );
    expect(stats).toMatchObject({ batches: transactions, items: 1000, failedBatches: 0, pending: 0 });
    expect(transactions).toBeLessThanOrEqual(100);
    observer.close();
    await sink.close();
    db.close();
  });

  it('resolves record() only once a fresh connection sees the call and its count', async () => {
    const sink = SqliteMeteringSink.open(file);
    const checks = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const c = call(i * 10); // status 200
        await sink.record(c);
        const fresh = new Database(file, { readonly: true });
        try {
          const row = fresh.prepare('SELECT status FROM service_calls WHERE event_id = ?').get(c.eventId);
          const usage = fresh
            .prepare('SELECT calls FROM usage_monthly WHERE account_id = ? AND period = ? AND slug = ?')
            .get(c.accountId, '2024-05', c.slug) as { calls: number } | undefined;
          return row !== undefined && (usage?.calls ?? 0) > 0;
        } finally {
          fresh.close();
        }
      }),
    );
    expect(checks.every(Boolean)).toBe(true);
    await sink.close();
  });

  it('counts a call recorded twice (same batch, later batch, after a restart) once', async () => {
    let sink = SqliteMeteringSink.open(file);
    const c = call(0);
    await Promise.all([sink.record(c), sink.record(c)]);
    await sink.record(c);
    await sink.close();
    sink = SqliteMeteringSink.open(file);
    await sink.record(c);
    const reader = new SqliteUsageReader(sink.database);
    expect(await reader.monthly(c.accountId, '2024-05')).toEqual({ used: 1, breakdown: { [c.slug]: 1 } });
    expect(sink.database.prepare('SELECT COUNT(*) AS n FROM service_calls').get()).toEqual({ n: 1 });
    await sink.close();
  });

  it('refuses a malformed call alone, and fails a batch atomically when its transaction fails', async () => {
    const sink = SqliteMeteringSink.open(file);
    const good = call(0);
    const results = await Promise.allSettled([sink.record(good), sink.record({ ...good, eventId: 'nope' })]);
    expect(results[0]!.status).toBe('fulfilled');
    expect(results[1]!.status === 'rejected' && results[1].reason).toBeInstanceOf(InvalidServiceCallError);

    // Another connection breaks the counter table: the batch's inserts must roll back with its failed upsert.
    const other = new Database(file);
    other.exec('ALTER TABLE usage_monthly RENAME TO usage_monthly_away');
    const batch = [call(10), call(20), call(30)];
    const failed = await Promise.allSettled(batch.map((c) => sink.record(c)));
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(other.prepare('SELECT COUNT(*) AS n FROM service_calls').get()).toEqual({ n: 1 });
    other.exec('ALTER TABLE usage_monthly_away RENAME TO usage_monthly');
    await Promise.all(batch.map((c) => sink.record(c)));
    expect(other.prepare('SELECT SUM(calls) AS n FROM usage_monthly').get()).toEqual({ n: 4 });
    other.close();
    expect(sink.stats().failedBatches).toBe(1);
    await sink.close();
    await expect(sink.record(call(40))).rejects.toThrow(/closed/);
  });

  it('answers the admin figures: today, this month, top services, error rate', async () => {
    const sink = SqliteMeteringSink.open(file);
    const reader = new SqliteUsageReader(sink.database);
    const now = new Date('2024-05-20T12:00:00.000Z');
    const at = (iso: string, slug: string, status: number) =>
      newServiceCall({
        accountId: ACCOUNTS[0]!,
        keyId: 'k',
        slug,
        operationId: 'op',
        convention: 'S',
        status,
        latencyMs: 1,
        at: iso,
      });
    const calls = [
      at('2024-05-20T00:00:00.000Z', 'cron', 200),
      at('2024-05-20T23:59:59.999Z', 'cron', 500),
      at('2024-05-20T08:00:00.000Z', 'captcha', 200),
      at('2024-05-19T23:59:59.999Z', 'captcha', 429),
      at('2024-05-01T00:00:00.000Z', 'dns-checker', 200),
      at('2024-04-30T23:59:59.999Z', 'cron', 200),
      at('2024-06-01T00:00:00.000Z', 'cron', 200),
    ];
    await Promise.all(calls.map((c) => sink.record(c)));
    expect(await reader.stats(now)).toEqual({
      callsToday: 3,
      callsThisMonth: 5,
      topServices: [
        { slug: 'captcha', calls: 2 },
        { slug: 'cron', calls: 2 },
        { slug: 'dns-checker', calls: 1 },
      ],
      errorRate: 2 / 5,
    });
    expect(await reader.stats(new Date('2023-01-01T00:00:00.000Z'))).toEqual({
      callsToday: 0,
      callsThisMonth: 0,
      topServices: [],
      errorRate: 0,
    });
    await sink.close();
  });

  it('keeps every acknowledged call, counted once, when the process is SIGKILLed mid-load', async () => {
    const account = newId();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'support', 'record-child.ts'), file, account],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const acked = new Map<string, number>();
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, sig) => resolve(sig)),
    );
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const [kind, id, status] = line.split(' ');
        if (kind !== 'ack') return;
        acked.set(id!, Number(status));
        if (acked.size === 2000) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      void exited.then(() => resolve());
    });
    expect(await exited).toBe('SIGKILL');
    expect(acked.size).toBeGreaterThanOrEqual(2000);

    const db = new Database(file, { readonly: true });
    const stored = new Map(
      (
        db.prepare('SELECT event_id, status FROM service_calls').all() as {
          event_id: string;
          status: number;
        }[]
      ).map((r) => [r.event_id, r.status]),
    );
    const missing = [...acked.keys()].filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    // Calls in flight at the kill may be stored without having been acknowledged, never the other way round;
    // and the counters match the stored rows exactly: no batch is half committed.
    const counted2xx = [...stored.values()].filter(isCounted).length;
    const used = (
      db.prepare('SELECT SUM(calls) AS n FROM usage_monthly WHERE account_id = ?').get(account) as {
        n: number;
      }
    ).n;
    expect(used).toBe(counted2xx);
    expect(used).toBeGreaterThanOrEqual([...acked.values()].filter(isCounted).length);
    console.info(`SIGKILL: ${acked.size} acknowledged, ${stored.size} stored, ${used} counted 2xx`);
    db.close();
  });
});
