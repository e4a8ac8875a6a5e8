import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withTimeout } from './bench.js';

const GATEWAY_SERVER = fileURLToPath(new URL('./gateway-server.ts', import.meta.url));

interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: string;
}

/**
 * One server child (gateway-server.ts by default, or another module speaking the same IPC protocol, such as
 * platform-server.ts), called over IPC. `stop()` closes it cleanly and kills it by its pid if it does not exit in
 * time.
 */
export class ServerProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private exited: Promise<number | null>;

  constructor(
    readonly name: string,
    server: string = GATEWAY_SERVER,
  ) {
    this.child = fork(server, [], {
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

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  call<T>(cmd: string, args?: unknown, timeoutMs = 120_000): Promise<T> {
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      if (!this.child.connected) {
        this.pending.delete(id);
        reject(new Error(`${this.name} is not running`));
        return;
      }
      this.child.send({ id, cmd, args });
    });
    return withTimeout(`${this.name} ${cmd}`, timeoutMs, reply);
  }

  /** CPU seconds (user + system) the child has used so far (servers that answer the `cpu` command). */
  async cpuSeconds(): Promise<number> {
    const u = await this.call<{ user: number; system: number }>('cpu');
    return (u.user + u.system) / 1e6;
  }

  /** Closes the server and waits for the process to end; kills it (by pid) when that takes too long. */
  async stop(): Promise<void> {
    if (!this.running) return;
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
