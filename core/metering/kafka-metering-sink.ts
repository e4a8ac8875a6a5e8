import type { EventBus } from '../bus/bus.js';
import { type GroupCommitOptions, type GroupCommitStats, GroupCommitter } from './group-commit.js';
import type { GroupCommitSink } from './metering-sink.js';
import { checkServiceCall, type ServiceCall, toEvent } from './service-call.js';

/**
 * Cluster metering: group-committed calls go out as one `bus.publish` (KafkaBus: one idempotent produce
 * request with acks=all), and record() resolves once the brokers acknowledged that batch. A failed publish
 * rejects every record() of its batch; nothing is retried here, since the caller holds the response and
 * decides. Counting happens downstream (RedisUsageProjector, ClickHouseCallsProjector), deduplicating by
 * event id.
 */
export class KafkaMeteringSink implements GroupCommitSink {
  private readonly committer: GroupCommitter<ServiceCall>;

  /** The bus is the caller's: close() does not close it. */
  constructor(bus: EventBus, options: GroupCommitOptions = {}) {
    this.committer = new GroupCommitter((calls) => bus.publish(calls.map((c) => toEvent(c))), options);
  }

  record(call: ServiceCall): Promise<void> {
    try {
      checkServiceCall(call);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.committer.submit(call);
  }

  stats(): GroupCommitStats {
    return this.committer.stats();
  }

  async close(): Promise<void> {
    await this.committer.close();
  }
}
