import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AdminBootstrapDeps, ensureAdmin } from '../../services/portal/admin-bootstrap.js';
import { openPortalFixture, type PortalFixture } from './portal.fixture.js';

const ADMIN = { login: 'Root.Admin', email: 'admin@example.com', password: 'a long admin passphrase' };

describe('ensureAdmin', () => {
  let fx: PortalFixture;
  let deps: AdminBootstrapDeps;

  beforeEach(async () => {
    fx = await openPortalFixture();
    deps = { accounts: fx.commands, reader: fx.reader, plan: 'FREE' };
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  const loginAs = async (username: string, password: string) => {
    const { id_token } = (await fx.call('POST', '/api/auth/login', { body: { username, password } })) as {
      id_token: string;
    };
    return fx.jwt.verify(id_token);
  };

  it('creates an activated admin that can log in at once, and changes nothing when run again', async () => {
    const first = await ensureAdmin(ADMIN, deps);
    expect(first.created).toBe(true);
    expect(await fx.reader.byLogin('root.admin')).toMatchObject({
      accountId: first.accountId,
      activated: true,
      roles: ['ROLE_USER', 'ROLE_ADMIN'],
      plan: 'FREE',
    });
    expect(await loginAs('root.admin', ADMIN.password)).toEqual({
      accountId: first.accountId,
      login: 'root.admin',
      roles: ['ROLE_USER', 'ROLE_ADMIN'],
    });
    expect(fx.mails()).toEqual([]);

    const events = (await fx.events()).length;
    const second = await ensureAdmin({ ...ADMIN, login: 'ROOT.ADMIN' }, deps);
    expect(second).toEqual({ accountId: first.accountId, created: false });
    expect((await fx.events()).length).toBe(events);
  });

  it('grants ROLE_ADMIN to an existing account, keeping its password', async () => {
    await fx.call('POST', '/api/auth/register', {
      body: { login: 'grace', email: 'grace@example.com', password: 'grace hopper compiler' },
    });
    const before = await fx.reader.byLogin('grace');
    const outcome = await ensureAdmin(
      { login: 'grace', email: 'ignored@example.com', password: 'not used for an existing account' },
      deps,
    );
    expect(outcome).toEqual({ accountId: before!.accountId, created: false });
    expect(await fx.reader.byLogin('grace')).toMatchObject({
      roles: ['ROLE_USER', 'ROLE_ADMIN'],
      email: 'grace@example.com',
    });
    // Still needs activation and still has its own password.
    await fx.call('GET', '/api/activate', { query: { key: fx.keyOf(fx.mails()[0]!) } });
    expect((await loginAs('grace', 'grace hopper compiler')).roles).toContain('ROLE_ADMIN');
  });

  it('refuses a weak password or malformed login and e-mail for a new admin', async () => {
    await expect(ensureAdmin({ ...ADMIN, password: 'short' }, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'password: must be 8 to 128 characters',
    });
    await expect(ensureAdmin({ ...ADMIN, password: 'password123' }, deps)).rejects.toMatchObject({
      message: 'password: appears in a list of breached passwords',
    });
    await expect(ensureAdmin({ ...ADMIN, login: 'root admin' }, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(ensureAdmin({ ...ADMIN, email: 'nope' }, deps)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(await fx.events()).toEqual([]);
  });

  it('refuses an e-mail address another account holds', async () => {
    await fx.call('POST', '/api/auth/register', {
      body: { login: 'grace', email: 'admin@example.com', password: 'grace hopper compiler' },
    });
    await expect(ensureAdmin(ADMIN, deps)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'email: is already in use',
    });
  });

  it('ends with one admin when several processes bootstrap at once', async () => {
    const outcomes = await Promise.all([1, 2, 3].map(() => ensureAdmin(ADMIN, deps)));
    expect(new Set(outcomes.map((o) => o.accountId)).size).toBe(1);
    expect(outcomes.filter((o) => o.created)).toHaveLength(1);
    expect((await fx.reader.all()).filter((v) => v.login === 'root.admin')).toHaveLength(1);
  });
});
