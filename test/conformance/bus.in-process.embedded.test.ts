import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '../../core/bus/in-process-bus.js';
import { SqliteCheckpointStore } from '../../core/checkpoints/sqlite-checkpoints.js';
import { openSqlite } from '../../core/db/sqlite.js';
import { SqliteEventStore } from '../../core/events/sqlite-event-store.js';
import { describeBusContract, testEvents } from './bus.contract.js';

describeBusContract('in-process', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-bus-'));
  const db = openSqlite(join(dir, 'events.db'));
  const store = new SqliteEventStore(db);
  const bus = new InProcessBus(store, new SqliteCheckpointStore(db), { pollMs: 20, retryMs: 50 });
  return {
    bus,
    append: async (streamId, n) => {
      const { events } = await store.append(streamId, testEvents(streamId, n), 'any');
      // What the relay does after reading the store; for this bus it only wakes the tailers.
      await bus.publish(events);
      return [...events];
    },
    cleanup: async () => {
      await bus.close();
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
