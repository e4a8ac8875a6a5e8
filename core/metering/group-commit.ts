import { setImmediate as nextTurn } from 'node:timers/promises';

export interface GroupCommitOptions {
  /** Most items one write receives. Default 500. */
  readonly maxBatch?: number;
  /**
   * Most items waiting (queued, not yet written) before submit() refuses at once with
   * GroupCommitBacklogError. Bounds memory while the backend is slow or down. Default 20,000.
   */
  readonly maxPending?: number;
}

export interface GroupCommitStats {
  /** Writes that succeeded, and the items they carried. */
  readonly batches: number;
  readonly items: number;
  readonly largestBatch: number;
  readonly failedBatches: number;
  /** Items waiting for a write right now. */
  readonly pending: number;
}

/** The backend is not keeping up: more than `maxPending` items are waiting. */
export class GroupCommitBacklogError extends Error {
  override readonly name = 'GroupCommitBacklogError';
}

export class GroupCommitClosedError extends Error {
  override readonly name = 'GroupCommitClosedError';
}

interface Waiter<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Group commit: one write at a time; items submitted while a write is in flight go together into the next
 * one. A write starts on the event-loop turn after the first item arrives (no timer): idle, an item is
 * written at once; busy, the batch grows with the load. Each submit() settles with the write that carried its
 * item.
 *
 * Every batch starts on a fresh event-loop turn, even right after the previous one: a synchronous writer
 * (better-sqlite3) blocks the loop while it writes, so arrivals can only queue up between writes.
 */
export class GroupCommitter<T> {
  private readonly maxBatch: number;
  private readonly maxPending: number;
  private queue: Waiter<T>[] = [];
  private draining: Promise<void> | null = null;
  private closed = false;
  private batches = 0;
  private items = 0;
  private largestBatch = 0;
  private failedBatches = 0;

  constructor(
    private readonly write: (items: readonly T[]) => Promise<void> | void,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxPending = options.maxPending ?? 20_000;
    if (!Number.isSafeInteger(this.maxBatch) || this.maxBatch < 1)
      throw new RangeError('maxBatch must be ≥ 1');
    if (!Number.isSafeInteger(this.maxPending) || this.maxPending < this.maxBatch) {
      throw new RangeError('maxPending must be ≥ maxBatch');
    }
  }

  /** Resolves once the write carrying `item` succeeded; rejects with that write's error. */
  submit(item: T): Promise<void> {
    if (this.closed) return Promise.reject(new GroupCommitClosedError('group committer is closed'));
    if (this.queue.length >= this.maxPending) {
      return Promise.reject(
        new GroupCommitBacklogError(`${this.queue.length} items are waiting to be written`),
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  stats(): GroupCommitStats {
    return {
      batches: this.batches,
      items: this.items,
      largestBatch: this.largestBatch,
      failedBatches: this.failedBatches,
      pending: this.queue.length,
    };
  }

  /** Refuses new items and resolves once everything submitted before has been written (or has failed). */
  async close(): Promise<void> {
    this.closed = true;
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await nextTurn();
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.write(batch.map((w) => w.item));
        } catch (err) {
          this.failedBatches++;
          for (const w of batch) w.reject(err);
          continue;
        }
        this.batches++;
        this.items += batch.length;
        if (batch.length > this.largestBatch) this.largestBatch = batch.length;
        for (const w of batch) w.resolve();
      }
    } finally {
      this.draining = null;
    }
  }
}
