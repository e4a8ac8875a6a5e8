import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { openPlatform, type Platform } from '../../cli/platform.js';
import { openRuntime, type Runtime } from '../../cli/runtime.js';
import { hashPassword } from '../../core/auth/passwords.js';
import { type Config, loadConfig } from '../../core/config/config.js';
import type { PlanLimits } from '../../core/ratelimit/plans.js';

/**
 * A real embedded platform (SQLite event store and read models, in-process bus, projections running) in a
 * fresh temporary DATA_DIR, with the HTTP app built but not listening: `app.inject()` it, or `app.listen()`.
 * Accounts are made directly through the commands (activated, no e-mail round trip); tokens and keys go through
 * the real HTTP routes, exactly as a user gets them.
 */
export interface TestPlatform {
  readonly rt: Runtime;
  readonly platform: Platform;
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly dataDir: string;
  /** An activated account (ROLE_USER unless told), already visible in the read model, with a fresh JWT. */
  createAccount(options?: AccountOptions): Promise<TestAccount>;
  /** An activated account with ROLE_ADMIN, made by `platform.ensureAdmin` (the start-up/CLI path). */
  createAdmin(options?: Omit<AccountOptions, 'roles' | 'plan'>): Promise<TestAccount>;
  /** `POST /api/auth/login` → `id_token`. */
  login(username: string, password: string): Promise<string>;
  /** `POST /api/portal/api-keys`; the key is usable when this resolves. */
  createApiKey(
    token: string,
    input: { scopes: readonly string[]; name?: string; expiresAt?: string },
  ): Promise<TestKey>;
  /** `DELETE /api/portal/api-keys/{keyId}` (expects 204). */
  revokeApiKey(token: string, keyId: string): Promise<void>;
  close(): Promise<void>;
}

export interface AccountOptions {
  readonly login?: string;
  readonly email?: string;
  readonly password?: string;
  /** Default: the configured DEFAULT_PLAN (FREE). */
  readonly plan?: string;
  readonly roles?: readonly ('ROLE_USER' | 'ROLE_ADMIN')[];
}

export interface TestAccount {
  readonly accountId: string;
  readonly login: string;
  readonly email: string;
  readonly password: string;
  /** A JWT from `/api/auth/login`, valid 15 minutes. */
  readonly token: string;
}

export interface TestKey {
  readonly keyId: string;
  readonly key: string;
  readonly name: string;
  readonly scopes: string[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
}

export interface TestPlatformOptions {
  /** Extra settings (loadConfig names); DATA_DIR is always a fresh temporary directory. */
  readonly env?: Record<string, string>;
  /** Written to a PLANS_FILE: plan name → limits (a new plan must give all four fields). */
  readonly plans?: Record<string, Partial<PlanLimits>>;
  /** Fastify's request logger (default off). */
  readonly logger?: boolean;
}

const unique = (): string => `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;

/** A password no breach list holds. */
export const strongPassword = (): string => `Tg-${randomBytes(12).toString('base64url')}-pw`;

export async function openTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tg-platform-'));
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    // A closed local port: DNS lookups fail at once instead of waiting on a resolver this machine may not reach.
    DNS_SERVERS: '127.0.0.1:9',
    ...options.env,
    DATA_DIR: join(dataDir, 'data'),
  };
  if (options.plans) {
    const file = join(dataDir, 'plans.json');
    writeFileSync(file, JSON.stringify(options.plans));
    env.PLANS_FILE = file;
  }
  const config = loadConfig(env, { dotenv: false });
  const logger = pino({ level: 'silent' });
  const rt = await openRuntime(config, logger);
  let platform: Platform | null = null;
  let app: FastifyInstance | null = null;
  const close = async () => {
    await app?.close();
    await platform?.close();
    await rt.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    platform = await openPlatform(rt, logger);
    await rt.projections.start();
    app = await platform.app(options.logger ? {} : { logger: false });
    await app.ready();
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
  const built = app;
  const plat = platform;

  const login = async (username: string, password: string): Promise<string> => {
    const res = await built.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
    });
    if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
    return (res.json() as { id_token: string }).id_token;
  };

  const waitForAccount = async (accountId: string): Promise<void> => {
    const { version } = await rt.accounts.commands.load(accountId);
    const deadline = Date.now() + 5_000;
    while (((await rt.accounts.reader.byId(accountId))?.version ?? 0) < version) {
      if (Date.now() > deadline) throw new Error(`account ${accountId} did not reach the read model in 5 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  const names = (o: AccountOptions) => {
    const id = unique();
    return {
      login: o.login ?? `user.${id}`,
      email: o.email ?? `user.${id}@example.com`,
      password: o.password ?? strongPassword(),
    };
  };

  return {
    rt,
    platform: plat,
    app: built,
    config,
    dataDir,
    login,
    async createAccount(o = {}) {
      const n = names(o);
      const accountId = await rt.accounts.commands.register({
        ...n,
        passwordHash: await hashPassword(n.password),
        plan: o.plan ?? config.DEFAULT_PLAN,
        roles: o.roles ?? ['ROLE_USER'],
        activated: true,
      });
      await waitForAccount(accountId);
      return {
        accountId,
        login: n.login,
        email: n.email,
        password: n.password,
        token: await login(n.login, n.password),
      };
    },
    async createAdmin(o = {}) {
      const n = names(o);
      const { accountId } = await plat.ensureAdmin(n);
      await waitForAccount(accountId);
      return {
        accountId,
        login: n.login,
        email: n.email,
        password: n.password,
        token: await login(n.login, n.password),
      };
    },
    async createApiKey(token, input) {
      const res = await built.inject({
        method: 'POST',
        url: '/api/portal/api-keys',
        headers: { authorization: `Bearer ${token}` },
        payload: {
          name: input.name ?? `key ${unique()}`,
          scopes: input.scopes,
          ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
        },
      });
      if (res.statusCode !== 201) throw new Error(`create API key: ${res.statusCode} ${res.body}`);
      return (res.json() as { data: TestKey }).data;
    },
    async revokeApiKey(token, keyId) {
      const res = await built.inject({
        method: 'DELETE',
        url: `/api/portal/api-keys/${encodeURIComponent(keyId)}`,
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.statusCode !== 204) throw new Error(`revoke API key ${keyId}: ${res.statusCode} ${res.body}`);
    },
    close,
  };
}
