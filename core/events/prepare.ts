import { newId } from '../ids.js';
import type { NewEvent } from './envelope.js';
import type { EventSchemaRegistry } from './schema-registry.js';

/** What every adapter writes for one event, before it has a global position. */
export interface PreparedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly streamVersion: number;
  readonly accountId: string | null;
  readonly occurredAt: string;
  readonly data: unknown;
  readonly metadata: Record<string, string>;
}

export interface EventStoreOptions {
  /** Checks every payload on append; omit only in tests of the store itself. */
  readonly schemas?: EventSchemaRegistry;
  readonly now?: () => Date;
}

export function prepareEvents(
  streamId: string,
  events: readonly NewEvent[],
  currentVersion: number,
  options: EventStoreOptions,
): PreparedEvent[] {
  if (!/^[a-z][a-z0-9]*-.+$/.test(streamId) || streamId.length > 200) {
    throw new Error(`invalid stream id ${JSON.stringify(streamId)}: expected <category>-<id>`);
  }
  const occurredAt = (options.now?.() ?? new Date()).toISOString();
  return events.map((e, i) => {
    options.schemas?.check(e);
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(e.metadata ?? {})) if (typeof v === 'string') metadata[k] = v;
    return {
      eventId: e.eventId ?? newId(),
      type: e.type,
      streamVersion: currentVersion + i + 1,
      accountId: e.accountId ?? null,
      occurredAt,
      data: e.data,
      metadata,
    };
  });
}
