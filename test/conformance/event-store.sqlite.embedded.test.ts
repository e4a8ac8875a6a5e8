import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../core/db/sqlite.js';
import { SqliteEventStore } from '../../core/events/sqlite-event-store.js';
import { describeEventStoreContract, testEventSchemas } from './event-store.contract.js';

describeEventStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-es-'));
  const db = openSqlite(join(dir, 'events.db'));
  const store = new SqliteEventStore(db, { schemas: testEventSchemas() });
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
