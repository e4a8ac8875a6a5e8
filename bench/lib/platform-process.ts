import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTimeout } from './bench.js';

const SERVER = fileURLToPath(new URL('./platform-server.ts', import.meta.url));

interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

/**
 * One platform-server.ts child (the embedded platform with every service), called over IPC. `stop()` closes
 * it cleanly and kills it by its pid if it does not exit in time.
 */
export class PlatformProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private readonly exited: Promise<number | null>;

  constructor(readonly name: string) {
    this.child = fork(SERVER, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child.on('message', (msg: Reply) => {
      const waiter = this.pending.get(msg.id);
      if (!waiter) return;
      this.pending.delete(msg.id);
      if (msg.ok) waiter.resolve(msg.result);
      else waiter.reject(new Error(`${name}: ${msg.error}`));
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code) => {
        for (const w of this.pending.values()) w.reject(new Error(`${name} exited with code ${code}`));
        this.pending.clear();
        resolve(code);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  call<T>(cmd: string, args?: unknown, timeoutMs = 120_000): Promise<T> {
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => {
      if (!this.child.connected) {
        reject(new Error(`${this.name} is not running`));
        return;
      }
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, cmd, args });
    });
    return withTimeout(`${this.name} ${cmd}`, timeoutMs, reply);
  }

  /** CPU seconds (user + system) the child has used so far. */
  async cpuSeconds(): Promise<number> {
    const u = await this.call<{ user: number; system: number }>('cpu');
    return (u.user + u.system) / 1e6;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    try {
      if (this.child.connected) await this.call('close', undefined, 30_000);
    } catch {
      // Killed below.
    }
    if (this.child.connected) this.child.disconnect();
    try {
      await withTimeout(`${this.name} exit`, 15_000, this.exited);
    } catch {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

/** The bench plan: limits so high that the limiter runs its full step on every call and never refuses. */
const PLANS = {
  FREE: { perMinute: 100_000_000, perDay: 1_000_000_000, perMonth: 10_000_000_000, batchSize: 100 },
};

export interface RunningPlatform {
  readonly server: PlatformProcess;
  readonly port: number;
  readonly key: string;
}

/**
 * The embedded platform in a child process on `dataDir` (which may already hold data, e.g. an imported breach
 * corpus), an account on the bench plan and a `*` key; stopped by `cleanup`.
 */
export async function startPlatform(
  dataDir: string,
  cleanup: { add(name: string, fn: () => unknown): void },
): Promise<RunningPlatform> {
  mkdirSync(dataDir, { recursive: true });
  const plansFile = join(dataDir, '..', 'bench-plans.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));
  const server = new PlatformProcess('toolgate-embedded');
  cleanup.add(`stop the platform (pid ${server.pid})`, () => server.stop());
  const env = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, PLANS_FILE: plansFile };
  const { port } = await server.call<{ port: number }>('start', env, 180_000);
  const { key } = await server.call<{ key: string }>('provision');
  return { server, port, key };
}
