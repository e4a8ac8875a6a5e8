/**
 * Child process of bench/gateway.ts: serves one side of the comparison (bare Fastify, or Toolgate with the roles
 * asked for) so that the load generator never shares an event loop with the server. Driven over the IPC channel
 * by ServerProcess (child.ts); exits when the parent goes away.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { openPlatform, type Platform } from '../../cli/platform.js';
import { openRuntime, type Runtime } from '../../cli/runtime.js';
import { hashPassword } from '../../core/auth/passwords.js';
import { loadConfig } from '../../core/config/config.js';
import type { GroupCommitStats } from '../../core/metering/group-commit.js';
import type { CallContext } from '../../core/service/definition.js';
import { buildApp } from '../../gateway/app.js';
import { docsPlugin } from '../../gateway/docs.js';
import type { GatewayPorts } from '../../gateway/ports.js';
import { ApiKeyCommands } from '../../services/apikeys/commands.js';
import { withTimeout } from './bench.js';
import { bareApp, pingService } from './ping-service.js';

export type Role = 'gateway' | 'projector' | 'worker';

export type StartArgs =
  | { kind: 'bare' }
  | {
      kind: 'toolgate';
      /** The process environment the configuration is loaded from (no .env). */
      env: Record<string, string>;
      roles: Role[];
      /** Time the stages of each call (key lookup, limiter, metering) and the whole request. */
      stages: boolean;
    };

export interface StageSummary {
  readonly name: string;
  readonly count: number;
  /** Mean, p50 and p99 in ms. */
  readonly mean: number;
  readonly p50: number;
  readonly p99: number;
}

export interface Usage {
  readonly cpuUserMs: number;
  readonly cpuSystemMs: number;
  readonly wallMs: number;
  /** Event-loop utilization since the previous call (0…1). */
  readonly elu: number;
  /** Longest event-loop delay since the previous call, in ms (a synchronous stall: GC, a SQLite checkpoint). */
  readonly loopDelayMaxMs: number;
}

interface Request {
  readonly id: number;
  readonly cmd: string;
  readonly args?: unknown;
}

let app: FastifyInstance | null = null;
let rt: Runtime | null = null;
let platform: Platform | null = null;
const stages = new Map<string, number[]>();
let lastElu = performance.eventLoopUtilization();
let lastCpu = process.cpuUsage();
let lastWall = performance.now();
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();

const record = (name: string, ms: number): void => {
  let xs = stages.get(name);
  if (!xs) {
    xs = [];
    stages.set(name, xs);
  }
  xs.push(ms);
};

/** The gateway ports with each awaited stage timed; what the gateway sees is otherwise unchanged. */
function timedPorts(ports: GatewayPorts): GatewayPorts {
  const time =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const t0 = performance.now();
      try {
        return await fn(...args);
      } finally {
        record(name, performance.now() - t0);
      }
    };
  return {
    ...ports,
    keys: { find: time('key lookup (cache miss)', (h: string) => ports.keys.find(h)) },
    accounts: { byId: time('account lookup (cache miss)', (id: string) => ports.accounts.byId(id)) },
    limiter: {
      consume: time('rate limiter consume', (req) => ports.limiter.consume(req)),
      release: (accountId, now) => ports.limiter.release(accountId, now),
    },
    metering: { record: time('metering record (group commit)', (call) => ports.metering.record(call)) },
  };
}

async function start(args: StartArgs): Promise<{ port: number }> {
  if (args.kind === 'bare') {
    app = bareApp();
  } else {
    const config = loadConfig(args.env, { dotenv: false });
    const logger = pino({ level: 'warn' }, pino.destination(2));
    rt = await openRuntime(config, logger);
    platform = await openPlatform(rt, logger);
    if (args.roles.includes('projector')) {
      await rt.projections.start();
      await platform.startProjectors();
    } else {
      await rt.projections.prepare();
    }
    if (args.roles.includes('worker')) rt.relay?.start();
    if (!args.roles.includes('gateway')) return { port: 0 };
    const runtime = rt;
    // What platform.app() builds, with the benchmark's operation added to the platform's services.
    app = await buildApp({
      config,
      health: () => runtime.health(),
      services: [...platform.services, pingService],
      ports: args.stages ? timedPorts(platform.ports) : platform.ports,
      logger: false,
      plugins: [docsPlugin(config.PUBLIC_URL, '0.1.0')],
    });
    if (args.stages) {
      app.server.on('request', (_req, res) => {
        const t0 = performance.now();
        res.once('finish', () => record('whole request (server side)', performance.now() - t0));
      });
    }
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return { port: address.port };
}

/** An activated account on the bench plan and a key scoped to `readability`, visible to the gateway's lookups. */
async function provision(): Promise<{ accountId: string; key: string; keyId: string }> {
  if (!rt || !platform) throw new Error('not started');
  const login = `bench${randomBytes(5).toString('hex')}`;
  const accountId = await rt.accounts.commands.register({
    login,
    email: `${login}@bench.invalid`,
    passwordHash: await hashPassword(randomBytes(16).toString('hex')),
    plan: 'FREE',
    activated: true,
  });
  const created = await new ApiKeyCommands(rt.store).create(accountId, {
    name: 'bench',
    scopes: ['readability'],
  });
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
  return { accountId, key: created.key, keyId: created.keyId };
}

/** The account's 2xx calls this month, through the platform's own usage route handler. */
async function usage(accountId: string): Promise<number> {
  if (!platform) throw new Error('not started');
  const route = platform.services.flatMap((s) => s.routes).find((r) => r.operationId === 'getUsage');
  if (!route) throw new Error('the platform has no getUsage route');
  const ctx: CallContext = {
    requestId: 'bench-usage',
    accountId,
    keyId: null,
    roles: [],
    plan: null,
    batchLimit: 1,
    ip: '127.0.0.1',
    now: () => new Date(),
  };
  const result = (await route.handler({ params: {}, query: {}, body: undefined, headers: {} }, ctx)) as {
    data: { used: number };
  };
  return result.data.used;
}

function meteringStats(): GroupCommitStats | null {
  const sink = platform?.ports.metering as { stats?: () => GroupCommitStats } | undefined;
  return typeof sink?.stats === 'function' ? sink.stats() : null;
}

function usageSinceLast(): Usage {
  const cpu = process.cpuUsage(lastCpu);
  const elu = performance.eventLoopUtilization(lastElu);
  const wall = performance.now() - lastWall;
  lastCpu = process.cpuUsage();
  lastElu = performance.eventLoopUtilization();
  lastWall = performance.now();
  const loopDelayMaxMs = loopDelay.max / 1e6;
  loopDelay.reset();
  return {
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    wallMs: wall,
    elu: elu.utilization,
    loopDelayMaxMs,
  };
}

function takeStages(): StageSummary[] {
  const out: StageSummary[] = [];
  for (const [name, xs] of stages) {
    const sorted = xs.sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
    out.push({
      name,
      count: sorted.length,
      mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
      p50: at(50),
      p99: at(99),
    });
  }
  stages.clear();
  return out;
}

let closing: Promise<void> | null = null;
const close = (): Promise<void> =>
  (closing ??= (async () => {
    await app?.close();
    await platform?.close();
    await rt?.close();
  })());

let session: Session | null = null;

/** V8's sampling profiler on this process, from now until profileStop: the measured window only. */
async function profileStart(): Promise<void> {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
}

async function profileStop(file: string): Promise<void> {
  if (!session) throw new Error('the profiler was not started');
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  session.disconnect();
  session = null;
}

async function dispatch(req: Request): Promise<unknown> {
  switch (req.cmd) {
    case 'start':
      return start(req.args as StartArgs);
    case 'provision':
      return provision();
    case 'usage':
      return usage(req.args as string);
    case 'meteringStats':
      return meteringStats();
    case 'usageSinceLast':
      return usageSinceLast();
    case 'stages':
      return takeStages();
    case 'profileStart':
      return profileStart();
    case 'profileStop':
      return profileStop(req.args as string);
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
