import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { CLUSTER_SETTINGS, type Setting, type SettingName, settings } from './settings.js';

type ValueOf<K extends SettingName> = (typeof settings)[K] extends Setting<infer T> ? T : never;
type WithDefault<K extends SettingName> = (typeof settings)[K] extends { default: unknown } ? K : never;

type SettingValues = { readonly [K in SettingName as WithDefault<K>]: ValueOf<K> } & {
  readonly [K in Exclude<SettingName, WithDefault<SettingName>>]?: ValueOf<K>;
};

export type Profile = 'embedded' | 'cluster';

export interface ClusterUrls {
  readonly databaseUrl: string;
  readonly kafkaBrokers: readonly string[];
  readonly redisUrl: string;
  readonly clickhouseUrl: string;
}

export type Config = SettingValues & {
  readonly profile: Profile;
  /** DATA_DIR made absolute. */
  readonly dataDir: string;
  readonly requireHttps: boolean;
  /** Present exactly when profile is cluster. */
  readonly cluster?: ClusterUrls;
};

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export interface LoadOptions {
  /** Working directory for relative paths and the optional `.env` file. */
  readonly cwd?: string;
  /** Read `.env` in cwd (variables already in env win). Default true. */
  readonly dotenv?: boolean;
}

/**
 * Parses every setting once, reports every problem at once, and returns a frozen object.
 * Throws ConfigError; callers at the edge print its message and exit 2.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  const cwd = options.cwd ?? process.cwd();
  const source: Record<string, string | undefined> = { ...readDotenv(cwd, options.dotenv ?? true), ...env };
  const problems: string[] = [];
  const values: Record<string, unknown> = {};

  for (const [name, setting] of Object.entries(settings) as [SettingName, Setting<unknown>][]) {
    const raw = source[name]?.trim();
    if (raw === undefined || raw === '') {
      if (setting.default !== undefined) values[name] = setting.default;
      continue;
    }
    const parsed = setting.parse(raw);
    if (parsed.ok) values[name] = parsed.value;
    else
      problems.push(
        setting.secret ? `${name}: ${parsed.reason}` : `${name}=${JSON.stringify(raw)}: ${parsed.reason}`,
      );
  }

  const present = CLUSTER_SETTINGS.filter((n) => source[n]?.trim());
  if (present.length > 0 && present.length < CLUSTER_SETTINGS.length) {
    const missing = CLUSTER_SETTINGS.filter((n) => !present.includes(n));
    problems.push(
      `partial cluster configuration: ${present.join(', ')} set but ${missing.join(', ')} missing (set all four for the cluster profile, or none for embedded)`,
    );
  }
  if ((source.TLS_CERT_FILE?.trim() ? 1 : 0) + (source.TLS_KEY_FILE?.trim() ? 1 : 0) === 1) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const profile: Profile = present.length === CLUSTER_SETTINGS.length ? 'cluster' : 'embedded';
  const host = values.HOST as string;
  const config = {
    ...values,
    profile,
    dataDir: isAbsolute(values.DATA_DIR as string)
      ? (values.DATA_DIR as string)
      : resolve(cwd, values.DATA_DIR as string),
    requireHttps: (values.REQUIRE_HTTPS as boolean | undefined) ?? !LOOPBACK.test(host),
    ...(profile === 'cluster'
      ? {
          cluster: Object.freeze({
            databaseUrl: values.DATABASE_URL as string,
            kafkaBrokers: Object.freeze([...(values.KAFKA_BROKERS as string[])]),
            redisUrl: values.REDIS_URL as string,
            clickhouseUrl: values.CLICKHOUSE_URL as string,
          }),
        }
      : {}),
  } as Config;
  return deepFreeze(config);
}

function readDotenv(cwd: string, enabled: boolean): Record<string, string> {
  const file = resolve(cwd, '.env');
  if (!enabled || !existsSync(file)) return {};
  return parseDotenv(readFileSync(file));
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A description of every setting, for `toolgate config` and the README. */
export function describeSettings(): {
  name: string;
  description: string;
  default?: unknown;
  secret: boolean;
}[] {
  return (Object.entries(settings) as [string, Setting<unknown>][]).map(([name, s]) => ({
    name,
    description: s.description,
    ...(s.default !== undefined ? { default: s.default } : {}),
    secret: s.secret ?? false,
  }));
}
