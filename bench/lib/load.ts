import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

/** What one load run saw. Latencies are per response, in ms, with sub-millisecond resolution. */
export interface LoadResult {
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  /** First request to last response. */
  readonly seconds: number;
  readonly latenciesMs: number[];
}

export const rateOf = (r: LoadResult): number => (r.ok + r.non2xx) / r.seconds;

/** Sums runs (ABBA halves): counts and seconds add up, latency samples are pooled. */
export function mergeResults(results: readonly LoadResult[]): LoadResult {
  return {
    ok: results.reduce((n, r) => n + r.ok, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    seconds: results.reduce((n, r) => n + r.seconds, 0),
    latenciesMs: results.flatMap((r) => r.latenciesMs),
  };
}

export interface Target {
  readonly port: number;
  readonly path: string;
  readonly headers: Record<string, string>;
}

/**
 * Closed loop at full speed: autocannon with `connections` connections, pipelining 1, exactly `amount`
 * requests. A fixed count rather than a duration, so that no request is still in flight when the run ends
 * (every request the server metered is one autocannon saw answered). Latencies come from autocannon's
 * `response` events, which carry fractional milliseconds (its histogram keeps whole ones only).
 */
export function closedLoop(target: Target, connections: number, amount: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latenciesMs: number[] = [];
    let ok = 0;
    let non2xx = 0;
    let last = 0;
    const t0 = performance.now();
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${target.port}${target.path}`,
        headers: target.headers,
        connections,
        pipelining: 1,
        amount,
        timeout: 10,
      },
      (err, result) => {
        if (err) {
          reject(err);
          return;
        }
        resolve({ ok, non2xx, errors: result.errors, seconds: (last - t0) / 1000, latenciesMs });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      last = performance.now();
      if (statusCode >= 200 && statusCode < 300) ok++;
      else non2xx++;
      latenciesMs.push(responseTime);
    });
  });
}

export interface PacedResult extends LoadResult {
  /** Offered rate (requests/s). */
  readonly rate: number;
  /** Most requests that were due but waited for a free connection at once: 0 means the server kept up. */
  readonly maxBacklog: number;
}

/**
 * Open loop at a fixed rate: request i is due at t0 + i / rate, whatever happened to the ones before. A 1 ms
 * timer releases the requests that have come due, and latency is counted from that release, so time spent
 * waiting for a free connection counts too (no coordinated omission); the timer's own lateness does not. Keep-alive connections, at most one request in flight on each. Raw sockets and a
 * minimal HTTP/1.1 reader (status line and Content-Length; chunked replies are refused) keep the generator's
 * own cost per request small.
 */
export async function paced(
  target: Target,
  connections: number,
  rate: number,
  seconds: number,
): Promise<PacedResult> {
  const total = Math.max(1, Math.round(rate * seconds));
  const request = Buffer.from(
    `GET ${target.path} HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\n${Object.entries(target.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
    'latin1',
  );
  const latenciesMs: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let done = 0;
  let last = 0;
  let maxBacklog = 0;
  const due: number[] = [];
  let head = 0;
  const idle: Conn[] = [];

  let finish!: () => void;
  let fail!: (err: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });

  class Conn {
    private readonly socket: Socket;
    private buffer = '';
    private dueAt = 0;
    constructor(onReady: () => void) {
      this.socket = connect({ host: '127.0.0.1', port: target.port }, onReady);
      this.socket.setNoDelay(true);
      this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
      this.socket.on('error', (err) => fail(err));
      this.socket.on('close', () => {
        if (done < total) fail(new Error('the server closed a connection'));
      });
    }
    send(dueAt: number): void {
      this.dueAt = dueAt;
      this.socket.write(request);
    }
    close(): void {
      this.socket.destroy();
    }
    private onData(chunk: Buffer): void {
      this.buffer += chunk.toString('latin1');
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffer.slice(0, end);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      if (!length) {
        fail(new Error(`a reply without Content-Length: ${head.split('\r\n')[0]}`));
        return;
      }
      if (this.buffer.length < end + 4 + Number(length[1])) return;
      if (this.buffer.length > end + 4 + Number(length[1])) {
        fail(new Error('more bytes than one reply: the server answered something that was not asked'));
        return;
      }
      this.buffer = '';
      const status = Number(head.slice(9, 12));
      last = performance.now();
      latenciesMs.push(last - this.dueAt);
      if (status >= 200 && status < 300) ok++;
      else non2xx++;
      done++;
      if (done === total) finish();
      idle.push(this);
      dispatch();
    }
  }

  const dispatch = (): void => {
    while (head < due.length && idle.length > 0) idle.pop()!.send(due[head++]!);
  };

  const conns: Conn[] = [];
  await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<void>((resolve) => {
          const c = new Conn(() => {
            idle.push(c);
            resolve();
          });
          conns.push(c);
        }),
    ),
  );

  const interval = 1000 / rate;
  const t0 = performance.now();
  let scheduled = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    const now = performance.now();
    // Released by this tick: the clock starts now, when the generator could first send it (at most a timer
    // tick, ~1 ms, after its ideal time: the generator's own lateness is not the server's).
    while (scheduled < total && t0 + scheduled * interval <= now) {
      due.push(now);
      scheduled++;
    }
    dispatch();
    maxBacklog = Math.max(maxBacklog, due.length - head);
    if (scheduled < total) timer = setTimeout(tick, 1);
  };
  tick();
  const watchdog = setTimeout(
    () => fail(new Error(`paced run: ${total - done} replies missing after ${seconds + 30} s`)),
    (seconds + 30) * 1000,
  );
  try {
    await finished;
  } finally {
    clearTimeout(timer);
    clearTimeout(watchdog);
    for (const c of conns) c.close();
  }
  return {
    ok,
    non2xx,
    errors: total - done,
    seconds: (last - t0) / 1000,
    latenciesMs,
    rate,
    maxBacklog,
  };
}
