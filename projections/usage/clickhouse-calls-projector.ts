import type { ClickHouseClient } from '@clickhouse/client';
import type { EventBus, SubscribeOptions, Subscription } from '../../core/bus/bus.js';
import type { StoredEvent } from '../../core/events/envelope.js';
import {
  type GroupCommitOptions,
  type GroupCommitStats,
  GroupCommitter,
} from '../../core/metering/group-commit.js';
import { CALLS_CONTEXT, fromEvent, type ServiceCall } from '../../core/metering/service-call.js';
import { SERVICE_CALLS_TABLE, type ServiceCallRow, serviceCallRow } from './clickhouse.js';

export interface ClickHouseCallsProjectorOptions extends GroupCommitOptions {
  /** A ServiceCalled event that is not a valid call: skipped (redelivering it would never succeed). */
  readonly onSkip?: (event: StoredEvent, reason: string) => void;
}

export interface ClickHouseSubscribeOptions {
  /** Default `clickhouse-calls`. */
  readonly group?: string;
  /**
   * Subscriptions opened in the group (default 1). Through `EventBus.subscribe` each subscription gets one
   * event at a time and waits for its handler, so an insert can only hold as many rows as there are
   * subscriptions delivering at once; up to the topic's partition count, more subscriptions mean larger
   * inserts.
   */
  readonly consumers?: number;
}

/**
 * A bus that hands a handler every event of a fetched batch at once and acknowledges them all when it
 * resolves (a handler that throws gets the whole batch again). Not part of core's EventBus yet; proposed for
 * it, since one-event-at-a-time delivery limits this projector to about one insert per event.
 */
export interface BatchSubscriber {
  subscribeBatch(
    options: SubscribeOptions,
    handler: (events: readonly StoredEvent[]) => Promise<void>,
  ): Promise<Subscription>;
}

const deliversBatches = (bus: EventBus): bus is EventBus & BatchSubscriber =>
  typeof (bus as Partial<BatchSubscriber>).subscribeBatch === 'function';

/**
 * The analytical read model: every ServiceCalled event becomes a row of ClickHouse's service_calls
 * (deploy/clickhouse/001_service_calls.sql), consumer group `clickhouse-calls`.
 *
 * Rows are inserted in group commits (up to `maxBatch`, default 1000): handle(event) and handleBatch(events)
 * resolve only after the inserts carrying their rows succeeded, and the bus acknowledges an event only when
 * its handler resolved, so a crash never skips a row. Given a bus with `subscribeBatch` (BatchSubscriber),
 * each fetched batch is inserted at once. Through the plain per-event `subscribe` the bus delivers one event
 * per subscription and waits for it, so inserts hold about one row each (`consumers` helps a little); there
 * is no linger timer, which would only add its wait to every single event. Redeliveries insert duplicates,
 * which the table's ReplacingMergeTree collapses and every query counts once (uniqExact(event_id) or FINAL).
 */
export class ClickHouseCallsProjector {
  private readonly committer: GroupCommitter<ServiceCallRow>;
  private readonly onSkip: (event: StoredEvent, reason: string) => void;

  /** The client belongs to the caller; it must be bound to the database holding service_calls. */
  constructor(client: ClickHouseClient, options: ClickHouseCallsProjectorOptions = {}) {
    this.onSkip = options.onSkip ?? (() => {});
    this.committer = new GroupCommitter(
      async (rows) => {
        await client.insert({ table: SERVICE_CALLS_TABLE, values: [...rows], format: 'JSONEachRow' });
      },
      { maxBatch: options.maxBatch ?? 1000, maxPending: options.maxPending ?? 100_000 },
    );
  }

  async subscribe(bus: EventBus, options: ClickHouseSubscribeOptions = {}): Promise<Subscription> {
    const consumers = options.consumers ?? 1;
    if (!Number.isSafeInteger(consumers) || consumers < 1) throw new RangeError('consumers must be ≥ 1');
    const subscribeOptions = { group: options.group ?? 'clickhouse-calls', contexts: [CALLS_CONTEXT] };
    const subscriptions: Subscription[] = [];
    try {
      for (let i = 0; i < consumers; i++) {
        subscriptions.push(
          deliversBatches(bus)
            ? await bus.subscribeBatch(subscribeOptions, (events) => this.handleBatch(events))
            : await bus.subscribe(subscribeOptions, (e) => this.handle(e)),
        );
      }
    } catch (err) {
      await Promise.allSettled(subscriptions.map((s) => s.stop()));
      throw err;
    }
    return {
      stop: async () => {
        await Promise.all(subscriptions.map((s) => s.stop()));
      },
    };
  }

  /** Resolves once the event's row is in ClickHouse; ignores other event types and skips invalid calls. */
  handle(event: StoredEvent): Promise<void> {
    const call = this.callOf(event);
    return call ? this.committer.submit(serviceCallRow(call)) : Promise.resolve();
  }

  /** Inserts the rows of many events in as few inserts as `maxBatch` allows; resolves when all succeeded. */
  async handleBatch(events: readonly StoredEvent[]): Promise<void> {
    await Promise.all(events.map((e) => this.handle(e)));
  }

  stats(): GroupCommitStats {
    return this.committer.stats();
  }

  /** Inserts what is waiting; stop the subscription first. */
  close(): Promise<void> {
    return this.committer.close();
  }

  private callOf(event: StoredEvent): ServiceCall | null {
    try {
      return fromEvent(event);
    } catch (err) {
      this.onSkip(event, err instanceof Error ? err.message : 'invalid ServiceCalled');
      return null;
    }
  }
}
