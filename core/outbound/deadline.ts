import { OutboundError } from './outbound.js';

/**
 * One abort signal for a whole outbound operation: it fires with OutboundError TIMEOUT when the time is up, or
 * ABORTED when the caller's own signal fires. Every step (DNS, connect, TLS, body) listens to it, so whatever
 * step is running when time runs out is torn down, and the operation reports the reason, not the teardown.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort(aborted());

  constructor(
    totalMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.timer = setTimeout(
      () => this.controller.abort(new OutboundError('TIMEOUT', `no complete response within ${totalMs} ms`)),
      totalMs,
    );
    if (outer?.aborted) this.controller.abort(aborted());
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The reason the deadline fired in place of `err` (a teardown symptom), else `err`. */
  explain(err: unknown): unknown {
    return this.controller.signal.aborted ? this.controller.signal.reason : err;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}

export const aborted = (): OutboundError => new OutboundError('ABORTED', 'the request was aborted');
