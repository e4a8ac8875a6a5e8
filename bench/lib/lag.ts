import { performance } from 'node:perf_hooks';

/**
 * End-to-end lag by event id: `sent` stamps ids just before the publish (or append) call starts, `received`
 * turns the first delivery of each id into a sample. Redeliveries and foreign ids are ignored.
 */
export class LagTracker {
  private readonly pending = new Map<string, number>();
  private samples: number[] = [];
  private firstSentAt = Number.NaN;
  private lastReceivedAt = Number.NaN;
  private drainWaiters: (() => void)[] = [];

  sent(ids: Iterable<string>, at = performance.now()): void {
    if (Number.isNaN(this.firstSentAt)) this.firstSentAt = at;
    for (const id of ids) this.pending.set(id, at);
  }

  received(id: string): void {
    const at = this.pending.get(id);
    if (at === undefined) return;
    this.pending.delete(id);
    this.lastReceivedAt = performance.now();
    this.samples.push(this.lastReceivedAt - at);
    if (this.pending.size === 0) {
      for (const resolve of this.drainWaiters.splice(0)) resolve();
    }
  }

  /** Resolves once every id sent so far has been received. */
  drained(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  get outstanding(): number {
    return this.pending.size;
  }

  /** Samples (ms) and the span from the first send to the last receipt (s) since the last take; then resets. */
  take(): { lagsMs: number[]; seconds: number } {
    const result = { lagsMs: this.samples, seconds: (this.lastReceivedAt - this.firstSentAt) / 1000 };
    this.samples = [];
    this.firstSentAt = Number.NaN;
    this.lastReceivedAt = Number.NaN;
    return result;
  }
}
