import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KafkaBus, type KafkaBusLogEntry } from '../../core/bus/kafka-bus.js';
import { Relay } from '../../core/bus/relay.js';
import { SqliteCheckpointStore } from '../../core/checkpoints/sqlite-checkpoints.js';
import { openSqlite } from '../../core/db/sqlite.js';
import type { StoredEvent } from '../../core/events/envelope.js';
import { SqliteEventStore } from '../../core/events/sqlite-event-store.js';
import { newId } from '../../core/ids.js';
import { stackEnv, uniqueName } from '../support/stack.js';
import { type BusFixture, describeBusContract, testEvents, waitFor } from './bus.contract.js';

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

interface KafkaFixture extends BusFixture {
  readonly bus: KafkaBus;
  readonly topicPrefix: string;
  readonly logs: KafkaBusLogEntry[];
}

/** A SQLite event store relayed to a KafkaBus on fresh topics (`tgtest_…​.<context>`). */
async function openKafkaFixture(): Promise<KafkaFixture> {
  const { kafkaBrokers } = stackEnv();
  const dir = mkdtempSync(join(tmpdir(), 'tg-bus-'));
  const db = openSqlite(join(dir, 'events.db'));
  const store = new SqliteEventStore(db);
  const checkpoints = new SqliteCheckpointStore(db);
  const topicPrefix = `${uniqueName('tgtest')}.`;
  const logs: KafkaBusLogEntry[] = [];
  const bus = await KafkaBus.open({
    brokers: kafkaBrokers,
    clientId: 'tg-test',
    topicPrefix,
    partitions: 3,
    replicationFactor: 1,
    contexts: ['test', 'accounts'],
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
  const relay = new Relay({ store, bus, checkpoints });
  return {
    bus,
    topicPrefix,
    logs,
    append: async (streamId, n) => {
      const { events } = await store.append(streamId, testEvents(streamId, n), 'any');
      while ((await relay.runOnce()) > 0) {}
      return [...events];
    },
    cleanup: async () => {
      await bus.close();
      await dropKafkaPrefix(kafkaBrokers, topicPrefix);
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeBusContract('Kafka', async () => {
  const fx = await openKafkaFixture();
  return {
    ...fx,
    cleanup: async () => {
      await fx.cleanup();
      // Only the handler failure the contract provokes on purpose may have been logged.
      const unexpected = fx.logs.filter((e) => !e.message.startsWith('handler failed'));
      if (unexpected.length > 0) throw new Error(`Kafka bus logged errors: ${JSON.stringify(unexpected)}`);
    },
  };
});

describe('KafkaBus specifics', { timeout: 60_000 }, () => {
  let fx: KafkaFixture;
  beforeEach(async () => {
    fx = await openKafkaFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('skips messages that are not stored events, logs them, and keeps consuming', async () => {
    const s = `test-${newId()}`;
    const raw = new Kafka({
      clientId: 'tg-test-raw',
      brokers: stackEnv().kafkaBrokers,
      logLevel: logLevel.NOTHING,
    });
    const producer = raw.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    // Keyed like the stream, so they sit in its partition ahead of its real events.
    await producer.send({
      topic: `${fx.topicPrefix}test`,
      messages: [
        { key: s, value: 'not json' },
        { key: s, value: '{"hello":"world"}' },
        { key: s, value: null },
      ],
    });
    await producer.disconnect();

    const got: StoredEvent[] = [];
    const sub = await fx.bus.subscribe({ group: 'skip' }, async (e) => {
      got.push(e);
    });
    const events = await fx.append(s, 2);
    await waitFor(() => got.length >= 2, 'the real events behind the malformed ones');
    await sub.stop();
    expect(got).toEqual(events);
    expect(fx.logs.filter((l) => l.level === 'error' && l.message.startsWith('skipping'))).toHaveLength(3);
  });

  it('keeps redelivering a failing event, and stops promptly while it waits', async () => {
    const s = `test-${newId()}`;
    let attempts = 0;
    const sub = await fx.bus.subscribe({ group: 'poison' }, async () => {
      attempts++;
      throw new Error('always fails');
    });
    await fx.append(s, 1);
    await waitFor(() => attempts >= 3, 'three attempts');
    const started = Date.now();
    await sub.stop();
    expect(Date.now() - started).toBeLessThan(5000);
    const after = attempts;
    await new Promise((r) => setTimeout(r, 500));
    expect(attempts).toBe(after);
    expect(fx.logs.filter((l) => l.message.startsWith('handler failed')).length).toBeGreaterThanOrEqual(3);
  });

  it('refuses contexts it has no topic for instead of waiting on a topic that will never exist', async () => {
    const [event] = await fx.append(`test-${newId()}`, 1);
    await expect(fx.bus.publish([{ ...event!, streamId: `monitor-${newId()}` }])).rejects.toThrow(
      /context monitors/,
    );
    await expect(fx.bus.subscribe({ group: 'x', contexts: ['monitors'] }, async () => {})).rejects.toThrow(
      /context monitors/,
    );
  });
});
