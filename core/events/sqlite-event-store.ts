import { migrateSqlite } from '../db/migrations.js';
import type { SqliteDatabase } from '../db/sqlite.js';
import type { NewEvent, StoredEvent } from './envelope.js';
import { ConcurrencyError, versionMatches } from './errors.js';
import { type EventRow, rowToEvent } from './event-row.js';
import type { AppendResult, EventStore, ExpectedVersion, ReadStreamOptions } from './event-store.js';
import { EVENT_STORE_NAMESPACE, sqliteEventStoreMigrations } from './migrations.js';
import { type EventStoreOptions, prepareEvents } from './prepare.js';

/**
 * Embedded event store. SQLite has one writer at a time (BEGIN IMMEDIATE), so global positions
 * commit in order and readAll can never skip an event.
 */
export class SqliteEventStore implements EventStore {
  private readonly stmts;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: EventStoreOptions = {},
  ) {
    migrateSqlite(db, EVENT_STORE_NAMESPACE, sqliteEventStoreMigrations);
    this.stmts = {
      version: db.prepare<[string], { version: number }>('SELECT version FROM streams WHERE stream_id = ?'),
      upsertVersion: db.prepare(
        'INSERT INTO streams (stream_id, version) VALUES (?, ?) ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version',
      ),
      insert: db.prepare(
        `INSERT INTO events (event_id, stream_id, stream_version, type, account_id, occurred_at, data, metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      readStream: db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM events WHERE stream_id = ? AND stream_version >= ? ORDER BY stream_version LIMIT ?',
      ),
      readAll: db.prepare<[number, number], EventRow>(
        'SELECT * FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?',
      ),
      head: db.prepare<[], { head: number | null }>(
        "SELECT seq AS head FROM sqlite_sequence WHERE name = 'events'",
      ),
      delete: db.prepare('DELETE FROM events WHERE stream_id = ?'),
    };
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expectedVersion: ExpectedVersion,
  ): Promise<AppendResult> {
    const tx = this.db.transaction((): AppendResult => {
      const current = this.stmts.version.get(streamId)?.version ?? 0;
      if (!versionMatches(expectedVersion, current))
        throw new ConcurrencyError(streamId, expectedVersion, current);
      const prepared = prepareEvents(streamId, events, current, this.options);
      const stored: StoredEvent[] = prepared.map((e) => {
        const info = this.stmts.insert.run(
          e.eventId,
          streamId,
          e.streamVersion,
          e.type,
          e.accountId,
          e.occurredAt,
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
        );
        return { ...e, streamId, globalPosition: Number(info.lastInsertRowid) };
      });
      const next = current + prepared.length;
      if (prepared.length > 0) this.stmts.upsertVersion.run(streamId, next);
      return {
        nextExpectedVersion: next,
        lastGlobalPosition: stored.at(-1)?.globalPosition ?? 0,
        events: stored,
      };
    });
    return tx.immediate();
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    return this.stmts.readStream.all(streamId, options.fromVersion ?? 1, options.limit ?? -1).map(rowToEvent);
  }

  async readAll(afterPosition: number, limit: number): Promise<StoredEvent[]> {
    return this.stmts.readAll.all(afterPosition, limit).map(rowToEvent);
  }

  async headPosition(): Promise<number> {
    return this.stmts.head.get()?.head ?? 0;
  }

  async deleteStream(streamId: string): Promise<number> {
    return this.stmts.delete.run(streamId).changes;
  }

  async close(): Promise<void> {
    // The database handle belongs to whoever opened it (it is shared with read models).
  }
}
