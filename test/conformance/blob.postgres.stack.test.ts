import { PostgresBlobStore } from '../../core/blob/postgres-blob.js';
import { openPostgres } from '../../core/db/postgres.js';
import { createTestDatabase } from '../support/stack.js';
import { describeBlobContract } from './blob.contract.js';

describeBlobContract('postgres', async () => {
  const database = await createTestDatabase();
  const pool = openPostgres(database.url, 4);
  const store = await PostgresBlobStore.open(pool);
  return {
    store,
    cleanup: async () => {
      await store.close();
      await pool.end();
      await database.drop();
    },
    inventory: async () => {
      const { rows } = await pool.query<{ key: string }>('SELECT key FROM tg_blobs ORDER BY key');
      return rows.map((r) => r.key);
    },
  };
});
