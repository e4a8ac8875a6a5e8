import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCheckpointStore } from '../../core/checkpoints/sqlite-checkpoints.js';
import { openSqlite } from '../../core/db/sqlite.js';
import { EventSchemaRegistry } from '../../core/events/schema-registry.js';
import { SqliteEventStore } from '../../core/events/sqlite-event-store.js';
import { SqliteSqlDb } from '../../core/sql/sqlite-sql-db.js';
import { describeApiKeys } from './apikeys.contract.js';

describeApiKeys('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tg-keys-'));
  const eventsDb = openSqlite(join(dir, 'events.db'));
  const readDb = openSqlite(join(dir, 'readmodels.db'));
  return {
    store: new SqliteEventStore(eventsDb, { schemas: EventSchemaRegistry.fromDirectory() }),
    checkpoints: new SqliteCheckpointStore(eventsDb),
    db: new SqliteSqlDb(readDb),
    cleanup: async () => {
      eventsDb.close();
      readDb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
