import type { SqlDb } from '../../core/sql/sql-db.js';
import type { PlanLimits, Role } from '../../services/accounts/events.js';

export interface AccountView {
  readonly accountId: string;
  readonly login: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly plan: string;
  readonly planLimits: PlanLimits | null;
  readonly roles: Role[];
  readonly activated: boolean;
  readonly activationKeyHash: string | null;
  readonly activationExpiresAt: string | null;
  readonly langKey: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Stream version the row reflects: a caller that just wrote can wait for it. */
  readonly version: number;
}

interface Row {
  account_id: string;
  login: string;
  email: string;
  password_hash: string;
  plan: string;
  plan_limits: string | null;
  roles: string;
  activated: number;
  activation_key_hash: string | null;
  activation_expires_at: string | null;
  lang_key: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

const toView = (r: Row): AccountView => ({
  accountId: r.account_id,
  login: r.login,
  email: r.email,
  passwordHash: r.password_hash,
  plan: r.plan,
  planLimits: r.plan_limits ? (JSON.parse(r.plan_limits) as PlanLimits) : null,
  roles: r.roles.split(',').filter(Boolean) as Role[],
  activated: Number(r.activated) === 1,
  activationKeyHash: r.activation_key_hash,
  activationExpiresAt: r.activation_expires_at,
  langKey: r.lang_key,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  version: Number(r.version),
});

/** Typed queries over the accounts view (`rm_accounts`). */
export class AccountsReader {
  constructor(private readonly db: SqlDb) {}

  private async one(where: string, value: string): Promise<AccountView | null> {
    const rows = await this.db.query<Row>(`SELECT * FROM rm_accounts WHERE ${where} = $1`, [value]);
    return rows[0] ? toView(rows[0]) : null;
  }

  byId = (accountId: string) => this.one('account_id', accountId);
  byLogin = (login: string) => this.one('login', login.trim().toLowerCase());
  byEmail = (email: string) => this.one('email', email.trim().toLowerCase());
  byActivationKeyHash = (hash: string) => this.one('activation_key_hash', hash);

  async count(): Promise<number> {
    const rows = await this.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM rm_accounts');
    return Number(rows[0]?.n ?? 0);
  }

  /** Every row in a stable order: audits, and the rebuild-equals-incremental check. */
  async all(): Promise<AccountView[]> {
    return (await this.db.query<Row>('SELECT * FROM rm_accounts ORDER BY account_id')).map(toView);
  }
}
