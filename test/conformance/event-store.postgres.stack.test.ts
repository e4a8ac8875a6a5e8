import { openPostgres } from '../../core/db/postgres.js';
import { PostgresEventStore } from '../../core/events/postgres-event-store.js';
import { createTestDatabase } from '../support/stack.js';
import { describeEventStoreContract, testEventSchemas } from './event-store.contract.js';

describeEventStoreContract('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const pool = openPostgres(database.url, 12);
  const store = await PostgresEventStore.open(pool, { schemas: testEventSchemas() });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await pool.end();
      await database.drop();
    },
  };
});
