/**
 * Test composition for the portal's embedded suites: the real accounts stack on SQLite (event store, projection
 * runner with the accounts read model, in-process bus), a real SMTP server as the mail sink, the real KV store.
 * It wires services/accounts and projections/accounts into the portal the way cli/ does, so it is a composition
 * root for tests and imports across layers on purpose; nothing but the portal's tests imports it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JwtService } from '../../core/auth/jwt.js';
import { SecretStore } from '../../core/auth/secrets.js';
import { InProcessBus } from '../../core/bus/in-process-bus.js';
import { SqliteCheckpointStore } from '../../core/checkpoints/sqlite-checkpoints.js';
import { openSqlite } from '../../core/db/sqlite.js';
import type { StoredEvent } from '../../core/events/envelope.js';
import { EventSchemaRegistry } from '../../core/events/schema-registry.js';
import { SqliteEventStore } from '../../core/events/sqlite-event-store.js';
import { SqliteKvStore } from '../../core/kv/sqlite-kv.js';
import type { Mailer } from '../../core/mail/mailer.js';
import { SmtpMailer } from '../../core/mail/smtp-mailer.js';
import { ProjectionRunner } from '../../core/projections/runner.js';
import type { CallContext, HttpMethod, RouteDefinition } from '../../core/service/definition.js';
import { SqliteSqlDb } from '../../core/sql/sqlite-sql-db.js';
import { accountsProjection } from '../../projections/accounts/projection.js';
import { AccountsReader } from '../../projections/accounts/reader.js';
import { AccountCommands } from '../../services/accounts/commands.js';
import {
  createPortalAuthService,
  type PortalAuthDeps,
  type PortalAuthService,
} from '../../services/portal/auth-service.js';
import { LoginThrottle } from '../../services/portal/login-throttle.js';
import { bundledBreachedPasswords } from '../../services/portal/password-policy.js';
import { type ParsedMail, parseMail } from '../conformance/mail-message.js';
import { type SmtpSink, startSmtpSink } from '../conformance/mail-sink.js';

export const PUBLIC_URL = 'https://toolgate.example';

export interface PortalFixtureOptions {
  /** Start consuming events into the read model at once (default true). */
  readonly startProjections?: boolean;
  readonly waitForAccount?: PortalAuthDeps['waitForAccount'];
  /** Replaces the SMTP mailer (e.g. one that fails). */
  readonly mailer?: Mailer;
}

export interface PortalFixture {
  readonly store: SqliteEventStore;
  readonly commands: AccountCommands;
  readonly reader: AccountsReader;
  readonly runner: ProjectionRunner;
  readonly kv: SqliteKvStore;
  readonly jwt: JwtService;
  readonly throttle: LoginThrottle;
  readonly sink: SmtpSink;
  readonly service: PortalAuthService;
  /** Slow-down waits the throttle asked for (recorded instead of slept). */
  readonly throttleWaits: number[];
  /** Failures the service reported through onError. */
  readonly reportedErrors: { err: unknown; during: string }[];
  /** The portal's and the KV store's clock; starts at real time, moves only when told. */
  readonly clock: { now(): Date; advance(ms: number): void };
  route(method: HttpMethod, path: string): RouteDefinition;
  call(
    method: HttpMethod,
    path: string,
    input?: { body?: unknown; query?: Record<string, unknown>; ip?: string },
  ): Promise<unknown>;
  mails(): ParsedMail[];
  /** The activation key in the link of a mail. */
  keyOf(mail: ParsedMail): string;
  events(): Promise<StoredEvent[]>;
  /** Every row of every table of the three databases, as text (to prove what is never stored). */
  dumpDatabases(): string;
  cleanup(): Promise<void>;
}

export async function openPortalFixture(options: PortalFixtureOptions = {}): Promise<PortalFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'tg-portal-'));
  const eventsDb = openSqlite(join(dir, 'events.db'));
  const readDb = openSqlite(join(dir, 'readmodels.db'));
  const kvDb = openSqlite(join(dir, 'kv.db'));

  let time = Date.now();
  const clock = {
    now: () => new Date(time),
    advance: (ms: number) => {
      time += ms;
    },
  };

  const store = new SqliteEventStore(eventsDb, { schemas: EventSchemaRegistry.fromDirectory() });
  const checkpoints = new SqliteCheckpointStore(eventsDb);
  const bus = new InProcessBus(store, checkpoints, { pollMs: 10 });
  const readModels = new SqliteSqlDb(readDb);
  const runner = new ProjectionRunner({ db: readModels, store, bus, projections: [accountsProjection] });
  if (options.startProjections ?? true) await runner.start();
  else await runner.prepare();

  const commands = new AccountCommands(store);
  const reader = new AccountsReader(readModels);
  const kv = new SqliteKvStore(kvDb, { now: () => time });
  const jwt = await JwtService.open({
    secrets: new SecretStore(readModels),
    issuer: PUBLIC_URL,
    now: clock.now,
  });
  const throttleWaits: number[] = [];
  const throttle = new LoginThrottle(kv, {
    sleep: async (ms) => {
      throttleWaits.push(ms);
    },
  });
  const sink = await startSmtpSink();
  const mailer = options.mailer ?? new SmtpMailer({ url: sink.url, publicUrl: PUBLIC_URL });
  const reportedErrors: { err: unknown; during: string }[] = [];

  const service = createPortalAuthService({
    accounts: commands,
    reader,
    jwt,
    mailer,
    throttle,
    breached: bundledBreachedPasswords(),
    config: { PUBLIC_URL, DEFAULT_PLAN: 'FREE' },
    now: clock.now,
    ...(options.waitForAccount ? { waitForAccount: options.waitForAccount } : {}),
    onError: (err, during) => reportedErrors.push({ err, during }),
  });

  const route = (method: HttpMethod, path: string): RouteDefinition => {
    const r = service.routes.find((x) => x.method === method && x.path === path);
    if (!r) throw new Error(`no route ${method} ${path}`);
    return r;
  };

  let requests = 0;
  const call: PortalFixture['call'] = (method, path, input = {}) => {
    const ctx: CallContext = {
      requestId: `req-${++requests}`,
      accountId: null,
      keyId: null,
      roles: [],
      plan: null,
      batchLimit: 1,
      ip: input.ip ?? '203.0.113.5',
      now: clock.now,
    };
    return route(method, path).handler(
      { params: {}, query: input.query ?? {}, body: input.body, headers: {} },
      ctx,
    );
  };

  return {
    store,
    commands,
    reader,
    runner,
    kv,
    jwt,
    throttle,
    sink,
    service,
    throttleWaits,
    reportedErrors,
    clock,
    route,
    call,
    mails: () => sink.received.map((m) => parseMail(m.raw)),
    keyOf: (mail) => {
      const match = /\/activate\?key=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
      if (!match) throw new Error('no activation link in the mail');
      return match[1]!;
    },
    events: () => store.readAll(0, 100_000),
    dumpDatabases: () =>
      [eventsDb, readDb, kvDb]
        .flatMap((db) =>
          (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
            ({ name }) => JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all()),
          ),
        )
        .join('\n'),
    cleanup: async () => {
      await service.drain();
      await runner.stop();
      await bus.close();
      await mailer.close?.();
      await sink.close();
      await kv.close();
      eventsDb.close();
      readDb.close();
      kvDb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
