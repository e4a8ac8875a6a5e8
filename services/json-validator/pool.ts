import { Worker } from 'node:worker_threads';
import { AppError } from '../../core/errors/catalogue.js';
import type { JobResult, JobRunner, ValidationJob } from './jobs.js';

/**
 * Runs validations in worker threads with a deadline. A user sends both the schema and the document, so a
 * `pattern` that backtracks catastrophically (`(a+)+$` against "aaaa…!") or a schema that explodes ajv's
 * compiler would otherwise stall the gateway's event loop for every caller. A job over its deadline or memory
 * cap has its worker terminated (the only way to stop a running regular expression) and answers 422.
 */
export interface PoolOptions {
  /** Worker threads (default 2). */
  readonly size?: number;
  /** Per job, from the moment a worker takes it (default 2,000 ms). */
  readonly timeoutMs?: number;
  /** Jobs waiting for a worker before new ones are refused with 503 (default 64). */
  readonly maxQueued?: number;
  /** Heap cap per worker (default 256 MB). */
  readonly maxHeapMb?: number;
}

interface Pending {
  readonly job: ValidationJob;
  resolve(result: JobResult): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  busy: { readonly id: number; readonly pending: Pending; readonly timer: NodeJS.Timeout } | null;
}

/** The worker module beside this one; under tsx (.ts sources) the thread registers tsx before loading it. */
function spawn(maxHeapMb: number): Worker {
  const self = import.meta.url;
  const resourceLimits = { maxOldGenerationSizeMb: maxHeapMb };
  if (!self.endsWith('.ts')) return new Worker(new URL('./worker.js', self), { resourceLimits });
  const entry = new URL('./worker.ts', self).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot =
    `import(${JSON.stringify(tsx)})` +
    `.then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, resourceLimits });
}

export class WorkerPool implements JobRunner {
  private readonly size: number;
  private readonly timeoutMs: number;
  private readonly maxQueued: number;
  private readonly maxHeapMb: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: PoolOptions = {}) {
    this.size = options.size ?? 2;
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.maxQueued = options.maxQueued ?? 64;
    this.maxHeapMb = options.maxHeapMb ?? 256;
  }

  run(job: ValidationJob): Promise<JobResult> {
    if (this.closed)
      return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'the validator is shutting down'));
    if (this.queue.length >= this.maxQueued) {
      return Promise.reject(
        new AppError('SERVICE_UNAVAILABLE', 'too many validations are waiting; retry in a moment'),
      );
    }
    return new Promise<JobResult>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      // Workers start on first use, not at import: a process that never validates never pays for them.
      while (this.slots.length < this.size && this.slots.length < this.queue.length + this.busyCount()) {
        this.start();
      }
      this.dispatch();
    });
  }

  /** Terminates the workers; queued and running jobs are refused with 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0))
      p.reject(new AppError('SERVICE_UNAVAILABLE', 'the validator stopped'));
    await Promise.all(this.slots.splice(0).map((s) => this.stop(s, 'the validator stopped')));
  }

  private busyCount(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  private start(): void {
    const worker = spawn(this.maxHeapMb);
    const slot: Slot = { worker, ready: false, busy: null };
    this.slots.push(slot);
    worker.on('message', (m: { ready?: true; id?: number; result?: JobResult; failed?: true }) => {
      if (m.ready) {
        slot.ready = true;
      } else if (slot.busy && m.id === slot.busy.id) {
        const { pending, timer } = slot.busy;
        clearTimeout(timer);
        slot.busy = null;
        if (m.result) pending.resolve(m.result);
        else pending.reject(new AppError('INTERNAL_ERROR'));
      }
      this.dispatch();
      // An idle worker must not keep the process alive; a working or booting one does.
      if (!slot.busy) worker.unref();
    });
    worker.on('error', (err) =>
      this.retire(slot, outOfMemory(err) ? overMemory() : new AppError('INTERNAL_ERROR')),
    );
    worker.on('exit', () => this.retire(slot, new AppError('INTERNAL_ERROR')));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const pending = this.queue.shift();
      if (!pending) return;
      const id = this.nextId++;
      const timer = setTimeout(() => this.retire(slot, this.overTime()), this.timeoutMs);
      slot.busy = { id, pending, timer };
      slot.worker.ref();
      slot.worker.postMessage({ id, job: pending.job });
    }
  }

  private overTime(): AppError {
    return new AppError(
      'UNPROCESSABLE',
      `schema: validation took longer than ${this.timeoutMs} ms and was stopped; ` +
        'a "pattern" that backtracks heavily, such as (a+)+$, is the usual cause',
    );
  }

  /** A worker that timed out, crashed or exited: its job fails with `error`; a fresh one takes its place. */
  private retire(slot: Slot, error: AppError): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    void this.stop(slot, error);
    if (!slot.ready) {
      // It died while starting: another would too, so the waiting jobs fail now instead of looping.
      for (const p of this.queue.splice(0)) p.reject(new AppError('INTERNAL_ERROR'));
      return;
    }
    if (!this.closed && this.queue.length > 0) {
      this.start();
      this.dispatch();
    }
  }

  private async stop(slot: Slot, reason: AppError | string): Promise<void> {
    if (slot.busy) {
      clearTimeout(slot.busy.timer);
      slot.busy.pending.reject(
        typeof reason === 'string' ? new AppError('SERVICE_UNAVAILABLE', reason) : reason,
      );
      slot.busy = null;
    }
    slot.worker.removeAllListeners('message');
    await slot.worker.terminate();
  }
}

const overMemory = () =>
  new AppError('UNPROCESSABLE', 'schema: validation needed more memory than allowed and was stopped');

const outOfMemory = (err: unknown) => (err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';
