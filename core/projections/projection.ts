import type { StoredEvent } from '../events/envelope.js';
import type { SqlDb } from '../sql/sql-db.js';

/** What a projection's handler writes through: the transaction and the physical name of each of its tables. */
export interface ProjectionContext {
  readonly db: SqlDb;
  /** Physical name of a logical table in the generation being written. */
  table(logical: string): string;
}

/**
 * A named read model built from events. Its tables are declared, not created by hand, so that a rebuild can
 * build a fresh generation beside the live one and swap it in atomically. Readers query the stable view
 * `rm_<logical>` (see `viewName`).
 */
export interface Projection {
  readonly name: string;
  /** Bump when the tables or the handler change: the runner rebuilds from position 0 at the next start. */
  readonly version: number;
  /** Bounded contexts whose events it needs (topics in cluster). */
  readonly contexts: readonly string[];
  /** Logical table → CREATE statements with `{table}` for the physical name (portable SQL for both dialects). */
  readonly tables: Readonly<Record<string, readonly string[]>>;
  /** Must be deterministic: a rebuild from zero has to produce the same rows as incremental application. */
  apply(event: StoredEvent, ctx: ProjectionContext): Promise<void>;
}

export const viewName = (logical: string): string => `rm_${logical}`;
