import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLICKHOUSE_DDL_DIR,
  checkIdentifier,
  clickHouseDateTime,
  clickHouseTarget,
  serviceCallRow,
  splitStatements,
} from './clickhouse.js';
import { usageOfHash } from './cluster-usage-reader.js';
import { checkPeriod, errorRateOf, statsWindows, topServicesOf } from './reader.js';
import { seenKey, usageKey } from './redis-usage-projector.js';

describe('usage windows and figures', () => {
  it('cuts the UTC day and month of an instant, across a year end', () => {
    expect(statsWindows(new Date('2024-12-31T23:59:59.999Z'))).toEqual({
      day: '2024-12-31',
      period: '2024-12',
      dayStart: '2024-12-31T00:00:00.000Z',
      dayEnd: '2025-01-01T00:00:00.000Z',
      monthStart: '2024-12-01T00:00:00.000Z',
      monthEnd: '2025-01-01T00:00:00.000Z',
    });
    expect(statsWindows(new Date('2024-03-01T00:30:00+01:00')).period).toBe('2024-02');
    expect(() => statsWindows(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('ranks services by calls, ties by slug, drops empty ones, keeps the top N', () => {
    const rows = [
      { slug: 'captcha', calls: 5 },
      { slug: 'cron', calls: 9 },
      { slug: 'dns-checker', calls: 5 },
      { slug: 'file-type', calls: 0 },
      { slug: 'ip-geolocation', calls: 1 },
    ];
    expect(topServicesOf(rows, 3)).toEqual([
      { slug: 'cron', calls: 9 },
      { slug: 'captcha', calls: 5 },
      { slug: 'dns-checker', calls: 5 },
    ]);
    expect(topServicesOf(rows).map((r) => r.slug)).toEqual([
      'cron',
      'captcha',
      'dns-checker',
      'ip-geolocation',
    ]);
  });

  it('computes error rates without dividing by zero, and checks periods', () => {
    expect(errorRateOf(1, 4)).toBe(0.25);
    expect(errorRateOf(0, 0)).toBe(0);
    expect(checkPeriod('2024-05')).toBe('2024-05');
    for (const bad of ['2024-5', '2024-13', '2024-05-01', "2024-05'"])
      expect(() => checkPeriod(bad)).toThrow();
  });

  it('reads a Redis month hash: the total is its own field, slugs are the rest', () => {
    expect(usageOfHash({ __total: '5', captcha: '3', cron: '2' })).toEqual({
      used: 5,
      breakdown: { captcha: 3, cron: 2 },
    });
    expect(usageOfHash({})).toEqual({ used: 0, breakdown: {} });
  });

  it('keeps the keys of an account in one Redis Cluster slot', () => {
    const a = '0190a1b2-0000-7000-8000-000000000001';
    expect(usageKey('tg:', a, '2024-05')).toBe(`tg:usage:{${a}}:2024-05`);
    expect(seenKey('tg:', a, 'e1')).toBe(`tg:seen:{${a}}:e1`);
  });
});

describe('ClickHouse plumbing', () => {
  it('takes the database from the URL path and keeps credentials', () => {
    expect(clickHouseTarget('http://u:p@127.0.0.1:8123/analytics')).toEqual({
      url: 'http://u:p@127.0.0.1:8123/',
      database: 'analytics',
    });
    expect(clickHouseTarget('http://127.0.0.1:8123').database).toBe('default');
    expect(() => clickHouseTarget('http://127.0.0.1:8123/a;DROP')).toThrow(/identifier/);
    expect(() => checkIdentifier('tg_test_1')).not.toThrow();
    expect(() => checkIdentifier('x y')).toThrow();
  });

  it('maps a call to a row with a UTC DateTime', () => {
    expect(clickHouseDateTime('2024-05-31T23:59:59.999Z')).toBe('2024-05-31 23:59:59');
    expect(
      serviceCallRow({
        eventId: 'e',
        accountId: 'a',
        keyId: 'k',
        slug: 'cron',
        operationId: 'op',
        convention: 'D',
        status: 503,
        latencyMs: 12.5,
        at: '2024-01-02T03:04:05.678Z',
      }),
    ).toEqual({
      event_id: 'e',
      at: '2024-01-02 03:04:05',
      account_id: 'a',
      key_id: 'k',
      slug: 'cron',
      operation_id: 'op',
      convention: 'D',
      status: 503,
      latency_ms: 12.5,
    });
  });

  it('splits the shipped DDL into idempotent statements', () => {
    const sql = readFileSync(join(CLICKHOUSE_DDL_DIR, '001_service_calls.sql'), 'utf8');
    const statements = splitStatements(sql);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^CREATE TABLE IF NOT EXISTS service_calls\s*\(/);
    expect(statements[0]).toContain('ENGINE = ReplacingMergeTree()');
    expect(splitStatements('-- c\nCREATE A;\n\nCREATE B;')).toEqual(['CREATE A', 'CREATE B']);
  });
});
