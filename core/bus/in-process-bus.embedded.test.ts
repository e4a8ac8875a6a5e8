import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SqliteCheckpointStore } from '../checkpoints/sqlite-checkpoints.js';
import { openSqlite, type SqliteDatabase } from '../db/sqlite.js';
import type { StoredEvent } from '../events/envelope.js';
import type { EventStore } from '../events/event-store.js';
import { SqliteEventStore } from '../events/sqlite-event-store.js';
import { InProcessBus } from './in-process-bus.js';

let dir: string;
let db: SqliteDatabase;
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps a subscription alive through a failing store read, and reports the failure', async () => {
  dir = mkdtempSync(join(tmpdir(), 'tg-bus-'));
  db = openSqlite(join(dir, 'events.db'));
  const real = new SqliteEventStore(db);
  let failures = 2;
  const flaky: EventStore = Object.assign(Object.create(real) as EventStore, {
    readAll: async (after: number, limit: number) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('SQLITE_BUSY: database is locked');
      }
      return real.readAll(after, limit);
    },
  });
  const errors: unknown[] = [];
  const bus = new InProcessBus(flaky, new SqliteCheckpointStore(db), {
    pollMs: 5,
    retryMs: 5,
    onError: (_g, err) => errors.push(err),
  });
  const seen: StoredEvent[] = [];
  await bus.subscribe({ group: 'g' }, async (e) => {
    seen.push(e);
  });
  await real.append('test-1', [{ type: 'TestHappened', data: { n: 1 } }], 'no_stream');
  const deadline = Date.now() + 5000;
  while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(seen.map((e) => e.streamId)).toEqual(['test-1']);
  expect(errors).toHaveLength(2);
  await bus.close();
  expect(await bus.health()).toEqual({ subscribers: [] });
});
