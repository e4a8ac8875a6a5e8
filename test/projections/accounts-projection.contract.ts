import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InProcessBus } from '../../core/bus/in-process-bus.js';
import type { CheckpointStore } from '../../core/checkpoints/checkpoints.js';
import type { EventStore } from '../../core/events/event-store.js';
import type { Projection } from '../../core/projections/projection.js';
import { ProjectionRunner } from '../../core/projections/runner.js';
import type { SqlDb } from '../../core/sql/sql-db.js';
import { accountsProjection } from '../../projections/accounts/projection.js';
import { AccountsReader } from '../../projections/accounts/reader.js';
import { AccountCommands } from '../../services/accounts/commands.js';

export interface ProjectionFixture {
  readonly store: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly db: SqlDb;
  cleanup(): Promise<void>;
}

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The projection runner and the accounts read model on one read-model database. */
export function describeAccountsProjection(name: string, factory: () => Promise<ProjectionFixture>): void {
  describe(`accounts projection on ${name}`, () => {
    let fx: ProjectionFixture;
    let bus: InProcessBus;
    let runner: ProjectionRunner;
    let commands: AccountCommands;
    let reader: AccountsReader;

    beforeEach(async () => {
      fx = await factory();
      bus = new InProcessBus(fx.store, fx.checkpoints, { pollMs: 10 });
      runner = new ProjectionRunner({
        db: fx.db,
        store: fx.store,
        bus,
        projections: [accountsProjection],
        batchSize: 50,
      });
      commands = new AccountCommands(fx.store);
      reader = new AccountsReader(fx.db);
    });
    afterEach(async () => {
      await runner.stop();
      await bus.close();
      await fx.cleanup();
    });

    const registerMany = async (n: number, prefix: string) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        ids.push(
          await commands.register({
            login: `${prefix}${i}`,
            email: `${prefix}${i}@example.com`,
            passwordHash: HASH,
            plan: 'FREE',
          }),
        );
      }
      return ids;
    };

    it('builds the read model from the aggregate events and reports lag', async () => {
      const [ada] = await registerMany(1, 'Ada');
      await runner.prepare();
      expect((await runner.status())[0]!.lag).toBeGreaterThan(0);
      await runner.start();
      await commands.changePlan(ada!, 'ENTERPRISE', { perMinute: 5000 });
      await commands.grantRole(ada!, 'ROLE_ADMIN');
      const view = await until(
        () => reader.byLogin('ADA0'),
        (v) => v?.plan === 'ENTERPRISE' && v.roles.includes('ROLE_ADMIN'),
      );
      expect(view).toMatchObject({
        accountId: ada,
        login: 'ada0',
        email: 'ada0@example.com',
        activated: false,
        planLimits: { perMinute: 5000 },
        roles: ['ROLE_USER', 'ROLE_ADMIN'],
      });
      expect(await reader.byEmail('Ada0@Example.com')).toMatchObject({ accountId: ada });
      await until(
        () => runner.status(),
        (s) => s[0]!.lag === 0,
      );
    });

    it('refuses a second account with the same login or e-mail in any case', async () => {
      await registerMany(1, 'grace');
      await expect(
        commands.register({ login: 'GRACE0', email: 'other@example.com', passwordHash: HASH, plan: 'FREE' }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      await expect(
        commands.register({ login: 'other', email: 'Grace0@example.com', passwordHash: HASH, plan: 'FREE' }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      // The failed registration released its login claim, so the login is free again.
      await expect(
        commands.register({ login: 'other', email: 'other2@example.com', passwordHash: HASH, plan: 'FREE' }),
      ).resolves.toMatch(/-/);
    });

    it('lets exactly one of many concurrent registrations of one login win', async () => {
      const attempts = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          commands.register({
            login: 'Race',
            email: `race${i}@example.com`,
            passwordHash: HASH,
            plan: 'FREE',
          }),
        ),
      );
      const won = attempts.filter((a) => a.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const a of attempts) {
        if (a.status === 'rejected') expect(a.reason).toMatchObject({ code: 'CONFLICT' });
      }
      await runner.start();
      await until(
        () => reader.count(),
        (n) => n === 1,
      );
      expect(await reader.byLogin('race')).toMatchObject({
        accountId: (won[0] as PromiseFulfilledResult<string>).value,
      });
    });

    it('applies a redelivered event once', async () => {
      const [id] = await registerMany(1, 'dup');
      await runner.prepare();
      const [registered] = await fx.store.readStream(`account-${id}`);
      expect(await runner.applyLive(accountsProjection, registered!)).toBe(true);
      expect(await runner.applyLive(accountsProjection, registered!)).toBe(false);
      expect(await reader.count()).toBe(1);
    });

    it('rebuilt from zero equals the read model built incrementally, and keeps up afterwards', async () => {
      await runner.start();
      const ids = await registerMany(12, 'user');
      for (const [i, id] of ids.entries()) {
        if (i % 2 === 0) await commands.grantRole(id, 'ROLE_ADMIN');
        if (i % 3 === 0) await commands.changePlan(id, 'PRO');
        if (i % 4 === 0)
          await commands.issueActivationKey(id, 'd'.repeat(64), new Date(Date.now() + 3600_000));
      }
      await until(
        () => runner.status(),
        (s) => s[0]!.lag === 0,
      );
      const incremental = await reader.all();
      expect(incremental).toHaveLength(12);
      const before = (await runner.status())[0]!;

      // Writers keep going while the rebuild runs; nothing they write may be lost by the swap.
      const during = registerMany(5, 'late');
      const status = await runner.rebuild('accounts');
      await during;
      expect(status.generation).toBe(before.generation + 1);
      await until(
        () => reader.count(),
        (n) => n === 17,
      );
      const live = await reader.all();

      // A second rebuild from zero with the live consumer stopped is the reference.
      await runner.stop();
      await runner.rebuild('accounts');
      expect(await reader.all()).toEqual(live);
      expect(live.filter((v) => !v.login.startsWith('late'))).toEqual(incremental);

      await runner.start();
      const [after] = await registerMany(1, 'after');
      await until(
        () => reader.byId(after!),
        (v) => v !== null,
      );
    });

    it('rebuilds at start when a projection changes version', async () => {
      await registerMany(3, 'v');
      await runner.prepare();
      const bumped: Projection = { ...accountsProjection, version: accountsProjection.version + 1 };
      const next = new ProjectionRunner({ db: fx.db, store: fx.store, bus, projections: [bumped] });
      await next.prepare();
      const [status] = await next.status();
      expect(status).toMatchObject({ version: bumped.version, generation: 2, lag: 0 });
      expect(await reader.count()).toBe(3);
    });

    it('refuses to rebuild an unknown projection by name', async () => {
      await expect(runner.rebuild('nope')).rejects.toThrow(/unknown projection nope; known: accounts/);
    });
  });
}
