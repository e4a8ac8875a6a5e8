import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import type { HealthCheck } from '../../core/health.js';
import type { ServiceCall } from '../../core/metering/service-call.js';

/** deploy/clickhouse/: the DDL analysts read, applied in file-name order by ClickHouseMigrator. */
export const CLICKHOUSE_DDL_DIR = fileURLToPath(new URL('../../deploy/clickhouse/', import.meta.url));

export const SERVICE_CALLS_TABLE = 'service_calls';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Database and table names are spliced into SQL (ClickHouse 18.16 has no query parameters): names only. */
export function checkIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain ClickHouse identifier: ${JSON.stringify(name)}`);
  return name;
}

/** `CLICKHOUSE_URL` → server URL (path dropped) and database (path, or `default`). */
export function clickHouseTarget(url: string): { url: string; database: string } {
  const parsed = new URL(url);
  const path = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, ''));
  parsed.pathname = '/';
  return { url: parsed.toString(), database: checkIdentifier(path || 'default') };
}

/**
 * A client on the database of the URL's path (or `options.database`). The path is taken out of the URL and
 * passed as `database`, because the client lets a URL path silently override an explicit database.
 */
export function openClickHouse(url: string, options: { database?: string } = {}): ClickHouseClient {
  const target = clickHouseTarget(url);
  return createClient({
    url: target.url,
    database: checkIdentifier(options.database ?? target.database),
    request_timeout: 30_000,
  });
}

/** ClickHouse for /readyz: the server version, or a throw when it does not answer. */
export function clickHouseHealth(client: ClickHouseClient): HealthCheck {
  return async () => {
    const rows = await (
      await client.query({ query: 'SELECT version() AS version', format: 'JSONEachRow' })
    ).json<{
      version: string;
    }>();
    return { version: rows[0]?.version ?? 'unknown' };
  };
}

/** A row of `service_calls` as JSONEachRow inserts it; `day` is MATERIALIZED by the table from `at`. */
export interface ServiceCallRow {
  readonly event_id: string;
  readonly at: string;
  readonly account_id: string;
  readonly key_id: string;
  readonly slug: string;
  readonly operation_id: string;
  readonly convention: 'S' | 'R' | 'D';
  readonly status: number;
  readonly latency_ms: number;
}

export function serviceCallRow(call: ServiceCall): ServiceCallRow {
  return {
    event_id: call.eventId,
    at: clickHouseDateTime(call.at),
    account_id: call.accountId,
    key_id: call.keyId,
    slug: call.slug,
    operation_id: call.operationId,
    convention: call.convention,
    status: call.status,
    latency_ms: call.latencyMs,
  };
}

/**
 * `2024-05-31T23:59:59.999Z` → `2024-05-31 23:59:59`, the text form a `DateTime('UTC')` column parses on
 * every server version (18.16 has no DateTime64: milliseconds are dropped).
 */
export function clickHouseDateTime(at: string | Date): string {
  const iso = typeof at === 'string' ? new Date(at).toISOString() : at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** The statements of a .sql file: `--` comment lines dropped, split at a `;` that ends a line. */
export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export interface ClickHouseMigratorOptions {
  /** `CLICKHOUSE_URL`; its path names the database (default `default`). */
  readonly url: string;
  /** Overrides the URL's database (tests use `tg_test_<unique>`). */
  readonly database?: string;
  /** Default deploy/clickhouse/. */
  readonly dir?: string;
}

/**
 * Applies deploy/clickhouse/*.sql in name order: creates the database if missing, then runs every statement
 * with it as the session database, so the files name tables without a database and also run by hand
 * (`clickhouse-client --database X --multiquery < 001_service_calls.sql`). No ledger: every file must stay
 * idempotent (`CREATE … IF NOT EXISTS`), and all are applied at every start, by every role, concurrently.
 */
export class ClickHouseMigrator {
  constructor(private readonly options: ClickHouseMigratorOptions) {}

  /** Returns the files applied. */
  async migrate(): Promise<string[]> {
    const target = clickHouseTarget(this.options.url);
    const database = checkIdentifier(this.options.database ?? target.database);
    const dir = this.options.dir ?? CLICKHOUSE_DDL_DIR;
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    // The target database may not exist yet, and a client bound to it would fail: create it from `default`.
    const bootstrap = openClickHouse(this.options.url, { database: 'default' });
    try {
      await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
    } finally {
      await bootstrap.close();
    }
    const client = openClickHouse(this.options.url, { database });
    try {
      for (const file of files) {
        for (const query of splitStatements(readFileSync(join(dir, file), 'utf8'))) {
          await client.command({ query });
        }
      }
    } finally {
      await client.close();
    }
    return files;
  }
}
