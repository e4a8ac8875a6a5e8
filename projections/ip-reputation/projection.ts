import { streamCategory } from '../../core/events/envelope.js';
import type { Projection } from '../../core/projections/projection.js';
import {
  REPUTATION_CATEGORY,
  REPUTATION_CONTEXT,
  type ReputationEvent,
} from '../../services/ip-reputation/events.js';

/**
 * The IP-reputation read model: `ip_reports` (every report, for abuseConfidenceScore and threat categories),
 * `ip_checks` (each account's latest verdict per address, for `GET /api/v1/reputation/{ip}`) and `ip_streams`
 * (the stream version applied per address, so a writer can wait until its event is visible).
 */
export const ipReputationProjection: Projection = {
  name: 'ip-reputation',
  version: 1,
  contexts: [REPUTATION_CONTEXT],
  tables: {
    ip_reports: [
      `CREATE TABLE {table} (
        event_id TEXT PRIMARY KEY,
        ip TEXT NOT NULL,
        account_id TEXT NOT NULL,
        categories TEXT NOT NULL,
        reported_at TEXT NOT NULL)`,
      'CREATE INDEX {table}_ip ON {table} (ip, reported_at)',
    ],
    ip_checks: [
      `CREATE TABLE {table} (
        account_id TEXT NOT NULL,
        ip TEXT NOT NULL,
        checked_at TEXT NOT NULL,
        result TEXT NOT NULL,
        PRIMARY KEY (account_id, ip))`,
    ],
    ip_streams: [
      `CREATE TABLE {table} (
        stream_id TEXT PRIMARY KEY,
        version INTEGER NOT NULL)`,
    ],
  },
  async apply(event, { db, table }) {
    if (streamCategory(event.streamId) !== REPUTATION_CATEGORY) return;
    const e = { type: event.type, data: event.data } as ReputationEvent;
    switch (e.type) {
      case 'IpReported': {
        const d = e.data;
        await db.execute(
          `INSERT INTO ${table('ip_reports')} (event_id, ip, account_id, categories, reported_at)
           VALUES ($1, $2, $3, $4, $5)`,
          [event.eventId, d.ip, d.accountId, d.categories.join(','), d.reportedAt],
        );
        break;
      }
      case 'IpChecked': {
        const d = e.data;
        await db.execute(
          `INSERT INTO ${table('ip_checks')} (account_id, ip, checked_at, result) VALUES ($1, $2, $3, $4)
           ON CONFLICT (account_id, ip) DO UPDATE SET checked_at = excluded.checked_at, result = excluded.result`,
          [d.accountId, d.ip, d.checkedAt, JSON.stringify(d)],
        );
        break;
      }
      default:
        break;
    }
    await db.execute(
      `INSERT INTO ${table('ip_streams')} (stream_id, version) VALUES ($1, $2)
       ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version`,
      [event.streamId, event.streamVersion],
    );
  },
};
