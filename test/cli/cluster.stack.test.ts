import { Kafka, logLevel } from 'kafkajs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntime, type Runtime } from '../../cli/runtime.js';
import { loadConfig } from '../../core/config/config.js';
import { buildApp } from '../../gateway/app.js';
import { createTestDatabase, stackEnv, uniqueName } from '../support/stack.js';

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';

/** The cluster profile end to end: PostgreSQL store → relay → Kafka → projector → PostgreSQL read model. */
describe('cluster profile', () => {
  let rt: Runtime;
  let dropDb: () => Promise<void>;
  const prefix = `${uniqueName('tgcluster')}.`;

  beforeAll(async () => {
    const stack = stackEnv();
    const db = await createTestDatabase();
    dropDb = db.drop;
    const config = loadConfig(
      {
        DATABASE_URL: db.url,
        KAFKA_BROKERS: stack.kafkaBrokers.join(','),
        REDIS_URL: stack.redisUrl,
        CLICKHOUSE_URL: stack.clickhouseUrl,
        KAFKA_TOPIC_PREFIX: prefix,
        LOG_LEVEL: 'silent',
      },
      { dotenv: false },
    );
    expect(config.profile).toBe('cluster');
    rt = await openRuntime(config, pino({ level: 'silent' }));
    await rt.projections.start();
    rt.relay?.start();
  });

  afterAll(async () => {
    await rt?.close();
    await dropDb?.();
    const admin = new Kafka({
      clientId: 'cleanup',
      brokers: stackEnv().kafkaBrokers,
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
    await admin.disconnect();
  });

  it('carries commands through Kafka into the read model and reports every component ready', async () => {
    const id = await rt.accounts.commands.register({
      login: 'Linus',
      email: 'linus@example.com',
      passwordHash: HASH,
      plan: 'FREE',
    });
    await rt.accounts.commands.changePlan(id, 'BASIC');
    const deadline = Date.now() + 30_000;
    let view = await rt.accounts.reader.byId(id);
    while (view?.plan !== 'BASIC' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      view = await rt.accounts.reader.byId(id);
    }
    expect(view).toMatchObject({ accountId: id, login: 'linus', plan: 'BASIC', version: 2 });
    expect(await rt.relay?.lag()).toBe(0);

    const app = await buildApp({ config: rt.config, health: () => rt.health(), logger: false });
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    await app.close();
    const body = res.json() as {
      status: string;
      profile: string;
      components: Record<string, { status: string; details?: unknown }>;
    };
    expect(res.statusCode, JSON.stringify(body)).toBe(200);
    expect(body.profile).toBe('cluster');
    expect(Object.keys(body.components).sort()).toEqual([
      'bus',
      'clickhouse',
      'eventStore',
      'kv',
      'projections',
      'readModels',
      'relay',
    ]);
    expect(body.components.bus?.details).toMatchObject({ adapter: 'kafka', brokers: 1 });
    expect(JSON.stringify(body)).not.toContain('postgres://');
  });
});
