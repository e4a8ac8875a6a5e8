import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const load = (env: Record<string, string>, cwd = mkdtempSync(join(tmpdir(), 'tg-cfg-'))) =>
  loadConfig(env, { cwd });
const problems = (env: Record<string, string>): readonly string[] => {
  try {
    load(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
};

describe('config', () => {
  it('defaults to the embedded profile with documented defaults, frozen', () => {
    const c = load({});
    expect(c).toMatchObject({
      profile: 'embedded',
      PORT: 8080,
      HOST: '127.0.0.1',
      DEFAULT_PLAN: 'FREE',
      requireHttps: false,
    });
    expect(c.cluster).toBeUndefined();
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.OUTBOUND_ALLOW_CIDRS)).toBe(true);
    expect(() => {
      (c as { PORT: number }).PORT = 1;
    }).toThrow(TypeError);
  });

  it('selects the cluster profile when all four URLs are set', () => {
    const c = load({
      DATABASE_URL: 'postgres://u@db:5432/tg',
      KAFKA_BROKERS: 'k1:9092, k2:9092',
      REDIS_URL: 'redis://r:6379',
      CLICKHOUSE_URL: 'http://ch:8123',
    });
    expect(c.profile).toBe('cluster');
    expect(c.cluster).toEqual({
      databaseUrl: 'postgres://u@db:5432/tg',
      kafkaBrokers: ['k1:9092', 'k2:9092'],
      redisUrl: 'redis://r:6379',
      clickhouseUrl: 'http://ch:8123',
    });
  });

  it('names every bad variable at once, and what a partial cluster configuration lacks', () => {
    const p = problems({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'postgres://db/tg',
      REDIS_URL: 'redis://r',
    });
    expect(p).toHaveLength(3);
    expect(p[0]).toBe('PORT="eighty": must be a whole number from 0 to 65535');
    expect(p[1]).toMatch(/^LOG_LEVEL="loud": must be one of fatal, error/);
    expect(p[2]).toBe(
      'partial cluster configuration: DATABASE_URL, REDIS_URL set but KAFKA_BROKERS, CLICKHOUSE_URL missing (set all four for the cluster profile, or none for embedded)',
    );
  });

  it('never repeats a secret value in its complaint', () => {
    const p = problems({ DATABASE_URL: 'mysql://user:hunter2@db/x', ADMIN_PASSWORD: '' });
    expect(p.join('\n')).not.toContain('hunter2');
    expect(p[0]).toBe('DATABASE_URL: must use postgres:// or postgresql://');
  });

  it('validates lists, plans and pairs', () => {
    const p = problems({
      OUTBOUND_ALLOW_CIDRS: '10.0.0.0/8, 300.1.1.1/8, ::1/129',
      KAFKA_BROKERS: 'nohostport',
      DEFAULT_PLAN: 'free',
      TLS_CERT_FILE: '/etc/cert.pem',
    });
    expect(p.find((x) => x.startsWith('OUTBOUND_ALLOW_CIDRS'))).toContain('bad: 300.1.1.1/8, ::1/129');
    expect(p.find((x) => x.startsWith('KAFKA_BROKERS'))).toContain('host:port');
    expect(p.find((x) => x.startsWith('DEFAULT_PLAN'))).toContain('upper-case');
    expect(p).toContain('TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither');
    expect(load({ DNS_SERVERS: '10.0.0.53, 10.0.0.54:5353, ::1, [fd00::53]:5353' }).DNS_SERVERS).toHaveLength(
      4,
    );
    expect(problems({ DNS_SERVERS: 'dns.example' })[0]).toContain('bad: dns.example');
    expect(load({ OUTBOUND_ALLOW_CIDRS: '10.0.0.0/8,fd00::/8' }).OUTBOUND_ALLOW_CIDRS).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
    ]);
  });

  it('requires HTTPS by default off loopback, and honours an explicit setting', () => {
    expect(load({ HOST: '0.0.0.0' }).requireHttps).toBe(true);
    expect(load({ HOST: '0.0.0.0', REQUIRE_HTTPS: 'false' }).requireHttps).toBe(false);
    expect(load({ REQUIRE_HTTPS: 'yes' }).requireHttps).toBe(true);
  });

  it('reads .env from the working directory, with the environment winning', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tg-cfg-'));
    writeFileSync(join(cwd, '.env'), 'PORT=9090\nLOG_LEVEL=debug\n');
    const c = load({ LOG_LEVEL: 'warn' }, cwd);
    expect(c.PORT).toBe(9090);
    expect(c.LOG_LEVEL).toBe('warn');
    expect(c.dataDir).toBe(join(cwd, 'data'));
  });
});
