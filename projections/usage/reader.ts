/** Usage of one account in one calendar month (UTC): calls answered 2xx, in total and per service slug. */
export interface MonthlyUsage {
  readonly used: number;
  /** Slug → 2xx calls; slugs without calls are absent. */
  readonly breakdown: Record<string, number>;
}

/** Platform-wide figures for GET /api/v1/admin/stats. Days and months are UTC. */
export interface CallStats {
  /** Every metered call answered today, whatever its status. */
  readonly callsToday: number;
  /** Every metered call answered this month, whatever its status. */
  readonly callsThisMonth: number;
  /** The most called services this month (every status), most calls first, ties by slug; ≤ TOP_SERVICES. */
  readonly topServices: { slug: string; calls: number }[];
  /** Share (0…1) of this month's calls not answered 2xx; 0 when there were none. */
  readonly errorRate: number;
}

/**
 * The usage read model's queries. Adapters: SqliteUsageReader (embedded: the metering sink's tables) and
 * ClusterUsageReader (monthly from the Redis hashes of RedisUsageProjector, stats from ClickHouse).
 * Cluster figures trail the calls by the projections' lag (normally well under a second).
 */
export interface UsageReader {
  /** `period` is `YYYY-MM`. */
  monthly(accountId: string, period: string): Promise<MonthlyUsage>;
  stats(now: Date): Promise<CallStats>;
}

export const TOP_SERVICES = 10;

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

export function checkPeriod(period: string): string {
  if (!PERIOD.test(period)) throw new RangeError(`period must be YYYY-MM, got ${JSON.stringify(period)}`);
  return period;
}

/** Bounds of the UTC day and month of `now`, as ISO strings (start inclusive, end exclusive). */
export function statsWindows(now: Date): {
  day: string;
  period: string;
  dayStart: string;
  dayEnd: string;
  monthStart: string;
  monthEnd: string;
} {
  if (!Number.isFinite(now.getTime())) throw new RangeError('now is not a valid date');
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const iso = (t: number) => new Date(t).toISOString();
  const dayStart = iso(Date.UTC(y, m, d));
  return {
    day: dayStart.slice(0, 10),
    period: dayStart.slice(0, 7),
    dayStart,
    dayEnd: iso(Date.UTC(y, m, d + 1)),
    monthStart: iso(Date.UTC(y, m, 1)),
    monthEnd: iso(Date.UTC(y, m + 1, 1)),
  };
}

/** Rows of (slug, calls) → the top list: most calls first, ties by slug, at most `limit`. */
export function topServicesOf(
  rows: readonly { slug: string; calls: number }[],
  limit = TOP_SERVICES,
): { slug: string; calls: number }[] {
  return [...rows]
    .filter((r) => r.calls > 0)
    .sort((a, b) => b.calls - a.calls || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .slice(0, limit)
    .map((r) => ({ slug: r.slug, calls: r.calls }));
}

export const errorRateOf = (errors: number, calls: number): number => (calls > 0 ? errors / calls : 0);
