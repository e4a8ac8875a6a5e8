import { migratePostgres } from '../db/migrations.js';
import { inTransaction, type PgPool } from '../db/postgres.js';
import type { NewEvent, StoredEvent } from './envelope.js';
import { ConcurrencyError, versionMatches } from './errors.js';
import { type EventRow, rowToEvent } from './event-row.js';
import type { AppendResult, EventStore, ExpectedVersion, ReadStreamOptions } from './event-store.js';
import { EVENT_STORE_NAMESPACE, postgresEventStoreMigrations } from './migrations.js';
import { type EventStoreOptions, prepareEvents } from './prepare.js';

/** Serializes position assignment with commit: see the class comment. */
const APPEND_LOCK = "hashtext('toolgate:event-store:append')";

/**
 * Cluster event store on PostgreSQL.
 *
 * Global positions come from a sequence, and sequences hand out numbers in call order, not commit order: a reader
 * that trusted them alone could read position 7 while 6 is still in flight, checkpoint 7, and skip 6 forever.
 * Appends therefore take a transaction-scoped advisory lock before they draw positions; the lock is released only
 * after the commit is visible, so positions become visible strictly in order and `readAll` by position is safe.
 * (Emmett instead reads only below `pg_snapshot_xmin(pg_current_snapshot())` and orders by transaction id, which
 * keeps appends parallel but needs a (transaction id, position) checkpoint and stalls behind any long transaction
 * in the database; one short lock per append is the simpler trade at our write rates: see BENCHMARKS.md.)
 */
export class PostgresEventStore implements EventStore {
  private constructor(
    private readonly pool: PgPool,
    private readonly options: EventStoreOptions,
  ) {}

  static async open(pool: PgPool, options: EventStoreOptions = {}): Promise<PostgresEventStore> {
    await migratePostgres(pool, EVENT_STORE_NAMESPACE, postgresEventStoreMigrations);
    return new PostgresEventStore(pool, options);
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expectedVersion: ExpectedVersion,
  ): Promise<AppendResult> {
    return inTransaction(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`);
      const { rows } = await client.query<{ version: number }>(
        'SELECT version FROM tg_streams WHERE stream_id = $1',
        [streamId],
      );
      const current = rows[0]?.version ?? 0;
      if (!versionMatches(expectedVersion, current))
        throw new ConcurrencyError(streamId, expectedVersion, current);
      const prepared = prepareEvents(streamId, events, current, this.options);
      if (prepared.length === 0) return { nextExpectedVersion: current, lastGlobalPosition: 0, events: [] };
      const inserted = await client.query<{ global_position: number; event_id: string }>(
        `INSERT INTO tg_events (global_position, event_id, stream_id, stream_version, type, account_id, occurred_at, data, metadata)
         SELECT nextval('tg_global_position'), e.event_id, $1, e.stream_version, e.type, e.account_id, e.occurred_at, e.data, e.metadata
         FROM jsonb_to_recordset($2::jsonb) AS e(event_id uuid, stream_version int, type text, account_id text,
              occurred_at timestamptz, data jsonb, metadata jsonb)
         ORDER BY e.stream_version
         RETURNING global_position, event_id`,
        [
          streamId,
          JSON.stringify(
            prepared.map((e) => ({
              event_id: e.eventId,
              stream_version: e.streamVersion,
              type: e.type,
              account_id: e.accountId,
              occurred_at: e.occurredAt,
              data: e.data,
              metadata: e.metadata,
            })),
          ),
        ],
      );
      const positions = new Map(inserted.rows.map((r) => [r.event_id, r.global_position]));
      const next = current + prepared.length;
      await client.query(
        `INSERT INTO tg_streams (stream_id, version) VALUES ($1, $2)
         ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version`,
        [streamId, next],
      );
      const stored = prepared.map((e) => ({ ...e, streamId, globalPosition: positions.get(e.eventId) ?? 0 }));
      return {
        nextExpectedVersion: next,
        lastGlobalPosition: stored.at(-1)?.globalPosition ?? 0,
        events: stored,
      };
    });
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      'SELECT * FROM tg_events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version LIMIT $3',
      [streamId, options.fromVersion ?? 1, options.limit ?? null],
    );
    return rows.map(rowToEvent);
  }

  async readAll(afterPosition: number, limit: number): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      'SELECT * FROM tg_events WHERE global_position > $1 ORDER BY global_position LIMIT $2',
      [afterPosition, limit],
    );
    return rows.map(rowToEvent);
  }

  async headPosition(): Promise<number> {
    const { rows } = await this.pool.query<{ head: number | null }>(
      'SELECT max(global_position) AS head FROM tg_events',
    );
    return rows[0]?.head ?? 0;
  }

  async deleteStream(streamId: string): Promise<number> {
    const result = await this.pool.query('DELETE FROM tg_events WHERE stream_id = $1', [streamId]);
    return result.rowCount ?? 0;
  }

  async close(): Promise<void> {
    // The pool belongs to whoever opened it.
  }
}
