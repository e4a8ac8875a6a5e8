import { hashPassword } from '../../core/auth/passwords.js';
import { AppError } from '../../core/errors/catalogue.js';
import { type BreachedPasswords, bundledBreachedPasswords, checkPassword } from './password-policy.js';
import type { PortalAccounts, PortalAccountsReader } from './ports.js';
import { sleep, waitForReadModel } from './read-model.js';
import { requireEmail, requireLogin } from './validation.js';

export interface AdminInput {
  readonly login: string;
  readonly email: string;
  readonly password: string;
}

export interface AdminBootstrapDeps {
  readonly accounts: PortalAccounts;
  readonly reader: PortalAccountsReader;
  /** Plan of a newly created admin account (DEFAULT_PLAN). */
  readonly plan: string;
  /** Checked against a new admin's password; default: the bundled list of common passwords. */
  readonly breached?: BreachedPasswords;
  /** How long to wait for the read model to show an account (see auth-service's waitForAccount). */
  readonly readModelWaitMs?: number;
}

export interface AdminOutcome {
  readonly accountId: string;
  /** True when the account was created now; false when an existing account was made (or already was) admin. */
  readonly created: boolean;
}

/**
 * Makes sure `login` is an activated admin (DESIGN.md section 7, Roles): creates the account, activated, with
 * ROLE_USER and ROLE_ADMIN when the login is free; grants ROLE_ADMIN when it exists. Idempotent, so start-up (from
 * ADMIN_LOGIN/ADMIN_EMAIL/ADMIN_PASSWORD) and `toolgate admin create` may run it every time. An existing
 * account keeps its password and e-mail address: this never takes over an account's credentials.
 */
export async function ensureAdmin(input: AdminInput, deps: AdminBootstrapDeps): Promise<AdminOutcome> {
  const login = requireLogin(input.login);
  const email = requireEmail(input.email);
  const waitMs = deps.readModelWaitMs ?? 5_000;

  const grant = async (accountId: string): Promise<AdminOutcome> => {
    await deps.accounts.grantRole(accountId, 'ROLE_ADMIN');
    await waitForReadModel(deps.accounts, deps.reader, accountId, waitMs);
    return { accountId, created: false };
  };

  const existing = await deps.reader.byLogin(login);
  if (existing) return grant(existing.accountId);

  await checkPassword(input.password, deps.breached ?? bundledBreachedPasswords());
  let accountId: string;
  try {
    accountId = await deps.accounts.register({
      login,
      email,
      passwordHash: await hashPassword(input.password),
      plan: deps.plan,
      roles: ['ROLE_USER', 'ROLE_ADMIN'],
      activated: true,
    });
  } catch (err) {
    // The login is taken but the read model did not show it yet (another process creating the same admin at
    // the same start, say): wait for the row, then grant.
    if (!(err instanceof AppError && err.code === 'CONFLICT' && err.message.startsWith('login:'))) throw err;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const view = await deps.reader.byLogin(login);
      if (view) return grant(view.accountId);
      if (Date.now() >= deadline) throw err;
      await sleep(50);
    }
  }
  await waitForReadModel(deps.accounts, deps.reader, accountId, waitMs);
  return { accountId, created: true };
}
