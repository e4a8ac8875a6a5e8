import type { StoredEvent } from '../events/envelope.js';

export type EventHandler = (event: StoredEvent) => Promise<void>;

export interface SubscribeOptions {
  /**
   * Consumer group: its progress is durable, so a restarted subscriber resumes where the group stopped.
   * Members of one group share the streams between them (Kafka); each group sees every event.
   */
  readonly group: string;
  /** Bounded contexts (see topics.ts) to receive; every context when omitted. */
  readonly contexts?: readonly string[];
}

export interface Subscription {
  /** Stops after the event in hand; progress up to the last handled event is kept. */
  stop(): Promise<void>;
}

/**
 * The publish/consume port. Delivery is at-least-once and in order per stream; handlers must be idempotent
 * (dedupe by event id or by per-stream position). A handler that throws gets the same event again, later.
 * Adapters: in-process (embedded: subscribers tail the event store's global log) and Kafka (cluster).
 */
export interface EventBus {
  /** Resolves once the events are durably accepted. The relay is the only publisher. */
  publish(events: readonly StoredEvent[]): Promise<void>;
  subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription>;
  /** Facts for /readyz; throws when the bus cannot be reached. */
  health(): Promise<Readonly<Record<string, unknown>>>;
  close(): Promise<void>;
}
