import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * URLs of the local stack, exported by test/run.sh (from deploy/local/up.sh) as TEST_*.
 * Stack suites fail loudly without them: a stack test that silently skipped would prove nothing.
 */
export function stackEnv(): {
  databaseUrl: string;
  redisUrl: string;
  kafkaBrokers: string[];
  clickhouseUrl: string;
} {
  const need = (name: string): string => {
    const v = process.env[`TEST_${name}`];
    if (!v)
      throw new Error(`TEST_${name} is not set: run the stack suites through \`npm test\` (test/run.sh)`);
    return v;
  };
  return {
    databaseUrl: need('DATABASE_URL'),
    redisUrl: need('REDIS_URL'),
    kafkaBrokers: need('KAFKA_BROKERS').split(','),
    clickhouseUrl: need('CLICKHOUSE_URL'),
  };
}

/** A unique lower-case name for databases, key prefixes and topics of one test. */
export const uniqueName = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

/** Creates a fresh PostgreSQL database for one suite; `drop` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = stackEnv().databaseUrl;
  const name = uniqueName('tg_test');
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
