import { cpus, release as osRelease, platform, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';

/** `BENCH_SCALE` multiplies every count (default 1); rejects anything that is not a positive number. */
export function benchScale(): number {
  const raw = process.env.BENCH_SCALE;
  if (raw === undefined || raw === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0)
    throw new Error(`BENCH_SCALE must be a positive number, got ${raw}`);
  return scale;
}

/** `n × scale`, rounded to a multiple of `step` (at least one step). */
export const scaled = (n: number, scale: number, step = 1): number =>
  Math.max(step, Math.round((n * scale) / step) * step);

/** Wall-clock seconds of one async run. */
export async function timeIt(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

/** A run of `count` units (appends, passes over a log, …) that can be called again and continues its state. */
export type Work = (count: number) => Promise<void>;

/**
 * Ours against the baseline on the same counts, warmed up first, then in ABBA order (ours, base, base, ours,
 * each half of `count`) so that drift during the run (checkpoints, cache growth, JIT) hits both sides alike.
 * Returns the summed seconds of each side.
 */
export async function compareAbba(
  ours: Work,
  base: Work,
  count: number,
  warmup: number,
): Promise<{ ours: number; base: number }> {
  if (warmup > 0) {
    await ours(warmup);
    await base(warmup);
  }
  const first = Math.floor(count / 2);
  const second = count - first;
  let o = 0;
  let b = 0;
  o += await timeIt(() => ours(first));
  b += await timeIt(() => base(first));
  b += await timeIt(() => base(second));
  o += await timeIt(() => ours(second));
  return { ours: o, base: b };
}

/** Nearest-rank percentile of unsorted samples; NaN when empty. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** `p50/p95/p99` in milliseconds, one decimal below 10 ms. */
export function latencySummary(samplesMs: readonly number[]): string {
  return [50, 95, 99].map((p) => fmtMs(percentile(samplesMs, p))).join('/');
}

const fmtMs = (ms: number): string => (ms < 10 ? ms.toFixed(1) : Math.round(ms).toString());

export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');

export const fmtRate = (n: number): string => (n >= 100 ? fmtInt(n) : n.toFixed(1));

export interface Row {
  readonly case: string;
  readonly ops: number;
  readonly seconds: number;
  /** Seconds the baseline took for the same ops; omitted when a row has no raw equivalent. */
  readonly baselineSeconds?: number;
  readonly notes: string;
}

/** The markdown table: case | ops | seconds | per second | baseline per second | ratio | notes. */
export function renderTable(rows: readonly Row[]): string {
  const lines = [
    '| case | ops | seconds | per second | baseline per second | ratio (ours/baseline) | notes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of rows) {
    const rate = r.ops / r.seconds;
    const base = r.baselineSeconds === undefined ? undefined : r.ops / r.baselineSeconds;
    lines.push(
      `| ${[
        r.case,
        fmtInt(r.ops),
        r.seconds.toFixed(2),
        fmtRate(rate),
        base === undefined ? '—' : fmtRate(base),
        base === undefined ? '—' : (rate / base).toFixed(2),
        r.notes,
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** Node, CPUs, memory and kernel, one line each. */
export function machineFacts(): string[] {
  const cpu = cpus();
  return [
    `node ${process.version} (${platform()} ${osRelease()})`,
    `cpus: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown'}`,
    `memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  ];
}

/** Rejects after `ms` with `what` in the message, so a stuck wait fails the run instead of hanging it. */
export async function withTimeout<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Cleanup steps run last-registered first; every step runs even when an earlier one fails. */
export class Cleanup {
  private readonly steps: { name: string; fn: () => unknown }[] = [];

  add(name: string, fn: () => unknown): void {
    this.steps.push({ name, fn });
  }

  /** Returns the names of the steps that failed, with their errors. */
  async run(): Promise<string[]> {
    const failures: string[] = [];
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        await withTimeout(`cleanup ${step.name}`, 30_000, Promise.resolve().then(step.fn));
      } catch (err) {
        failures.push(`${step.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return failures;
  }
}
