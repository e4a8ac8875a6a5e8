import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ClickHouseClient } from '@clickhouse/client';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../../core/bus/bus.js';
import { KafkaBus, type KafkaBusLogEntry } from '../../core/bus/kafka-bus.js';
import type { StoredEvent } from '../../core/events/envelope.js';
import { newId } from '../../core/ids.js';
import { KafkaMeteringSink } from '../../core/metering/kafka-metering-sink.js';
import {
  isCounted,
  newServiceCall,
  periodOf,
  type ServiceCall,
  toEvent,
} from '../../core/metering/service-call.js';
import { ClickHouseMigrator, openClickHouse } from '../../projections/usage/clickhouse.js';
import { ClickHouseCallsProjector } from '../../projections/usage/clickhouse-calls-projector.js';
import { ClusterUsageReader } from '../../projections/usage/cluster-usage-reader.js';
import { RedisUsageProjector, usageKey } from '../../projections/usage/redis-usage-projector.js';
import { stackEnv, uniqueName } from '../support/stack.js';
import {
  deleteRedisPrefix,
  dropClickHouseDatabase,
  dropKafkaPrefix,
  waitFor,
} from './support/stack-fixtures.js';

const ACCOUNTS = [newId(), newId(), newId(), newId()];
const SLUGS = ['captcha', 'cron', 'dns-checker', 'ip-geolocation', 'screenshot'];
const STATUSES = [200, 200, 201, 204, 400, 404, 429, 500, 503, 200];
const NOW = new Date('2024-05-20T12:00:00.000Z');
// Today, earlier this month, last month: every window of the stats is exercised.
const TIMES = [
  '2024-05-20T00:00:00.000Z',
  '2024-05-20T11:59:59.999Z',
  '2024-05-19T23:59:59.999Z',
  '2024-05-01T00:00:00.000Z',
  '2024-04-30T23:59:59.999Z',
];

function makeCalls(n: number): ServiceCall[] {
  return Array.from({ length: n }, (_, i) =>
    newServiceCall({
      accountId: ACCOUNTS[i % ACCOUNTS.length]!,
      keyId: `key${i % 5}`,
      slug: SLUGS[(i * 3) % SLUGS.length]!,
      operationId: 'doIt',
      convention: (['S', 'R', 'D'] as const)[i % 3]!,
      status: STATUSES[(i * 7) % STATUSES.length]!,
      latencyMs: (i % 100) + 0.5,
      at: TIMES[(i * 11) % TIMES.length]!,
    }),
  );
}

function expectedMonthly(calls: readonly ServiceCall[], accountId: string, period: string) {
  const breakdown: Record<string, number> = {};
  for (const c of calls) {
    if (c.accountId !== accountId || periodOf(c.at) !== period || !isCounted(c.status)) continue;
    breakdown[c.slug] = (breakdown[c.slug] ?? 0) + 1;
  }
  return { used: Object.values(breakdown).reduce((a, b) => a + b, 0), breakdown };
}

function expectedStats(calls: readonly ServiceCall[]) {
  const month = calls.filter((c) => periodOf(c.at) === '2024-05');
  const perSlug = new Map<string, number>();
  for (const c of month) perSlug.set(c.slug, (perSlug.get(c.slug) ?? 0) + 1);
  return {
    callsToday: calls.filter((c) => c.at.startsWith('2024-05-20')).length,
    callsThisMonth: month.length,
    topServices: [...perSlug]
      .map(([slug, n]) => ({ slug, calls: n }))
      .sort((a, b) => b.calls - a.calls || a.slug.localeCompare(b.slug)),
    errorRate: month.filter((c) => !isCounted(c.status)).length / month.length,
  };
}

/** A KafkaBus on fresh `calls` topics, with consumer timings short enough for tests. */
function openBus(topicPrefix: string, logs: KafkaBusLogEntry[]): Promise<KafkaBus> {
  return KafkaBus.open({
    brokers: stackEnv().kafkaBrokers,
    clientId: 'tg-test-metering',
    topicPrefix,
    partitions: 3,
    replicationFactor: 1,
    contexts: ['calls'],
    onLog: (entry) => {
      logs.push(entry);
    },
    consumer: {
      sessionTimeout: 6000,
      rebalanceTimeout: 6000,
      heartbeatInterval: 500,
      maxWaitTimeInMs: 100,
      retryMs: 200,
    },
  });
}

describe('cluster metering: KafkaMeteringSink → Kafka → Redis usage + ClickHouse service_calls', () => {
  const env = stackEnv();
  const topicPrefix = `${uniqueName('tgtest')}.`;
  const redisPrefix = `${uniqueName('tgtest')}:`;
  const database = uniqueName('tg_test');
  const logs: KafkaBusLogEntry[] = [];
  const skipped: string[] = [];
  const subscriptions: Subscription[] = [];
  let bus: KafkaBus;
  let redis: Redis;
  let clickhouse: ClickHouseClient;
  let sink: KafkaMeteringSink;
  let usage: RedisUsageProjector;
  let calls: ClickHouseCallsProjector;
  let reader: ClusterUsageReader;
  let sent: ServiceCall[] = [];

  beforeAll(async () => {
    // KafkaBus offers subscribeBatch, so the ClickHouse projector inserts whole fetched batches.
    bus = await openBus(topicPrefix, logs);
    redis = new Redis(env.redisUrl);
    expect(await new ClickHouseMigrator({ url: env.clickhouseUrl, database }).migrate()).toEqual([
      '001_service_calls.sql',
    ]);
    // Applying again changes nothing: every start of every role runs the migrator.
    await new ClickHouseMigrator({ url: env.clickhouseUrl, database }).migrate();
    clickhouse = openClickHouse(env.clickhouseUrl, { database });
    sink = new KafkaMeteringSink(bus);
    const onSkip = (e: StoredEvent, reason: string) => {
      skipped.push(`${e.eventId}: ${reason}`);
    };
    usage = new RedisUsageProjector(redis, { prefix: redisPrefix, onSkip });
    calls = new ClickHouseCallsProjector(clickhouse, { onSkip });
    reader = new ClusterUsageReader(redis, clickhouse, { prefix: redisPrefix });
  });

  afterAll(async () => {
    await Promise.allSettled(subscriptions.map((s) => s.stop()));
    await sink?.close();
    await calls?.close();
    await bus?.close();
    await clickhouse?.close();
    await dropClickHouseDatabase(env.clickhouseUrl, database);
    if (redis) {
      await deleteRedisPrefix(redis, redisPrefix);
      redis.disconnect();
    }
    await dropKafkaPrefix(env.kafkaBrokers, topicPrefix);
    for (const cleanup of cleanups) await cleanup();
  });

  const cleanups: (() => Promise<void>)[] = [];

  const clickHouseCounts = async () => {
    const rows = await (
      await clickhouse.query({
        query: 'SELECT count() AS rows, uniqExact(event_id) AS calls FROM service_calls',
        format: 'JSONEachRow',
      })
    ).json<{ rows: string; calls: string }>();
    return { rows: Number(rows[0]!.rows), calls: Number(rows[0]!.calls) };
  };

  it('counts 1,000 concurrent calls exactly, and duplicate delivery changes no figure', async () => {
    subscriptions.push(await usage.subscribe(bus));
    subscriptions.push(await calls.subscribe(bus));

    sent = makeCalls(1000);
    const started = performance.now();
    await Promise.all(
      sent.map(async (c, i) => {
        for (let t = 0; t < (i * 13) % 40; t++) await nextTurn();
        await sink.record(c);
      }),
    );
    const sinkStats = sink.stats();
    console.info(
      `group commit (Kafka): 1000 calls acknowledged in ${(performance.now() - started).toFixed(0)} ms, ` +
        `${sinkStats.batches} produce requests, largest batch ${sinkStats.largestBatch}`,
    );
    expect(sinkStats).toMatchObject({ items: 1000, failedBatches: 0 });
    expect(sinkStats.batches).toBeLessThanOrEqual(100);

    await waitFor(() => usage.stats().fresh === 1000, 'Redis to count 1000 calls');
    await waitFor(async () => (await clickHouseCounts()).calls === 1000, 'ClickHouse to hold 1000 calls');
    const firstPass = calls.stats();
    console.info(
      `ClickHouse projector: ${firstPass.items} rows in ${firstPass.batches} inserts, largest ` +
        `${firstPass.largestBatch}, ${(performance.now() - started).toFixed(0)} ms after the first record()`,
    );

    const check = async () => {
      for (const account of ACCOUNTS) {
        for (const period of ['2024-04', '2024-05', '2024-06']) {
          expect(await reader.monthly(account, period)).toEqual(expectedMonthly(sent, account, period));
        }
      }
      expect(await reader.stats(NOW)).toEqual(expectedStats(sent));
    };
    await check();
    expect(usage.stats()).toEqual({ fresh: 1000, repeats: 0, skipped: 0 });
    // The month hash expires (about 400 days), so old months do not pile up in Redis.
    const ttl = await redis.ttl(usageKey(redisPrefix, ACCOUNTS[0]!, '2024-05'));
    expect(ttl).toBeGreaterThan(399 * 24 * 3600);

    // Duplicate delivery: the same events published again (as a producer retry or a relay replay would).
    const events = sent.map((c) => toEvent(c));
    for (let i = 0; i < events.length; i += 250) await bus.publish(events.slice(i, i + 250));
    await waitFor(() => usage.stats().repeats === 1000, 'Redis to see the 1000 duplicates');
    await waitFor(() => calls.stats().items === 2000, 'ClickHouse to receive the 1000 duplicates');
    expect(calls.stats().largestBatch).toBeGreaterThan(50);
    await check();
    expect(usage.stats()).toEqual({ fresh: 1000, repeats: 1000, skipped: 0 });
    const counts = await clickHouseCounts();
    expect(counts.calls).toBe(1000);
    // The duplicates really are there until merged (or collapse already): only uniqExact kept the figures
    // right.
    expect(counts.rows).toBeGreaterThanOrEqual(1000);
    await clickhouse.command({ query: 'OPTIMIZE TABLE service_calls FINAL' });
    expect(await clickHouseCounts()).toEqual({ rows: 1000, calls: 1000 });
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a replay through a fresh consumer group counts nothing again', async () => {
    const replay = new RedisUsageProjector(redis, {
      prefix: redisPrefix,
      onSkip: (e, reason) => {
        skipped.push(`${e.eventId}: ${reason}`);
      },
    });
    subscriptions.push(await replay.subscribe(bus, { group: 'usage-replay' }));
    await waitFor(() => replay.stats().repeats === 2000, 'the replay to read both deliveries');
    expect(replay.stats()).toEqual({ fresh: 0, repeats: 2000, skipped: 0 });
    let total = 0;
    for (const account of ACCOUNTS) total += (await reader.monthly(account, '2024-05')).used;
    for (const account of ACCOUNTS) total += (await reader.monthly(account, '2024-04')).used;
    expect(total).toBe(sent.filter((c) => isCounted(c.status)).length);
    expect(total).toBe(500); // half the statuses of makeCalls are 2xx
  });

  it('skips a malformed ServiceCalled event instead of blocking the calls behind it', async () => {
    const account = newId();
    const good = newServiceCall({
      accountId: account,
      keyId: 'k',
      slug: 'cron',
      operationId: 'op',
      convention: 'R',
      status: 200,
      latencyMs: 1,
      at: '2024-05-20T10:00:00.000Z',
    });
    const bad = { ...toEvent({ ...good, eventId: newId() }), data: { ...toEvent(good).data, status: 'OK' } };
    await bus.publish([bad]);
    await sink.record(good);
    await waitFor(async () => (await reader.monthly(account, '2024-05')).used === 1, 'the good call counted');
    await waitFor(async () => (await clickHouseCounts()).calls === 1001, 'the good call in ClickHouse');
    // Skipped by each subscriber: usage, clickhouse-calls and usage-replay.
    expect(skipped.filter((s) => s.startsWith(bad.eventId))).toHaveLength(3);
    expect(skipped.every((s) => /status: invalid/.test(s))).toBe(true);
  });

  it('rejects every record() of a publish that fails', async () => {
    const closed = await openBus(topicPrefix, []);
    const doomed = new KafkaMeteringSink(closed);
    await closed.close();
    const results = await Promise.allSettled(makeCalls(5).map((c) => doomed.record(c)));
    expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect(doomed.stats()).toMatchObject({ batches: 0, failedBatches: 1 });
  });
});
