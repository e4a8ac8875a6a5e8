import type { NewEvent, StoredEvent } from './envelope.js';

/**
 * `number`: the stream must be exactly at this version (0 = it must not exist yet);
 * `'no_stream'` is the same as 0; `'any'` skips the check.
 */
export type ExpectedVersion = number | 'any' | 'no_stream';

export interface AppendResult {
  /** Version of the stream after the append: pass it as the next expected version. */
  readonly nextExpectedVersion: number;
  readonly lastGlobalPosition: number;
  readonly events: readonly StoredEvent[];
}

export interface ReadStreamOptions {
  /** First version to return (default 1). */
  readonly fromVersion?: number;
  readonly limit?: number;
}

/**
 * The event-store port. Adapters: SQLite (embedded), PostgreSQL (cluster). One contract suite
 * (test/conformance/event-store.contract.ts) runs against both.
 */
export interface EventStore {
  /** Appends atomically; throws ConcurrencyError when the stream is not at `expectedVersion`. */
  append(
    streamId: string,
    events: readonly NewEvent[],
    expectedVersion: ExpectedVersion,
  ): Promise<AppendResult>;
  /** The stream's events in version order; empty when it does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /**
   * Events with globalPosition > `afterPosition`, in position order, at most `limit`.
   * Never skips an event that commits later with a lower position, and never repeats one.
   */
  readAll(afterPosition: number, limit: number): Promise<StoredEvent[]>;
  /** Highest committed global position (0 when empty). */
  headPosition(): Promise<number>;
  /** Removes a stream's events for retention; returns how many were removed. Positions are never reused. */
  deleteStream(streamId: string): Promise<number>;
  close(): Promise<void>;
}
