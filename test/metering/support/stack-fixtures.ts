import { createClient } from '@clickhouse/client';
import type { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';

/** Polls `condition` (sync or async) every 50 ms; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 40_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Removes a run's topics and consumer groups, so repeated runs leave the shared broker as they found it. */
export async function dropKafkaPrefix(brokers: string[], prefix: string): Promise<void> {
  const admin = new Kafka({ clientId: 'tg-test-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const mine = groups.map((g) => g.groupId).filter((id) => id.startsWith(prefix));
    if (mine.length > 0) await admin.deleteGroups(mine);
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/** Deletes every key under `prefix` (SCAN, never KEYS: the Redis is shared). */
export async function deleteRedisPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}

export async function dropClickHouseDatabase(url: string, database: string): Promise<void> {
  if (!/^tg_test_[a-z0-9_]+$/.test(database)) throw new Error(`refusing to drop ${database}`);
  const client = createClient({ url });
  try {
    await client.command({ query: `DROP DATABASE IF EXISTS ${database}` });
  } finally {
    await client.close();
  }
}
