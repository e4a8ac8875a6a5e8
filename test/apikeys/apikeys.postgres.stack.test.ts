import { PostgresCheckpointStore } from '../../core/checkpoints/postgres-checkpoints.js';
import { openPostgres } from '../../core/db/postgres.js';
import { PostgresEventStore } from '../../core/events/postgres-event-store.js';
import { EventSchemaRegistry } from '../../core/events/schema-registry.js';
import { PostgresSqlDb } from '../../core/sql/postgres-sql-db.js';
import { createTestDatabase } from '../support/stack.js';
import { describeApiKeys } from './apikeys.contract.js';

describeApiKeys('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const pool = openPostgres(database.url);
  return {
    store: await PostgresEventStore.open(pool, { schemas: EventSchemaRegistry.fromDirectory() }),
    checkpoints: await PostgresCheckpointStore.open(pool),
    db: new PostgresSqlDb(pool),
    cleanup: async () => {
      await pool.end();
      await database.drop();
    },
  };
});
