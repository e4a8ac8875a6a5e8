import type { StoredEvent } from './envelope.js';

/** An events-table row as either driver returns it: SQLite gives text, PostgreSQL gives Date and parsed JSONB. */
export interface EventRow {
  global_position: number;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  account_id: string | null;
  occurred_at: string | Date;
  data: unknown;
  metadata: unknown;
}

const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

export const rowToEvent = (r: EventRow): StoredEvent => ({
  eventId: r.event_id,
  type: r.type,
  streamId: r.stream_id,
  streamVersion: r.stream_version,
  globalPosition: r.global_position,
  occurredAt: r.occurred_at instanceof Date ? r.occurred_at.toISOString() : r.occurred_at,
  accountId: r.account_id,
  data: json(r.data),
  metadata: json(r.metadata) as StoredEvent['metadata'],
});
