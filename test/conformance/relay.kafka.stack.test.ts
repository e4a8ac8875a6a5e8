import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../../core/bus/bus.js';
import { KafkaBus } from '../../core/bus/kafka-bus.js';
import { Relay } from '../../core/bus/relay.js';
import type { CheckpointStore } from '../../core/checkpoints/checkpoints.js';
import { SqliteCheckpointStore } from '../../core/checkpoints/sqlite-checkpoints.js';
import { openSqlite, type SqliteDatabase } from '../../core/db/sqlite.js';
import { SqliteEventStore } from '../../core/events/sqlite-event-store.js';
import { newId } from '../../core/ids.js';
import { stackEnv, uniqueName } from '../support/stack.js';
import { testEvents, waitFor } from './bus.contract.js';

/** Removes a run's topics and consumer groups, so repeated runs leave the shared broker as they found it. */
async function dropKafkaPrefix(brokers: string[], prefix: string): Promise<void> {
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

/** A relay "killed" between publishing and saving its checkpoint: the first save throws. */
class CrashOnFirstSave implements CheckpointStore {
  crashes = 0;
  constructor(private readonly inner: CheckpointStore) {}
  load(name: string) {
    return this.inner.load(name);
  }
  async save(name: string, position: number) {
    if (this.crashes === 0) {
      this.crashes++;
      throw new Error('simulated crash after publish, before checkpoint');
    }
    return this.inner.save(name, position);
  }
  list() {
    return this.inner.list();
  }
  reset(name: string) {
    return this.inner.reset(name);
  }
}

/** A read model that dedupes by (stream, version) in the same transaction as the effect it applies. */
function dedupingReadModel(db: SqliteDatabase) {
  db.exec(`CREATE TABLE applied (stream_id TEXT NOT NULL, stream_version INTEGER NOT NULL,
             PRIMARY KEY (stream_id, stream_version));
           CREATE TABLE counter (id INTEGER PRIMARY KEY CHECK (id = 1), total INTEGER NOT NULL);
           INSERT INTO counter VALUES (1, 0);`);
  const mark = db.prepare('INSERT OR IGNORE INTO applied (stream_id, stream_version) VALUES (?, ?)');
  const bump = db.prepare('UPDATE counter SET total = total + ? WHERE id = 1');
  const apply = db.transaction((streamId: string, version: number, amount: number) => {
    if (mark.run(streamId, version).changes === 1) bump.run(amount);
  });
  return {
    apply,
    total: () => (db.prepare('SELECT total FROM counter').get() as { total: number }).total,
    applied: () => (db.prepare('SELECT count(*) AS n FROM applied').get() as { n: number }).n,
  };
}

describe('Relay → Kafka: crash between publish and checkpoint', { timeout: 60_000 }, () => {
  const { kafkaBrokers } = stackEnv();
  let dir: string;
  let topicPrefix: string;
  let bus: KafkaBus;
  let dbs: SqliteDatabase[];
  let subscription: Subscription | null;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tg-relay-'));
    topicPrefix = `${uniqueName('tgtest')}.`;
    dbs = [];
    subscription = null;
    bus = await KafkaBus.open({
      brokers: kafkaBrokers,
      clientId: 'tg-test',
      topicPrefix,
      partitions: 3,
      replicationFactor: 1,
      contexts: ['test'],
      consumer: {
        sessionTimeout: 6000,
        rebalanceTimeout: 6000,
        heartbeatInterval: 500,
        maxWaitTimeInMs: 100,
      },
    });
  });
  afterEach(async () => {
    await subscription?.stop();
    await bus.close();
    await dropKafkaPrefix(kafkaBrokers, topicPrefix);
    for (const db of dbs) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('republishes the unacknowledged batch, and a deduping consumer applies every event once', async () => {
    const source = openSqlite(join(dir, 'events.db'));
    const readDb = openSqlite(join(dir, 'read-model.db'));
    dbs.push(source, readDb);
    const store = new SqliteEventStore(source);
    const checkpoints = new SqliteCheckpointStore(source);
    const model = dedupingReadModel(readDb);

    const streams = [0, 1, 2].map(() => `test-${newId()}`);
    for (let round = 0; round < 10; round++) {
      for (const s of streams) await store.append(s, testEvents(s, 1), 'any');
    }
    const total = 30;
    const batchSize = 20;
    // Each event adds its global position, so a double application changes the sum.
    const expectedSum = (await store.readAll(0, total)).reduce((sum, e) => sum + e.globalPosition, 0);

    let deliveries = 0;
    subscription = await bus.subscribe({ group: 'read-model' }, async (e) => {
      deliveries++;
      model.apply(e.streamId, e.streamVersion, e.globalPosition);
    });

    const crashing = new CrashOnFirstSave(checkpoints);
    await expect(new Relay({ store, bus, checkpoints: crashing, batchSize }).runOnce()).rejects.toThrow(
      /simulated crash/,
    );
    expect(crashing.crashes).toBe(1);
    expect(await checkpoints.load('relay')).toBe(0);

    const restarted = new Relay({ store, bus, checkpoints, batchSize });
    while ((await restarted.runOnce()) > 0) {}
    expect(await restarted.lag()).toBe(0);

    await waitFor(() => model.applied() === total && deliveries >= total + batchSize, 'all deliveries');
    // The first batch went out twice: the consumer really saw duplicates, and applied each event once.
    expect(deliveries).toBe(total + batchSize);
    expect(model.applied()).toBe(total);
    expect(model.total()).toBe(expectedSum);
  });
});
