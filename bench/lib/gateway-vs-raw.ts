import { performance } from 'node:perf_hooks';
import type { Row } from './bench.js';
import { closedLoopMix, type RequestMix } from './http-load.js';
import { type LoadResult, mergeResults, rateOf } from './load.js';

/** `n` raw calls in a tight loop, in this process. */
export type RawLoop = (n: number) => Promise<void> | void;

export interface GatewayCase {
  readonly name: string;
  readonly mix: RequestMix;
  readonly raw: RawLoop;
  readonly connections: number;
  /** Requests of the first probe, which sizes the measured runs (a few for slow requests). */
  readonly probe: number;
  /** Seconds of closed-loop load through the gateway, as two ABBA halves. */
  readonly seconds: number;
  readonly notes: string;
}

export interface GatewayMeasure {
  readonly row: Row;
  readonly load: LoadResult;
}

/** The raw side runs at least this long per half, so that a fast call is not timed on a few microseconds. */
const MIN_RAW_S = 0.4;

async function timeRaw(raw: RawLoop, n: number): Promise<number> {
  const t0 = performance.now();
  await raw(n);
  return (performance.now() - t0) / 1000;
}

/**
 * The route through the gateway against its raw call, sized by a probe and a warm-up, then in ABBA order
 * (gateway, raw, raw, gateway). The row's baseline seconds are the raw time for the gateway's request count.
 */
export async function gatewayVsRaw(c: GatewayCase): Promise<GatewayMeasure> {
  // A cold probe underestimates the rate (JIT, lazy loads): the warm-up, sized from it, sizes the runs.
  const probe = await closedLoopMix(c.mix, c.connections, c.probe);
  const warm = await closedLoopMix(c.mix, c.connections, Math.max(c.connections, Math.round(rateOf(probe))));
  const gatewayRate = rateOf(warm);
  const rawProbeN = Math.max(1, c.probe);
  await c.raw(rawProbeN);
  const rawRate = rawProbeN / (await timeRaw(c.raw, rawProbeN));
  const half = Math.max(c.connections, Math.round((gatewayRate * c.seconds) / 2));
  const rawHalf = Math.max(half, Math.round(rawRate * MIN_RAW_S));
  await c.raw(Math.round(rawHalf / 2));

  const runs: LoadResult[] = [];
  let rawSeconds = 0;
  runs.push(await closedLoopMix(c.mix, c.connections, half));
  rawSeconds += await timeRaw(c.raw, rawHalf);
  rawSeconds += await timeRaw(c.raw, rawHalf);
  runs.push(await closedLoopMix(c.mix, c.connections, half));
  const load = mergeResults(runs);
  const ops = load.ok;
  return {
    load,
    row: {
      case: c.name,
      ops,
      seconds: load.seconds,
      baselineSeconds: (rawSeconds * ops) / (2 * rawHalf),
      notes: c.notes,
    },
  };
}
