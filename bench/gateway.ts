/**
 * Gateway benchmark: an authenticated, metered trivial call through the whole Toolgate pipeline (API key →
 * SHA-256 → cached lookup → scope → rate limiter → handler → metering group commit → response) against the same
 * handler on bare Fastify, measured in the same run, for the embedded and the cluster profile.
 *
 *   npm run -s bench:gateway                       (both profiles, about 2.5 minutes)
 *   BENCH_PROFILES=embedded npm run -s bench:gateway
 *   npm run -s bench:gateway -- --profile          (where the time goes: stage timings and a CPU profile)
 *
 * BENCH_SCALE multiplies the measuring times. The cluster profile needs the local stack (deploy/local/up.sh);
 * BENCH_DATABASE_URL, BENCH_KAFKA_BROKERS, BENCH_REDIS_URL and BENCH_CLICKHOUSE_URL override its defaults. It
 * creates a throwaway database (PostgreSQL and ClickHouse), `tgbench_…` topics and Redis keys, and removes
 * them at the end, also on failure.
 *
 * Process layout (2 cores): each server runs in a child process of its own and autocannon in this one, so the
 * load generator never shares an event loop with the server it measures; the server gets about one core, the
 * generator the other (the stack's servers share both). Embedded: one Toolgate process with every role, as
 * `toolgate start` runs it. Cluster: a gateway-only process under load; the worker + projector process (relay,
 * key lookup, usage projectors) creates the key, is stopped while the gateway is measured (a cluster runs it
 * beside the gateways, not on their cores) and started again to count; BENCH_PROJECTORS_DURING_LOAD=1 keeps it
 * running on the same two cores instead.
 *
 * Method: warm-up, then ABBA (Toolgate, bare, bare, Toolgate; each half a fixed number of requests sized to
 * last MEASURE_S / 2, so nothing is in flight when a run ends) at 50 connections, pipelining 1; req/s and the
 * latency under that load come from those runs. Then both sides get an open-loop paced load at half the
 * Toolgate peak (load.ts: autocannon's own rate limit sends each second's budget as one burst, which measures
 * a burst, not a rate). Finally the account's usage, read through the platform's usage route, must equal the
 * 2xx answers the generators saw; the run fails when it does not.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, getPriority, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchScale, Cleanup, fmtInt, machineFacts, percentile, withTimeout } from './lib/bench.js';
import { ServerProcess } from './lib/child.js';
import { type ProfileSummary, summarizeProfile } from './lib/cpuprofile.js';
import type { StageSummary, StartArgs, Usage } from './lib/gateway-server.js';
import {
  closedLoop,
  type LoadResult,
  mergeResults,
  type PacedResult,
  paced,
  rateOf,
  type Target,
} from './lib/load.js';
import { PING_PATH } from './lib/ping-service.js';
import { cpuBetween, procSnapshot } from './lib/procstat.js';
import {
  createDatabase,
  deleteRedisPrefix,
  dropClickHouseDatabase,
  dropDatabase,
  dropKafkaPrefix,
} from './lib/stack.js';

const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const KAFKA_BROKERS = process.env.BENCH_KAFKA_BROKERS ?? '127.0.0.1:9092';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLICKHOUSE_URL = process.env.BENCH_CLICKHOUSE_URL ?? 'http://127.0.0.1:8123';

const SCALE = benchScale();
const PROFILE_MODE = process.argv.includes('--profile');
const CONNECTIONS = 50;
const WARMUP_S = 2;
/** Seconds of closed-loop load per side, as two ABBA halves. */
const MEASURE_S = 10 * SCALE;
/** Seconds of paced load per side at half the Toolgate peak. */
const PACED_S = 8 * SCALE;
/** Keep the cluster's worker + projector process running under load (default: stopped, see setUp). */
const PROJECTORS_DURING_LOAD = process.env.BENCH_PROJECTORS_DURING_LOAD === '1';
/** The bench plan: limits so high that the limiter runs its full step on every call and never refuses. */
const PLANS = {
  FREE: { perMinute: 10_000_000, perDay: 100_000_000, perMonth: 1_000_000_000, batchSize: 10 },
};

type ProfileName = 'embedded' | 'cluster';

const progress = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};

const packageVersion = (name: string): string => {
  try {
    const url = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

// ------------------------------------------------------------------------------------------------ set-up

interface Setup {
  readonly profile: ProfileName;
  readonly bare: Target;
  readonly toolgate: Target;
  readonly bareServer: ServerProcess;
  readonly gateway: ServerProcess;
  /** The process that counts usage: the gateway itself embedded, the projector process in the cluster. */
  readonly counter: () => Promise<ServerProcess>;
  readonly accountId: string;
  /** Process id → role, for the CPU breakdown. */
  readonly roles: Map<number, string>;
}

async function start(name: string, args: StartArgs, cleanup: Cleanup): Promise<[ServerProcess, number]> {
  const server = new ServerProcess(name);
  cleanup.add(`stop ${name} (pid ${server.pid})`, () => server.stop());
  const { port } = await server.call<{ port: number }>('start', args, 180_000);
  return [server, port];
}

async function setUp(profile: ProfileName, cleanup: Cleanup, stages: boolean): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), `tgbench-${profile}-`));
  cleanup.add(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  const plansFile = join(dir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: join(dir, 'data'),
    PLANS_FILE: plansFile,
  };

  let gateway: ServerProcess;
  let counter: () => Promise<ServerProcess>;
  let port: number;
  const roles = new Map<number, string>([[process.pid, 'load generator']]);
  let provisioned: { accountId: string; key: string };
  if (profile === 'embedded') {
    progress('embedded: starting Toolgate (every role, SQLite)');
    [gateway, port] = await start(
      'toolgate-embedded',
      { kind: 'toolgate', env, roles: ['gateway', 'projector', 'worker'], stages },
      cleanup,
    );
    const embedded = gateway;
    counter = async () => embedded;
    provisioned = await gateway.call('provision');
  } else {
    const name = `tgbench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    progress(`cluster: creating database ${name}, topics ${name}.*, Redis keys ${name}:*`);
    cleanup.add(`drop ClickHouse database ${name}`, () => dropClickHouseDatabase(CLICKHOUSE_URL, name));
    cleanup.add(`delete Kafka topics and groups ${name}.*`, () =>
      dropKafkaPrefix(KAFKA_BROKERS.split(','), `${name}.`),
    );
    cleanup.add(`delete Redis keys ${name}:*`, () => deleteRedisPrefix(REDIS_URL, `${name}:`));
    cleanup.add(`drop database ${name}`, () => dropDatabase(PG_ADMIN_URL, name));
    const databaseUrl = await createDatabase(PG_ADMIN_URL, name);
    Object.assign(env, {
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS,
      REDIS_URL,
      CLICKHOUSE_URL: `${CLICKHOUSE_URL.replace(/\/+$/, '')}/${name}`,
      KAFKA_TOPIC_PREFIX: `${name}.`,
      REDIS_PREFIX: `${name}:`,
    });
    progress('cluster: starting the worker + projector process, creating the account and its key');
    const workerArgs: StartArgs = { kind: 'toolgate', env, roles: ['projector', 'worker'], stages: false };
    let [worker] = await start('toolgate-cluster-worker', workerArgs, cleanup);
    provisioned = await worker.call('provision');
    if (PROJECTORS_DURING_LOAD) {
      roles.set(worker.pid ?? 0, 'Toolgate worker + projector');
    } else {
      // A cluster runs its projectors beside the gateways, not on their cores: stopped here while the gateway
      // is measured, started again to count (their consumer groups resume where they stopped).
      await worker.stop();
    }
    let counting: Promise<ServerProcess> | null = null;
    counter = () =>
      (counting ??= (async () => {
        if (worker.running) return worker;
        progress('cluster: starting the projector process again to count the calls');
        [worker] = await start('toolgate-cluster-projector', workerArgs, cleanup);
        return worker;
      })());
    progress('cluster: starting the gateway process');
    [gateway, port] = await start(
      'toolgate-cluster-gateway',
      { kind: 'toolgate', env, roles: ['gateway'], stages },
      cleanup,
    );
  }
  const [bareServer, barePort] = await start(`bare-fastify-${profile}`, { kind: 'bare' }, cleanup);
  roles.set(gateway.pid ?? 0, 'Toolgate gateway');
  roles.set(bareServer.pid ?? 0, 'bare Fastify');
  return {
    profile,
    bare: { port: barePort, path: PING_PATH, headers: {} },
    toolgate: { port, path: PING_PATH, headers: { 'x-api-key': provisioned.key } },
    bareServer,
    gateway,
    counter,
    accountId: provisioned.accountId,
    roles,
  };
}

// ------------------------------------------------------------------------------------------------ runs

interface CpuShare {
  /** Event-loop utilization of the server process (0…1). */
  readonly elu: number;
  /** CPU time of the server process per answered request, in µs: what a request costs, whatever the contention. */
  readonly usPerRequest: number;
  /** Longest event-loop stall of the server process during these runs, in ms. */
  readonly loopDelayMaxMs: number;
  /** CPU per role or product, in % of one core (200 % = both cores of a 2-core box), largest first. */
  readonly groups: { name: string; percent: number }[];
}

interface CpuAcc {
  seconds: number;
  eluSeconds: number;
  serverCpuMs: number;
  requests: number;
  loopDelayMaxMs: number;
  /** Group → percent × seconds. */
  readonly groups: Map<string, number>;
}

/** Tracks what the Toolgate side was answered 2xx, and where CPU went while each side was under load. */
class Ledger {
  toolgate2xx = 0;
  toolgateNon2xx = 0;
  toolgateErrors = 0;
  private readonly cpu = new Map<ServerProcess, CpuAcc>();

  constructor(private readonly roles: ReadonlyMap<number, string>) {}

  async run<R extends LoadResult>(
    server: ServerProcess,
    isToolgate: boolean,
    load: () => Promise<R>,
  ): Promise<R> {
    await server.call<Usage>('usageSinceLast');
    const before = procSnapshot();
    const t0 = performance.now();
    const result = await load();
    const seconds = (performance.now() - t0) / 1000;
    const after = procSnapshot();
    const u = await server.call<Usage>('usageSinceLast');
    const acc = this.cpu.get(server) ?? {
      seconds: 0,
      eluSeconds: 0,
      serverCpuMs: 0,
      requests: 0,
      loopDelayMaxMs: 0,
      groups: new Map(),
    };
    acc.loopDelayMaxMs = Math.max(acc.loopDelayMaxMs, u.loopDelayMaxMs);
    acc.seconds += seconds;
    acc.eluSeconds += u.elu * seconds;
    acc.serverCpuMs += u.cpuUserMs + u.cpuSystemMs;
    acc.requests += result.ok + result.non2xx;
    for (const g of cpuBetween(before, after, seconds, this.roles)) {
      acc.groups.set(g.name, (acc.groups.get(g.name) ?? 0) + g.percent * seconds);
    }
    this.cpu.set(server, acc);
    if (isToolgate) {
      this.toolgate2xx += result.ok;
      this.toolgateNon2xx += result.non2xx;
      this.toolgateErrors += result.errors;
    }
    return result;
  }

  /** Where CPU went during this server's runs since the last take. */
  takeCpu(server: ServerProcess): CpuShare {
    const acc = this.cpu.get(server);
    this.cpu.delete(server);
    if (!acc || acc.seconds === 0) return { elu: 0, usPerRequest: 0, loopDelayMaxMs: 0, groups: [] };
    return {
      elu: acc.eluSeconds / acc.seconds,
      usPerRequest: (1000 * acc.serverCpuMs) / Math.max(1, acc.requests),
      loopDelayMaxMs: acc.loopDelayMaxMs,
      groups: [...acc.groups]
        .map(([name, ps]) => ({ name, percent: ps / acc.seconds }))
        .sort((a, b) => b.percent - a.percent),
    };
  }
}

const cpuOf = (c: CpuShare, name: string): number => c.groups.find((g) => g.name === name)?.percent ?? 0;

/** `CPU % of a core: Toolgate gateway 57 (event loop 79 % busy), load generator 27, …, machine 180`. */
function cpuNote(c: CpuShare, server: string): string {
  const total = c.groups.reduce((n, g) => n + g.percent, 0);
  const parts = c.groups
    .filter((g) => g.percent >= 1)
    .map((g) =>
      g.name === server
        ? `${g.name} ${g.percent.toFixed(0)} (event loop ${(100 * c.elu).toFixed(0)} % busy, ${c.usPerRequest.toFixed(0)} µs CPU per request)`
        : `${g.name} ${g.percent.toFixed(0)}`,
    );
  return `CPU in % of a core: ${parts.join(', ')}; machine ${total.toFixed(0)} of ${100 * cpus().length}`;
}

interface Measured {
  readonly bare: LoadResult;
  readonly toolgate: LoadResult;
  readonly barePaced: PacedResult;
  readonly toolgatePaced: PacedResult;
  readonly bareCpu: CpuShare;
  readonly toolgateCpu: CpuShare;
  readonly pacedCpu: { bare: CpuShare; toolgate: CpuShare };
}

async function warmUp(s: Setup, ledger: Ledger): Promise<{ bareRate: number; toolgateRate: number }> {
  progress(`${s.profile}: warm-up (${WARMUP_S} s per side)`);
  const probeBare = await ledger.run(s.bareServer, false, () => closedLoop(s.bare, CONNECTIONS, 2000));
  const probeTg = await ledger.run(s.gateway, true, () => closedLoop(s.toolgate, CONNECTIONS, 1000));
  const warmBare = await ledger.run(s.bareServer, false, () =>
    closedLoop(s.bare, CONNECTIONS, Math.round(rateOf(probeBare) * WARMUP_S)),
  );
  const warmTg = await ledger.run(s.gateway, true, () =>
    closedLoop(s.toolgate, CONNECTIONS, Math.round(rateOf(probeTg) * WARMUP_S)),
  );
  ledger.takeCpu(s.bareServer);
  ledger.takeCpu(s.gateway);
  return { bareRate: rateOf(warmBare), toolgateRate: rateOf(warmTg) };
}

async function measure(s: Setup, ledger: Ledger): Promise<Measured> {
  const { bareRate, toolgateRate } = await warmUp(s, ledger);
  const half = (rate: number) => Math.max(CONNECTIONS, Math.round((rate * MEASURE_S) / 2));
  const tg = () => ledger.run(s.gateway, true, () => closedLoop(s.toolgate, CONNECTIONS, half(toolgateRate)));
  const bare = () => ledger.run(s.bareServer, false, () => closedLoop(s.bare, CONNECTIONS, half(bareRate)));
  progress(`${s.profile}: ABBA at ${CONNECTIONS} connections, ~${MEASURE_S} s per side`);
  const a1 = await tg();
  const b1 = await bare();
  const b2 = await bare();
  const a2 = await tg();
  const toolgate = mergeResults([a1, a2]);
  const bareResult = mergeResults([b1, b2]);
  const toolgateCpu = ledger.takeCpu(s.gateway);
  const bareCpu = ledger.takeCpu(s.bareServer);

  const rate = Math.round(rateOf(toolgate) / 2);
  progress(`${s.profile}: paced at ${fmtInt(rate)} req/s (half the Toolgate peak), ${PACED_S} s per side`);
  const toolgatePaced = await ledger.run(s.gateway, true, () =>
    paced(s.toolgate, CONNECTIONS, rate, PACED_S),
  );
  const barePaced = await ledger.run(s.bareServer, false, () => paced(s.bare, CONNECTIONS, rate, PACED_S));
  return {
    bare: bareResult,
    toolgate,
    barePaced,
    toolgatePaced,
    bareCpu,
    toolgateCpu,
    pacedCpu: { toolgate: ledger.takeCpu(s.gateway), bare: ledger.takeCpu(s.bareServer) },
  };
}

/** Waits until the usage read model counts `expected` calls (the cluster's projector trails the answers). */
async function meteredCount(counter: ServerProcess, s: Setup, expected: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const used = await counter.call<number>('usage', s.accountId);
    if (used >= expected || Date.now() > deadline) return used;
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Verdict {
  readonly line: string;
  readonly ok: boolean;
}

async function verify(s: Setup, ledger: Ledger): Promise<Verdict> {
  const started = performance.now();
  const counter = await s.counter();
  const used = await meteredCount(counter, s, ledger.toolgate2xx);
  // A count that reached the answers must also stay there: nothing counted twice, nothing late.
  if (s.profile === 'cluster') await new Promise((r) => setTimeout(r, 1000));
  const settled = used === ledger.toolgate2xx ? await counter.call<number>('usage', s.accountId) : used;
  const waited = ((performance.now() - started) / 1000).toFixed(1);
  const ok = settled === ledger.toolgate2xx && ledger.toolgateNon2xx === 0 && ledger.toolgateErrors === 0;
  const line =
    `${s.profile}: metered ${fmtInt(settled)} calls (usage route, after ${waited} s), autocannon and the paced ` +
    `generator saw ${fmtInt(ledger.toolgate2xx)} answered 2xx, ${ledger.toolgateNon2xx} non-2xx, ` +
    `${ledger.toolgateErrors} errors: ${ok ? 'OK' : 'MISMATCH'}`;
  return { line, ok };
}

// ------------------------------------------------------------------------------------------------ table

const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1));

interface Row {
  readonly profile: string;
  readonly target: string;
  readonly rate: number;
  readonly ratio: number | null;
  readonly p50: number;
  readonly p99: number;
  readonly pacedP50: number;
  readonly pacedP99: number;
  readonly notes: string;
}

function renderRows(rows: readonly Row[]): string {
  const lines = [
    '| profile | target | req/s | ratio vs bare | p50 ms | p99 ms | p99 at half peak (p50) ms | notes |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${[
        r.profile,
        r.target,
        fmtInt(r.rate),
        r.ratio === null ? '—' : r.ratio.toFixed(2),
        ms(r.p50),
        ms(r.p99),
        `${ms(r.pacedP99)} (${ms(r.pacedP50)})`,
        r.notes,
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

function rowsOf(s: Setup, m: Measured, meter: string): Row[] {
  const bareRate = rateOf(m.bare);
  const tgRate = rateOf(m.toolgate);
  const paceNote = (p: PacedResult, c: CpuShare, server: string) =>
    `paced ${fmtInt(p.rate)} req/s: ${server} CPU ${cpuOf(c, server).toFixed(0)} %, longest event-loop stall ${c.loopDelayMaxMs.toFixed(0)} ms, at most ${p.maxBacklog} requests waited for a connection`;
  return [
    {
      profile: s.profile,
      target: 'bare Fastify, same handler',
      rate: bareRate,
      ratio: null,
      p50: percentile(m.bare.latenciesMs, 50),
      p99: percentile(m.bare.latenciesMs, 99),
      pacedP50: percentile(m.barePaced.latenciesMs, 50),
      pacedP99: percentile(m.barePaced.latenciesMs, 99),
      notes: `${fmtInt(m.bare.ok)} requests; ${cpuNote(m.bareCpu, 'bare Fastify')}; ${paceNote(m.barePaced, m.pacedCpu.bare, 'bare Fastify')} (the Toolgate rate)`,
    },
    {
      profile: s.profile,
      target: 'Toolgate full pipeline',
      rate: tgRate,
      ratio: tgRate / bareRate,
      p50: percentile(m.toolgate.latenciesMs, 50),
      p99: percentile(m.toolgate.latenciesMs, 99),
      pacedP50: percentile(m.toolgatePaced.latenciesMs, 50),
      pacedP99: percentile(m.toolgatePaced.latenciesMs, 99),
      notes: `${fmtInt(m.toolgate.ok)} requests; ${cpuNote(m.toolgateCpu, 'Toolgate gateway')}; ${paceNote(m.toolgatePaced, m.pacedCpu.toolgate, 'Toolgate gateway')}; ${meter}`,
    },
  ];
}

async function meterNote(s: Setup): Promise<string> {
  const stats = await s.gateway.call<{ batches: number; items: number; largestBatch: number } | null>(
    'meteringStats',
  );
  if (!stats || stats.batches === 0) return 'metering: no batch figures';
  const how = s.profile === 'embedded' ? 'SQLite transactions' : 'Kafka produce requests (acks=all)';
  return `metering: ${fmtInt(stats.items)} calls in ${fmtInt(stats.batches)} ${how}, ${(stats.items / stats.batches).toFixed(1)} per batch on average, largest ${stats.largestBatch}`;
}

// ------------------------------------------------------------------------------------------------ profile mode

interface Profiled {
  readonly profile: ProfileName;
  readonly rate: number;
  readonly atPeak: StageSummary[];
  readonly atHalf: StageSummary[];
  /** Client-side p99 of the paced run, and the longest event-loop stall of the gateway during it (ms). */
  readonly halfP99: number;
  readonly halfStallMs: number;
  readonly cpu: ProfileSummary;
  readonly cpuPercent: number;
}

async function profileRun(s: Setup, ledger: Ledger, dir: string): Promise<Profiled> {
  const { toolgateRate } = await warmUp(s, ledger);
  await s.gateway.call('stages');
  const file = join(dir, `${s.profile}.cpuprofile`);
  progress(`${s.profile}: profiling the gateway process at peak (${MEASURE_S / 2} s)`);
  await s.gateway.call('profileStart');
  const peak = await ledger.run(s.gateway, true, () =>
    closedLoop(s.toolgate, CONNECTIONS, Math.round((toolgateRate * MEASURE_S) / 2)),
  );
  await s.gateway.call('profileStop', file);
  const cpuPercent = cpuOf(ledger.takeCpu(s.gateway), 'Toolgate gateway');
  const atPeak = await s.gateway.call<StageSummary[]>('stages');
  const rate = Math.round(rateOf(peak) / 2);
  progress(`${s.profile}: stage timings at half the peak (${fmtInt(rate)} req/s, ${PACED_S} s)`);
  const half = await ledger.run(s.gateway, true, () => paced(s.toolgate, CONNECTIONS, rate, PACED_S));
  const atHalf = await s.gateway.call<StageSummary[]>('stages');
  const halfCpu = ledger.takeCpu(s.gateway);
  return {
    profile: s.profile,
    rate: rateOf(peak),
    atPeak,
    atHalf,
    halfP99: percentile(half.latenciesMs, 99),
    halfStallMs: halfCpu.loopDelayMaxMs,
    cpu: summarizeProfile(file),
    cpuPercent,
  };
}

function renderProfiled(p: Profiled): string {
  const stageTable = (rows: StageSummary[]) => [
    '| stage | calls | mean ms | p50 ms | p99 ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.name} | ${fmtInt(r.count)} | ${ms(r.mean)} | ${ms(r.p50)} | ${ms(r.p99)} |`),
  ];
  const shares = (title: string, xs: ProfileSummary['byBucket']) => [
    `| ${title} | ms | share |`,
    '| --- | ---: | ---: |',
    ...xs.map(
      (x) => `| ${x.name.replaceAll('|', '\\|')} | ${fmtInt(x.ms)} | ${(100 * x.share).toFixed(1)} % |`,
    ),
  ];
  return [
    `### ${p.profile}: ${fmtInt(p.rate)} req/s at peak while profiled; gateway process CPU ${p.cpuPercent.toFixed(0)} % of a core`,
    '',
    'Stage timings at peak (50 connections, closed loop):',
    '',
    ...stageTable(p.atPeak),
    '',
    `Stage timings at half the peak (${fmtInt(p.rate / 2)} req/s, paced; client-side p99 ${ms(p.halfP99)} ms, longest event-loop stall of the gateway ${ms(p.halfStallMs)} ms):`,
    '',
    ...stageTable(p.atHalf),
    '',
    `CPU profile of the gateway process at peak: ${fmtInt(p.cpu.totalMs)} ms sampled, ${fmtInt(p.cpu.idleMs)} ms idle.`,
    '',
    ...shares('self time by package or module', p.cpu.byBucket),
    '',
    ...shares('self time by function', p.cpu.topSelf),
    '',
    ...shares('inclusive time, Toolgate functions', p.cpu.topOwnInclusive),
    '',
    ...shares('inclusive time by package (what calling into it costs)', p.cpu.packageInclusive),
    '',
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------ main

function profilesToRun(): ProfileName[] {
  const raw = process.env.BENCH_PROFILES ?? 'embedded,cluster';
  const names = raw.split(',').map((s) => s.trim());
  for (const n of names) {
    if (n !== 'embedded' && n !== 'cluster') throw new Error(`BENCH_PROFILES: unknown profile ${n}`);
  }
  return names as ProfileName[];
}

async function main(): Promise<number> {
  const cleanup = new Cleanup();
  let scoped: Cleanup | null = null;
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    progress('interrupted: cleaning up');
    void (async () => {
      await scoped?.run();
      await cleanup.run();
    })().finally(() => process.exit(130));
  });
  const env = [
    SCALE === 1 ? '' : `BENCH_SCALE=${SCALE} `,
    process.env.BENCH_PROFILES ? `BENCH_PROFILES=${process.env.BENCH_PROFILES} ` : '',
    PROJECTORS_DURING_LOAD ? 'BENCH_PROJECTORS_DURING_LOAD=1 ' : '',
  ].join('');
  const facts = [
    `date: ${new Date().toISOString()}`,
    `command: cd ${process.cwd()} && ${env}${getPriority() === 0 ? '' : `nice -n ${getPriority()} `}npm run -s bench:gateway${PROFILE_MODE ? ' -- --profile' : ''}`,
    ...machineFacts(),
    `process priority (nice): ${getPriority()}${getPriority() < 0 ? ' (the stack’s servers and other processes keep theirs)' : ''}`,
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `fastify ${packageVersion('fastify')}, autocannon ${packageVersion('autocannon')}, kafkajs ${packageVersion('kafkajs')}, ioredis ${packageVersion('ioredis')}, better-sqlite3 ${packageVersion('better-sqlite3')}`,
    `load: ${CONNECTIONS} connections, pipelining 1, ${WARMUP_S} s warm-up, ${MEASURE_S} s per side in ABBA halves; paced ${PACED_S} s per side at half the Toolgate peak; each server in its own child process, the generator in the parent; cluster: the worker + projector process ${PROJECTORS_DURING_LOAD ? 'runs during the load' : 'is stopped during the load and counts afterwards'}`,
  ];
  const rows: Row[] = [];
  const profiled: Profiled[] = [];
  const checks: Verdict[] = [];
  let failed = false;
  const t0 = Date.now();
  const profDir = mkdtempSync(join(tmpdir(), 'tgbench-prof-'));
  cleanup.add(`remove ${profDir}`, () => rmSync(profDir, { recursive: true, force: true }));
  try {
    for (const profile of profilesToRun()) {
      const mine = new Cleanup();
      scoped = mine;
      try {
        const s = await withTimeout(`${profile} set-up`, 240_000, setUp(profile, mine, PROFILE_MODE));
        const ledger = new Ledger(s.roles);
        if (PROFILE_MODE) {
          profiled.push(await profileRun(s, ledger, profDir));
        } else {
          const m = await measure(s, ledger);
          rows.push(...rowsOf(s, m, await meterNote(s)));
        }
        const verdict = await verify(s, ledger);
        checks.push(verdict);
        progress(verdict.line);
      } finally {
        progress(`${profile}: cleaning up`);
        for (const f of interrupted ? [] : await mine.run()) {
          failed = true;
          process.stderr.write(`cleanup failed: ${f}\n`);
        }
      }
    }
  } catch (err) {
    failed = true;
    process.stderr.write(
      `benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  const measured = (Date.now() - t0) / 1000;
  const cleanupFailures = interrupted ? [] : await cleanup.run();
  for (const f of cleanupFailures) process.stderr.write(`cleanup failed: ${f}\n`);
  const mismatch = checks.some((c) => !c.ok);
  const out = [
    PROFILE_MODE ? '## Gateway profile (bench/gateway.ts --profile)' : '## Gateway (bench/gateway.ts)',
    '',
    ...facts.map((f) => `- ${f}`),
    `- total run: ${measured.toFixed(0)} s${failed ? ' (FAILED: the results are incomplete)' : ''}`,
    ...checks.map((c) => `- metering check, ${c.line}`),
    '',
    ...(rows.length > 0 ? [renderRows(rows), ''] : []),
    ...profiled.map(renderProfiled),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  return failed || mismatch || cleanupFailures.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`benchmark crashed: ${String(err)}\n`);
    process.exit(1);
  },
);
