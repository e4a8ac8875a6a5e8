import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { LoadResult } from './load.js';

/** One request of a mix; the API key and Content-Type are added by `requestMix`. */
export interface HttpCall {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** A JSON body (serialized once, up front). */
  readonly body?: unknown;
}

export interface RequestMix {
  readonly port: number;
  readonly requests: readonly {
    method: 'GET' | 'POST';
    path: string;
    body?: string;
    headers: Record<string, string>;
  }[];
}

export function requestMix(port: number, key: string, calls: readonly HttpCall[]): RequestMix {
  return {
    port,
    requests: calls.map((c) => ({
      method: c.method,
      path: c.path,
      ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
      headers: {
        'x-api-key': key,
        ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    })),
  };
}

/**
 * Closed loop at full speed over a mix of requests (each connection walks the list in order, over and over):
 * exactly `amount` requests on `connections` connections, pipelining 1, so that nothing is in flight when the
 * run ends. Latencies come from autocannon's `response` events (fractional milliseconds). A non-2xx answer
 * fails the run: a benchmark of error replies measures nothing.
 */
export function closedLoopMix(mix: RequestMix, connections: number, amount: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latenciesMs: number[] = [];
    let ok = 0;
    let non2xx = 0;
    let firstBad: number | null = null;
    let last = 0;
    const t0 = performance.now();
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${mix.port}`,
        requests: mix.requests.map((r) => ({ ...r })),
        connections,
        pipelining: 1,
        amount,
        timeout: 30,
      },
      (err, result) => {
        if (err) {
          reject(err);
          return;
        }
        if (non2xx > 0 || result.errors > 0) {
          reject(
            new Error(
              `${non2xx} non-2xx answers (first status ${firstBad}), ${result.errors} errors on ` +
                `${mix.requests[0]?.method} ${mix.requests[0]?.path}`,
            ),
          );
          return;
        }
        resolve({ ok, non2xx, errors: result.errors, seconds: (last - t0) / 1000, latenciesMs });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      last = performance.now();
      if (statusCode >= 200 && statusCode < 300) ok++;
      else {
        non2xx++;
        firstBad ??= statusCode;
      }
      latenciesMs.push(responseTime);
    });
  });
}
