import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyRefusal, keyUsable } from '../../core/auth/key-lookup.js';
import { InProcessBus } from '../../core/bus/in-process-bus.js';
import type { CheckpointStore } from '../../core/checkpoints/checkpoints.js';
import type { EventStore } from '../../core/events/event-store.js';
import { newId } from '../../core/ids.js';
import { ProjectionRunner } from '../../core/projections/runner.js';
import { type CallContext, isReply, type RouteDefinition } from '../../core/service/definition.js';
import type { SqlDb } from '../../core/sql/sql-db.js';
import { apiKeysProjection } from '../../projections/apikeys/projection.js';
import { ApiKeysReader, SqlKeyLookup } from '../../projections/apikeys/reader.js';
import { ApiKeyCommands, apiKeyStream } from '../../services/apikeys/commands.js';
import { hashKey } from '../../services/apikeys/key.js';
import { createApiKeysService } from '../../services/apikeys/service.js';

export interface ApiKeysFixture {
  readonly store: EventStore;
  readonly checkpoints: CheckpointStore;
  readonly db: SqlDb;
  cleanup(): Promise<void>;
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);
const check = (schema: object, value: unknown): string[] => {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
};

/**
 * Key commands, the `apikeys` SQL read model, SqlKeyLookup and the portal routes on one read-model database.
 */
export function describeApiKeys(name: string, factory: () => Promise<ApiKeysFixture>): void {
  describe(`API keys (commands, read model, routes) on ${name}`, () => {
    let fx: ApiKeysFixture;
    let bus: InProcessBus;
    let runner: ProjectionRunner;
    let commands: ApiKeyCommands;
    let reader: ApiKeysReader;
    let lookup: SqlKeyLookup;
    let clock: number;
    const ada = newId();
    const bob = newId();
    const caughtUp = () =>
      until(
        () => runner.status(),
        (s) => s[0]!.lag === 0,
      );

    beforeEach(async () => {
      fx = await factory();
      // A slow poll: reads right after a write only see it if something waits for the projection.
      bus = new InProcessBus(fx.store, fx.checkpoints, { pollMs: 150 });
      runner = new ProjectionRunner({
        db: fx.db,
        store: fx.store,
        bus,
        projections: [apiKeysProjection],
        batchSize: 50,
      });
      clock = Date.now();
      commands = new ApiKeyCommands(fx.store, () => new Date(clock));
      reader = new ApiKeysReader(fx.db);
      lookup = new SqlKeyLookup(fx.db);
    });
    afterEach(async () => {
      await runner.stop();
      await bus.close();
      await fx.cleanup();
    });

    it('creates a key shown once, stores only its hash, and finds it by hash', async () => {
      await runner.start();
      const expiresAt = new Date(clock + 86_400_000).toISOString();
      const created = await commands.create(ada, {
        name: ' ci ',
        scopes: ['captcha', 'readability'],
        expiresAt,
      });
      expect(created).toMatchObject({
        name: 'ci',
        scopes: ['captcha', 'readability'],
        expiresAt,
        version: 1,
      });
      expect(created.key.startsWith(`tg_${created.keyId}_`)).toBe(true);

      const [event] = await fx.store.readStream(apiKeyStream(created.keyId));
      expect(event).toMatchObject({ type: 'ApiKeyCreated', accountId: ada, occurredAt: created.createdAt });
      expect(JSON.stringify(event)).not.toContain(created.key.slice(20));
      expect(event!.data).toMatchObject({ keyHash: hashKey(created.key), start: created.key.slice(0, 11) });

      const record = await until(
        () => lookup.find(hashKey(created.key)),
        (r) => r !== null,
      );
      expect(record).toEqual({
        keyId: created.keyId,
        accountId: ada,
        scopes: ['captcha', 'readability'],
        expiresAt,
        revoked: false,
        validUntil: null,
      });
      expect(keyUsable(record!, new Date())).toBe(true);
      expect(await lookup.find(hashKey(`${created.key}x`))).toBeNull();
      expect(await reader.listByAccount(ada)).toEqual([
        {
          keyId: created.keyId,
          name: 'ci',
          start: created.key.slice(0, 11),
          scopes: ['captcha', 'readability'],
          createdAt: created.createdAt,
          expiresAt,
        },
      ]);
      expect(await reader.listByAccount(bob)).toEqual([]);
    });

    it('refuses invalid input before anything is written', async () => {
      const attempts = [
        [{ name: '', scopes: ['captcha'] }, 'name: must not be blank'],
        [
          { name: 'x', scopes: ['captcha', 'nope'] },
          'scopes: must be known service slugs or * (unknown: "nope")',
        ],
        [{ name: 'x', scopes: [] }, 'scopes: must contain at least 1 item'],
        [
          { name: 'x', scopes: ['*'], expiresAt: new Date(clock - 1).toISOString() },
          'expiresAt: must be in the future',
        ],
      ] as const;
      for (const [input, message] of attempts) {
        await expect(commands.create(ada, input)).rejects.toMatchObject({
          code: 'VALIDATION_ERROR',
          message,
        });
      }
      expect(await fx.store.headPosition()).toBe(0);
    });

    it('revokes for the owner only; the lookup then says revoked and the list drops the key', async () => {
      await runner.start();
      const a = await commands.create(ada, { name: 'a', scopes: ['*'] });
      const b = await commands.create(ada, { name: 'b', scopes: ['cron'] });
      await expect(commands.revoke(bob, a.keyId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(commands.revoke(ada, 'AAAAAAAAAAAAAAAA')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(commands.revoke(ada, '../etc/passwd')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await commands.revoke(ada, a.keyId)).toEqual({ keyId: a.keyId, version: 2 });
      await expect(commands.revoke(ada, a.keyId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(commands.reroll(ada, a.keyId)).rejects.toMatchObject({ code: 'NOT_FOUND' });

      expect(await reader.waitForVersion(a.keyId, 2)).toBe(true);
      const record = await lookup.find(hashKey(a.key));
      expect(record).toMatchObject({ keyId: a.keyId, revoked: true });
      expect(keyRefusal(record!, new Date())).toBe('revoked');
      expect((await reader.listByAccount(ada)).map((k) => k.keyId)).toEqual([b.keyId]);
      expect(await reader.byId(a.keyId)).toMatchObject({
        accountId: ada,
        version: 2,
        revokedAt: expect.any(String),
      });
    });

    it('rerolls: new secret works, old one until its overlap ends; a later reroll can end it', async () => {
      await runner.start();
      const k = await commands.create(ada, { name: 'k', scopes: ['dns-checker'] });
      await expect(commands.reroll(bob, k.keyId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(commands.reroll(ada, k.keyId, 86_401)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });

      const r1 = await commands.reroll(ada, k.keyId, 600);
      expect(r1.previousValidUntil).toBe(new Date(clock + 600_000).toISOString());
      expect(r1.key).not.toBe(k.key);
      expect(r1.key.startsWith(`tg_${k.keyId}_`)).toBe(true);
      expect(await reader.waitForVersion(k.keyId, r1.version)).toBe(true);

      const old = (await lookup.find(hashKey(k.key)))!;
      const current = (await lookup.find(hashKey(r1.key)))!;
      expect(old).toMatchObject({ keyId: k.keyId, validUntil: r1.previousValidUntil, revoked: false });
      expect(current).toMatchObject({ keyId: k.keyId, validUntil: null, scopes: ['dns-checker'] });
      expect(keyUsable(old, new Date(clock + 599_000))).toBe(true);
      expect(keyRefusal(old, new Date(clock + 600_000))).toBe('rotated');
      const [listed] = await reader.listByAccount(ada);
      expect(listed).toMatchObject({
        keyId: k.keyId,
        start: r1.key.slice(0, 11),
        lastRotatedAt: expect.any(String),
      });

      // A second reroll with overlap 0 (a leak): every earlier secret ends now, including the first one.
      const r2 = await commands.reroll(ada, k.keyId, 0);
      expect(r2.previousValidUntil).toBe(new Date(clock).toISOString());
      await reader.waitForVersion(k.keyId, r2.version);
      for (const key of [k.key, r1.key]) {
        expect(await lookup.find(hashKey(key))).toMatchObject({ validUntil: r2.previousValidUntil });
      }
      expect(keyUsable((await lookup.find(hashKey(r2.key)))!, new Date(clock + 1))).toBe(true);

      // Revoking during an overlap stops the old secrets too.
      const r3 = await commands.reroll(ada, k.keyId, 3600);
      await commands.revoke(ada, k.keyId);
      await reader.waitForVersion(k.keyId, r3.version + 1);
      for (const key of [k.key, r1.key, r2.key, r3.key]) {
        expect(await lookup.find(hashKey(key))).toMatchObject({ revoked: true });
      }
    });

    it('refuses to reroll an expired key', async () => {
      const k = await commands.create(ada, {
        name: 'short',
        scopes: ['captcha'],
        expiresAt: new Date(clock + 3_600_000).toISOString(),
      });
      const r = await commands.reroll(ada, k.keyId, 86_400);
      expect(r.previousValidUntil).toBe(k.expiresAt);
      clock += 3_600_000;
      await expect(commands.reroll(ada, k.keyId)).rejects.toMatchObject({ code: 'CONFLICT' });
      // Deleting an expired key is still allowed: it is how the owner tidies the list.
      await expect(commands.revoke(ada, k.keyId)).resolves.toMatchObject({ version: 3 });
    });

    it('serialises concurrent rerolls of one key through the expected version', async () => {
      const k = await commands.create(ada, { name: 'busy', scopes: ['captcha'] });
      const results = await Promise.all(Array.from({ length: 4 }, () => commands.reroll(ada, k.keyId, 60)));
      expect(results.map((r) => r.version).sort()).toEqual([2, 3, 4, 5]);
      const events = await fx.store.readStream(apiKeyStream(k.keyId));
      expect(events.map((e) => e.type)).toEqual(['ApiKeyCreated', ...Array(4).fill('ApiKeyRerolled')]);
      // Each reroll replaced the secret that was current when it was appended: a single chain of hashes.
      const chain = events.slice(1).map((e) => e.data as { keyHash: string; previousKeyHash: string });
      expect(chain[0]!.previousKeyHash).toBe(hashKey(k.key));
      for (let i = 1; i < chain.length; i++) expect(chain[i]!.previousKeyHash).toBe(chain[i - 1]!.keyHash);
      const last = results.find((r) => r.version === 5)!;
      expect(chain[3]!.keyHash).toBe(hashKey(last.key));
    });

    it('applies a redelivered event once, and a rebuild equals the incremental read model', async () => {
      await runner.start();
      for (let i = 0; i < 6; i++) {
        const k = await commands.create(i % 2 ? ada : bob, { name: `k${i}`, scopes: ['captcha'] });
        if (i % 3 === 0) await commands.reroll(i % 2 ? ada : bob, k.keyId, 120);
        if (i % 4 === 0) await commands.revoke(i % 2 ? ada : bob, k.keyId);
      }
      await caughtUp();
      const [first] = await fx.store.readAll(0, 1);
      expect(await runner.applyLive(apiKeysProjection, first!)).toBe(false);
      const rows = await reader.all();
      const hashes = await reader.hashes();
      expect(rows).toHaveLength(6);
      expect(hashes).toHaveLength(8);
      await runner.stop();
      const status = await runner.rebuild('apikeys');
      expect(status.generation).toBe(2);
      expect(await reader.all()).toEqual(rows);
      expect(await reader.hashes()).toEqual(hashes);
    });

    describe('portal routes', () => {
      let routes: Record<string, RouteDefinition>;
      const ctx = (accountId: string | null): CallContext => ({
        requestId: 'req-1',
        accountId,
        keyId: null,
        roles: ['ROLE_USER'],
        plan: null,
        batchLimit: 1,
        ip: '127.0.0.1',
        now: () => new Date(clock),
      });
      const call = (op: string, accountId: string | null, input: { params?: object; body?: unknown } = {}) =>
        routes[op]!.handler({ params: {}, query: {}, headers: {}, ...input } as never, ctx(accountId));

      beforeEach(async () => {
        const service = createApiKeysService({
          commands,
          reader,
          waitFor: (keyId, version) => reader.waitForVersion(keyId, version),
        });
        expect(service.slug).toBe('portal-keys');
        routes = Object.fromEntries(service.routes.map((r) => [r.operationId, r]));
        await runner.start();
      });

      it('declares the four portal routes, JWT-authenticated and unmetered', () => {
        expect(
          Object.values(routes).map((r) => `${r.method} ${r.path} ${r.convention} ${r.auth} ${r.metered}`),
        ).toEqual([
          'POST /api/portal/api-keys portal jwt false',
          'GET /api/portal/api-keys portal jwt false',
          'DELETE /api/portal/api-keys/{keyId} portal jwt false',
          'POST /api/portal/api-keys/{keyId}/reroll portal jwt false',
        ]);
        expect(routes.createApiKey!.status).toBe(201);
        expect(check(routes.createApiKey!.schemas.body!, { name: 'n', scopes: ['x'] })).toEqual([]);
        expect(check(routes.createApiKey!.schemas.body!, { name: 'n', scopes: ['x'], key: 'k' })).not.toEqual(
          [],
        );
        expect(check(routes.rerollApiKey!.schemas.body!, null)).toEqual([]);
        expect(check(routes.rerollApiKey!.schemas.body!, { overlapSeconds: 86_401 })).not.toEqual([]);
      });

      it('create, list, reroll, delete: documented bodies; each read shows the prior write', async () => {
        const created = (await call('createApiKey', ada, {
          body: { name: 'web', scopes: ['url-metadata', 'screenshot'] },
        })) as { status: string; data: { keyId: string; key: string } };
        expect(check(routes.createApiKey!.schemas.response[201]!, created)).toEqual([]);
        expect(created).toMatchObject({ status: 'OK', data: { name: 'web', expiresAt: null } });
        const { keyId, key } = created.data;

        // No waiting here: the route already waited for the read model (the bus polls only every 150 ms).
        const list = (await call('listApiKeys', ada)) as { data: { keyId: string }[] };
        expect(check(routes.listApiKeys!.schemas.response[200]!, list)).toEqual([]);
        expect(list.data.map((k) => k.keyId)).toEqual([keyId]);
        expect(JSON.stringify(list)).not.toContain(key.slice(20));
        expect(await lookup.find(hashKey(key))).not.toBeNull();
        expect(await call('listApiKeys', bob)).toEqual({ status: 'OK', data: [] });

        const rerolled = (await call('rerollApiKey', ada, {
          params: { keyId },
          body: { overlapSeconds: 30 },
        })) as {
          data: { key: string; previousValidUntil: string };
        };
        expect(check(routes.rerollApiKey!.schemas.response[200]!, rerolled)).toEqual([]);
        expect(rerolled.data.previousValidUntil).toBe(new Date(clock + 30_000).toISOString());
        expect(await lookup.find(hashKey(rerolled.data.key))).toMatchObject({ validUntil: null });
        const defaulted = (await call('rerollApiKey', ada, { params: { keyId }, body: undefined })) as {
          data: { previousValidUntil: string };
        };
        expect(defaulted.data.previousValidUntil).toBe(new Date(clock + 3_600_000).toISOString());

        await expect(call('deleteApiKey', bob, { params: { keyId } })).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
        const deleted = await call('deleteApiKey', ada, { params: { keyId } });
        expect(isReply(deleted) && deleted.status).toBe(204);
        expect(isReply(deleted) && deleted.body).toBeNull();
        expect(await call('listApiKeys', ada)).toEqual({ status: 'OK', data: [] });
        expect(await lookup.find(hashKey(rerolled.data.key))).toMatchObject({ revoked: true });
        await expect(call('deleteApiKey', ada, { params: { keyId } })).rejects.toMatchObject({
          code: 'NOT_FOUND',
        });
      });

      it('validates bodies with the catalogue messages and refuses a call without an account', async () => {
        await expect(
          call('createApiKey', ada, { body: { name: 'x', scopes: ['captcha', 'portal-keys'] } }),
        ).rejects.toMatchObject({
          code: 'VALIDATION_ERROR',
          message: 'scopes: must be known service slugs or * (unknown: "portal-keys")',
        });
        await expect(call('listApiKeys', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      });
    });
  });
}
