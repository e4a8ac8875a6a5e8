import type { GroupCommitStats } from './group-commit.js';
import type { ServiceCall } from './service-call.js';

/**
 * Where the gateway records each metered call before it answers (DESIGN.md section 4: handler → ServiceCalled
 * → response). Adapters group-commit: calls arriving while a write is in flight share the next write.
 * Adapters: SqliteMeteringSink (embedded: rows and usage counters in SQLite), KafkaMeteringSink (cluster: the
 * `calls` topic; projections count).
 */
export interface MeteringSink {
  /**
   * Resolves once the call is durable: committed to SQLite, or acknowledged by every in-sync Kafka replica.
   * Rejects if that write failed (the caller decides whether to answer anyway); InvalidServiceCallError for a
   * malformed call, GroupCommitBacklogError when too many calls are already waiting. Recording the same
   * eventId twice counts it once.
   */
  record(call: ServiceCall): Promise<void>;
  /** Writes whatever is waiting, then refuses further calls. */
  close(): Promise<void>;
}

/** Batch figures of a group-committing sink, for health details and benchmarks. */
export interface GroupCommitSink extends MeteringSink {
  stats(): GroupCommitStats;
}
