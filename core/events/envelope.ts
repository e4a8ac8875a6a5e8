/** Where a command came from; travels with every event it produced. */
export interface EventMetadata {
  readonly requestId?: string;
  readonly traceparent?: string;
  /** Who caused it: an account id, `system`, or `admin:<id>`. */
  readonly actor?: string;
}

/** An event as a command handler proposes it, before the store numbers it. */
export interface NewEvent<T = unknown> {
  readonly type: string;
  readonly data: T;
  readonly accountId?: string | null;
  readonly metadata?: EventMetadata;
  /** Normally assigned by the store; a caller may fix it to make a retried command idempotent. */
  readonly eventId?: string;
}

/** An event as the store recorded it. */
export interface StoredEvent<T = unknown> {
  readonly eventId: string;
  readonly type: string;
  readonly streamId: string;
  /** 1 for the first event of a stream. */
  readonly streamVersion: number;
  /** Position in the store's global log: strictly increasing in commit order, starting at 1. */
  readonly globalPosition: number;
  /** ISO-8601 UTC. */
  readonly occurredAt: string;
  readonly accountId: string | null;
  readonly data: T;
  readonly metadata: EventMetadata;
}

/** `account-0193…` → `account`. The category names the bounded context (and Kafka topic) of a stream. */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash > 0 ? streamId.slice(0, dash) : streamId;
}

export function streamIdOf(category: string, id: string): string {
  if (!/^[a-z][a-z0-9]*$/.test(category)) throw new Error(`invalid stream category: ${category}`);
  return `${category}-${id}`;
}
