import type { SqlDb } from '../../core/sql/sql-db.js';
import type { IpChecked } from '../../services/ip-reputation/events.js';

/** Reports on one address within a window, aggregated. */
export interface ReportSummary {
  readonly reports: number;
  /** Each distinct reporter once, with its most recent report. */
  readonly reporters: readonly { readonly accountId: string; readonly reportedAt: string }[];
  readonly categories: readonly string[];
  readonly lastReportedAt: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Most recent reports read per address: bounds the work a heavily reported address costs a check. */
const MAX_REPORTS = 2_000;

export class ReputationReader {
  constructor(private readonly db: SqlDb) {}

  /** Reports on `ip` made at or after `since` (ISO-8601 UTC; compared in JS, not as text in SQL). */
  async reports(ip: string, since: Date): Promise<ReportSummary> {
    const rows = await this.db.query<{ account_id: string; categories: string; reported_at: string }>(
      `SELECT account_id, categories, reported_at FROM rm_ip_reports WHERE ip = $1
       ORDER BY reported_at DESC LIMIT ${MAX_REPORTS}`,
      [ip],
    );
    const from = since.getTime();
    const latest = new Map<string, string>();
    const categories = new Set<string>();
    let reports = 0;
    let last: number | null = null;
    for (const r of rows) {
      const at = Date.parse(r.reported_at);
      if (at < from) continue;
      reports++;
      const seen = latest.get(r.account_id);
      if (!seen || Date.parse(seen) < at) latest.set(r.account_id, r.reported_at);
      for (const c of r.categories.split(',')) if (c) categories.add(c);
      if (last === null || at > last) last = at;
    }
    return {
      reports,
      reporters: [...latest].map(([accountId, reportedAt]) => ({ accountId, reportedAt })),
      categories: [...categories].sort(),
      lastReportedAt: last === null ? null : new Date(last).toISOString(),
    };
  }

  /** The account's latest check of `ip`, or null when it never checked it. */
  async lastCheck(accountId: string, ip: string): Promise<IpChecked | null> {
    const [row] = await this.db.query<{ result: string }>(
      'SELECT result FROM rm_ip_checks WHERE account_id = $1 AND ip = $2',
      [accountId, ip],
    );
    return row ? (JSON.parse(row.result) as IpChecked) : null;
  }

  /** Waits until the stream's events up to `version` are applied; false after `timeoutMs`. */
  async waitForVersion(streamId: string, version: number, timeoutMs = 2_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      const [row] = await this.db.query<{ version: number }>(
        'SELECT version FROM rm_ip_streams WHERE stream_id = $1',
        [streamId],
      );
      if (Number(row?.version ?? 0) >= version) return true;
      if (Date.now() >= deadline) return false;
      await sleep(pause);
    }
  }
}
