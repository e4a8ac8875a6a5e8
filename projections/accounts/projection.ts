import { streamCategory } from '../../core/events/envelope.js';
import type { Projection } from '../../core/projections/projection.js';
import type { AccountEvent } from '../../services/accounts/events.js';
import { ACCOUNT_CATEGORY } from '../../services/accounts/events.js';

/** The accounts read model: one row per account, found by id, login, e-mail or activation key. */
export const accountsProjection: Projection = {
  name: 'accounts',
  version: 1,
  contexts: ['accounts'],
  tables: {
    accounts: [
      `CREATE TABLE {table} (
        account_id TEXT PRIMARY KEY,
        login TEXT NOT NULL,
        email TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        plan TEXT NOT NULL,
        plan_limits TEXT,
        roles TEXT NOT NULL,
        activated INTEGER NOT NULL,
        activation_key_hash TEXT,
        activation_expires_at TEXT,
        lang_key TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        version INTEGER NOT NULL)`,
      'CREATE UNIQUE INDEX {table}_login ON {table} (login)',
      'CREATE UNIQUE INDEX {table}_email ON {table} (email)',
      'CREATE INDEX {table}_activation ON {table} (activation_key_hash)',
    ],
  },
  async apply(event, { db, table }) {
    if (streamCategory(event.streamId) !== ACCOUNT_CATEGORY) return;
    const t = table('accounts');
    const e = { type: event.type, data: event.data } as AccountEvent;
    const at = event.occurredAt;
    const v = event.streamVersion;
    switch (e.type) {
      case 'AccountRegistered': {
        const d = e.data;
        await db.execute(
          `INSERT INTO ${t} (account_id, login, email, password_hash, plan, plan_limits, roles, activated,
             activation_key_hash, activation_expires_at, lang_key, created_at, updated_at, version)
           VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, $9, $10, $11, $11, $12)`,
          [
            d.accountId,
            d.login,
            d.email,
            d.passwordHash,
            d.plan,
            d.roles.join(','),
            d.activated ? 1 : 0,
            d.activationKeyHash ?? null,
            d.activationExpiresAt ?? null,
            d.langKey ?? null,
            at,
            v,
          ],
        );
        return;
      }
      case 'AccountActivated':
        await update(
          'activated = 1, activation_key_hash = NULL, activation_expires_at = NULL',
          [],
          e.data.accountId,
        );
        return;
      case 'ActivationKeyIssued':
        await update(
          'activation_key_hash = $4, activation_expires_at = $5',
          [e.data.activationKeyHash, e.data.activationExpiresAt],
          e.data.accountId,
        );
        return;
      case 'PasswordChanged':
        await update('password_hash = $4', [e.data.passwordHash], e.data.accountId);
        return;
      case 'RoleGranted':
      case 'RoleRevoked': {
        const rows = await db.query<{ roles: string }>(`SELECT roles FROM ${t} WHERE account_id = $1`, [
          e.data.accountId,
        ]);
        const roles = new Set((rows[0]?.roles ?? '').split(',').filter(Boolean));
        if (e.type === 'RoleGranted') roles.add(e.data.role);
        else roles.delete(e.data.role);
        await update('roles = $4', [[...roles].join(',')], e.data.accountId);
        return;
      }
      case 'PlanChanged':
        await update(
          'plan = $4, plan_limits = $5',
          [e.data.plan, e.data.limits ? JSON.stringify(e.data.limits) : null],
          e.data.accountId,
        );
        return;
    }

    async function update(set: string, params: (string | null)[], accountId: string) {
      await db.execute(`UPDATE ${t} SET ${set}, updated_at = $2, version = $3 WHERE account_id = $1`, [
        accountId,
        at,
        v,
        ...params,
      ]);
    }
  },
};
