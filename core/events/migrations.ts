import type { Migration } from '../db/migrations.js';

export const EVENT_STORE_NAMESPACE = 'event-store';

export const sqliteEventStoreMigrations: readonly Migration[] = [
  {
    id: '001-events',
    sql: `
      CREATE TABLE events (
        global_position INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL UNIQUE,
        stream_id TEXT NOT NULL,
        stream_version INTEGER NOT NULL,
        type TEXT NOT NULL,
        account_id TEXT,
        occurred_at TEXT NOT NULL,
        data TEXT NOT NULL,
        metadata TEXT NOT NULL,
        UNIQUE (stream_id, stream_version)
      );
      CREATE INDEX events_account ON events (account_id, global_position);
      -- A stream's version survives deletion of its events, so versions (and consumers' dedupe) never repeat.
      CREATE TABLE streams (stream_id TEXT PRIMARY KEY, version INTEGER NOT NULL);`,
  },
];

export const postgresEventStoreMigrations: readonly Migration[] = [
  {
    id: '001-events',
    sql: `
      CREATE SEQUENCE tg_global_position AS BIGINT;
      CREATE TABLE tg_events (
        global_position BIGINT PRIMARY KEY,
        event_id UUID NOT NULL UNIQUE,
        stream_id TEXT NOT NULL,
        stream_version INTEGER NOT NULL,
        type TEXT NOT NULL,
        account_id TEXT,
        occurred_at TIMESTAMPTZ NOT NULL,
        data JSONB NOT NULL,
        metadata JSONB NOT NULL,
        transaction_id XID8 NOT NULL DEFAULT pg_current_xact_id(),
        UNIQUE (stream_id, stream_version)
      );
      CREATE INDEX tg_events_account ON tg_events (account_id, global_position);
      CREATE TABLE tg_streams (stream_id TEXT PRIMARY KEY, version INTEGER NOT NULL);`,
  },
];
