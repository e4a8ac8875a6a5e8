import { createClient } from '@clickhouse/client';
import { Redis } from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import { createTestDatabase, stackEnv, uniqueName } from '../support/stack.js';
import { startToolgate, type Toolgate, tempDir } from './harness.js';

export interface Cluster {
  readonly env: Record<string, string>;
  /** `start` (every role) and a second `gateway`, sharing PostgreSQL, Kafka, Redis and ClickHouse. */
  readonly processes: Toolgate[];
  startGateway(): Promise<Toolgate>;
  stop(): Promise<void>;
}

/** A cluster deployment of real processes on fresh names: database, topics, Redis prefix, ClickHouse database. */
export async function startCluster(extraEnv: Record<string, string>): Promise<Cluster> {
  const stack = stackEnv();
  const name = uniqueName('tgacc');
  const db = await createTestDatabase();
  const dir = tempDir();
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    KAFKA_BROKERS: stack.kafkaBrokers.join(','),
    REDIS_URL: stack.redisUrl,
    CLICKHOUSE_URL: `${stack.clickhouseUrl.replace(/\/$/, '')}/${name}`,
    KAFKA_TOPIC_PREFIX: `${name}.`,
    REDIS_PREFIX: `${name}:`,
    DATA_DIR: dir.path,
    ...extraEnv,
  };
  const processes: Toolgate[] = [];
  const cleanup = async () => {
    for (const p of processes) await p.stop().catch(() => {});
    await db.drop().catch(() => {});
    const admin = new Kafka({
      clientId: 'cleanup',
      brokers: stack.kafkaBrokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${name}.`));
    if (topics.length) await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
    const redis = new Redis(stack.redisUrl);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${name}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    const ch = createClient({ url: stack.clickhouseUrl });
    await ch.command({ query: `DROP DATABASE IF EXISTS ${name}` }).catch(() => {});
    await ch.close();
    dir.remove();
  };
  try {
    processes.push(await startToolgate('start', env));
    processes.push(await startToolgate('gateway', env));
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    env,
    processes,
    startGateway: async () => {
      const g = await startToolgate('gateway', env);
      processes.push(g);
      return g;
    },
    stop: cleanup,
  };
}
