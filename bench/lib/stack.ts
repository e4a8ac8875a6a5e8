import { createClient } from '@clickhouse/client';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';

/**
 * Throwaway resources on the local stack (deploy/local/up.sh) for one benchmark run, each with its removal.
 * Names always start with `tgbench_`, and nothing is removed that does not.
 */
const BENCH_NAME = /^tgbench_[a-z0-9_]+$/;

const checkName = (name: string): string => {
  if (!BENCH_NAME.test(name)) throw new Error(`refusing a resource not named tgbench_…: ${name}`);
  return name;
};

/** Creates database `name` on the server of `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${checkName(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Deletes the consumer groups and topics whose names start with `prefix`. */
export async function dropKafkaPrefix(brokers: readonly string[], prefix: string): Promise<void> {
  checkName(prefix.replace(/[.:]$/, ''));
  const admin = new Kafka({
    clientId: 'tgbench-cleanup',
    brokers: [...brokers],
    logLevel: logLevel.NOTHING,
  }).admin();
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

/** Deletes every key under `prefix` (SCAN, never KEYS: the Redis is shared); returns how many. */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<number> {
  checkName(prefix.replace(/[.:]$/, ''));
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export async function dropClickHouseDatabase(url: string, name: string): Promise<void> {
  const client = createClient({ url });
  try {
    await client.command({ query: `DROP DATABASE IF EXISTS ${checkName(name)}` });
  } finally {
    await client.close();
  }
}
