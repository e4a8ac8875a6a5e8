import type { SqliteDatabase } from '../../core/db/sqlite.js';
import {
  type CallStats,
  checkPeriod,
  errorRateOf,
  type MonthlyUsage,
  statsWindows,
  topServicesOf,
  type UsageReader,
} from './reader.js';

/**
 * Embedded usage: reads the tables SqliteMeteringSink writes (usage_monthly, service_calls), on its
 * connection or another one to the same file. Exact as soon as record() resolved, since the counters commit
 * with the calls.
 */
export class SqliteUsageReader implements UsageReader {
  private readonly byAccount;
  private readonly callsOfDay;
  private readonly callsOfMonth;

  constructor(db: SqliteDatabase) {
    this.byAccount = db.prepare<[string, string], { slug: string; calls: number }>(
      'SELECT slug, calls FROM usage_monthly WHERE account_id = ? AND period = ? AND calls > 0',
    );
    this.callsOfDay = db.prepare<[string], { calls: number }>(
      'SELECT COUNT(*) AS calls FROM service_calls WHERE day = ?',
    );
    this.callsOfMonth = db.prepare<[string], { slug: string; calls: number; errors: number }>(
      `SELECT slug, COUNT(*) AS calls, SUM(CASE WHEN status BETWEEN 200 AND 299 THEN 0 ELSE 1 END) AS errors
       FROM service_calls WHERE period = ? GROUP BY slug`,
    );
  }

  async monthly(accountId: string, period: string): Promise<MonthlyUsage> {
    const rows = this.byAccount.all(accountId, checkPeriod(period));
    const breakdown: Record<string, number> = {};
    let used = 0;
    for (const r of rows) {
      breakdown[r.slug] = r.calls;
      used += r.calls;
    }
    return { used, breakdown };
  }

  async stats(now: Date): Promise<CallStats> {
    const w = statsWindows(now);
    const perSlug = this.callsOfMonth.all(w.period);
    const callsThisMonth = perSlug.reduce((n, r) => n + r.calls, 0);
    const errors = perSlug.reduce((n, r) => n + r.errors, 0);
    return {
      callsToday: this.callsOfDay.get(w.day)?.calls ?? 0,
      callsThisMonth,
      topServices: topServicesOf(perSlug),
      errorRate: errorRateOf(errors, callsThisMonth),
    };
  }
}
