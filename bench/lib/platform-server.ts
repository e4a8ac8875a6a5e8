/**
 * Child process of bench/text.ts and bench/lookups.ts: the full Toolgate platform as `toolgate start` runs it
 * in the embedded profile (every role, SQLite), with every service cli/platform.ts wires, so that the load
 * generator in the parent never shares an event loop with it. Driven over IPC by ServerProcess (child.ts) through
 * (platform-process.ts); exits when the parent goes away.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { openPlatform, type Platform } from '../../cli/platform.js';
import { openRuntime, type Runtime } from '../../cli/runtime.js';
import { hashPassword } from '../../core/auth/passwords.js';
import { loadConfig } from '../../core/config/config.js';
import { ApiKeyCommands } from '../../services/apikeys/commands.js';
import { withTimeout } from './bench.js';

interface Request {
  readonly id: number;
  readonly cmd: string;
  readonly args?: unknown;
}

let app: FastifyInstance | null = null;
let rt: Runtime | null = null;
let platform: Platform | null = null;

/** `env`: the process environment the configuration is loaded from (no .env). */
async function start(env: Record<string, string>): Promise<{ port: number }> {
  const config = loadConfig(env, { dotenv: false });
  const logger = pino({ level: 'warn' }, pino.destination(2));
  rt = await openRuntime(config, logger);
  platform = await openPlatform(rt, logger);
  await rt.projections.start();
  await platform.startProjectors();
  rt.relay?.start();
  app = await platform.app({ logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { port: address.port };
}

/** An activated account on the bench plan and a key for every service (`*`), once the gateway sees both. */
async function provision(): Promise<{ accountId: string; key: string }> {
  if (!rt || !platform) throw new Error('not started');
  const login = `bench${randomBytes(5).toString('hex')}`;
  const accountId = await rt.accounts.commands.register({
    login,
    email: `${login}@bench.invalid`,
    passwordHash: await hashPassword(randomBytes(16).toString('hex')),
    plan: 'FREE',
    activated: true,
  });
  const created = await new ApiKeyCommands(rt.store).create(accountId, { name: 'bench', scopes: ['*'] });
  const hash = createHash('sha256').update(created.key).digest('hex');
  const ports = platform.ports;
  await withTimeout(
    'key and account in the read models',
    60_000,
    (async () => {
      while (!((await ports.keys.find(hash)) && (await ports.accounts.byId(accountId)))) {
        await new Promise((r) => setTimeout(r, 50));
      }
    })(),
  );
  return { accountId, key: created.key };
}

let closing: Promise<void> | null = null;
const close = (): Promise<void> =>
  (closing ??= (async () => {
    await app?.close();
    await platform?.close();
    await rt?.close();
  })());

async function dispatch(req: Request): Promise<unknown> {
  switch (req.cmd) {
    case 'start':
      return start(req.args as Record<string, string>);
    case 'provision':
      return provision();
    case 'cpu':
      return process.cpuUsage();
    case 'close':
      await close();
      return null;
    default:
      throw new Error(`unknown command ${req.cmd}`);
  }
}

process.on('message', (msg: Request) => {
  dispatch(msg).then(
    (result) => process.send?.({ id: msg.id, ok: true, result }),
    (err: unknown) =>
      process.send?.({
        id: msg.id,
        ok: false,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      }),
  );
});
// The parent is gone (crashed or killed): nothing is left to serve.
process.on('disconnect', () => {
  void withTimeout('close after disconnect', 10_000, close()).finally(() => process.exit(0));
});
