import type { ClickHouseClient } from '@clickhouse/client';
import type { Redis } from 'ioredis';
import { clickHouseDateTime, SERVICE_CALLS_TABLE } from './clickhouse.js';
import {
  type CallStats,
  checkPeriod,
  errorRateOf,
  type MonthlyUsage,
  statsWindows,
  TOP_SERVICES,
  topServicesOf,
  type UsageReader,
} from './reader.js';
import { TOTAL_FIELD, usageKey } from './redis-usage-projector.js';

export interface ClusterUsageReaderOptions {
  /** The RedisUsageProjector's key prefix. */
  readonly prefix: string;
}

/**
 * Cluster usage: an account's month from the Redis hash RedisUsageProjector keeps (one HGETALL), platform
 * stats from ClickHouse's service_calls, counted with uniqExact(event_id) so redelivered rows not merged away
 * yet never count twice. Both clients belong to the caller.
 */
export class ClusterUsageReader implements UsageReader {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly clickhouse: ClickHouseClient,
    options: ClusterUsageReaderOptions,
  ) {
    if (!options.prefix) throw new Error('ClusterUsageReader: a non-empty key prefix is required');
    this.prefix = options.prefix;
  }

  async monthly(accountId: string, period: string): Promise<MonthlyUsage> {
    const hash = await this.redis.hgetall(usageKey(this.prefix, accountId, checkPeriod(period)));
    return usageOfHash(hash);
  }

  async stats(now: Date): Promise<CallStats> {
    const w = statsWindows(now);
    // Only these computed timestamps are spliced in (18.16 has no query parameters); they are digits and
    // dashes.
    const from = `toDateTime('${clickHouseDateTime(w.monthStart)}', 'UTC')`;
    const to = `toDateTime('${clickHouseDateTime(w.monthEnd)}', 'UTC')`;
    const dayFrom = `toDateTime('${clickHouseDateTime(w.dayStart)}', 'UTC')`;
    const dayTo = `toDateTime('${clickHouseDateTime(w.dayEnd)}', 'UTC')`;
    // Per slug, so one scan of the month's partition yields every figure; UInt64 comes back quoted in JSON.
    const result = await this.clickhouse.query({
      query: `SELECT slug,
                uniqExact(event_id) AS calls,
                uniqExactIf(event_id, status < 200 OR status > 299) AS errors,
                uniqExactIf(event_id, at >= ${dayFrom} AND at < ${dayTo}) AS today
              FROM ${SERVICE_CALLS_TABLE}
              WHERE at >= ${from} AND at < ${to}
              GROUP BY slug`,
      format: 'JSONEachRow',
    });
    const rows = (await result.json<{ slug: string; calls: string; errors: string; today: string }>()).map(
      (r) => ({ slug: r.slug, calls: Number(r.calls), errors: Number(r.errors), today: Number(r.today) }),
    );
    const callsThisMonth = rows.reduce((n, r) => n + r.calls, 0);
    return {
      callsToday: rows.reduce((n, r) => n + r.today, 0),
      callsThisMonth,
      topServices: topServicesOf(rows, TOP_SERVICES),
      errorRate: errorRateOf(
        rows.reduce((n, r) => n + r.errors, 0),
        callsThisMonth,
      ),
    };
  }
}

/** A month hash (`slug → calls`, `__total`) → used and breakdown. `used` is the projector's own total. */
export function usageOfHash(hash: Readonly<Record<string, string>>): MonthlyUsage {
  const breakdown: Record<string, number> = {};
  for (const [field, value] of Object.entries(hash)) {
    if (field === TOTAL_FIELD) continue;
    const n = Number(value);
    if (n > 0) breakdown[field] = n;
  }
  return { used: Number(hash[TOTAL_FIELD] ?? 0), breakdown };
}
