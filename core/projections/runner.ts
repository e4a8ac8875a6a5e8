import type { EventBus, Subscription } from '../bus/bus.js';
import { contextOfStream } from '../bus/topics.js';
import type { StoredEvent } from '../events/envelope.js';
import type { EventStore } from '../events/event-store.js';
import type { SqlDb } from '../sql/sql-db.js';
import {
  createGeneration,
  dropGeneration,
  ensureRegistry,
  physicalName,
  pointViews,
  REGISTRY_TABLE,
  readRegistry,
  seenTable,
  writeRegistry,
} from './generations.js';
import type { Projection, ProjectionContext } from './projection.js';

export interface ProjectionStatus {
  readonly name: string;
  readonly version: number;
  readonly generation: number;
  /** Highest global position applied. */
  readonly position: number;
  /** Events in the store beyond `position`. In cluster, Kafka partitions are consumed independently, so this
   *  is a lower bound on the true lag rather than an exact count. */
  readonly lag: number;
  readonly updatedAt: string;
}

export interface ProjectionRunnerOptions {
  readonly db: SqlDb;
  readonly store: EventStore;
  readonly bus: EventBus;
  readonly projections: readonly Projection[];
  readonly batchSize?: number;
  readonly onError?: (projection: string, event: StoredEvent, err: unknown) => void;
}

export const groupOf = (projection: string): string => `projection.${projection}`;

/**
 * Runs projections from the bus with exactly-once effects: each event is applied in one read-model transaction
 * together with the per-stream record of what was applied, so redelivered events (at-least-once bus, a relay
 * that crashed before its checkpoint) change nothing.
 */
export class ProjectionRunner {
  private readonly subscriptions: Subscription[] = [];
  private readonly byName: Map<string, Projection>;

  constructor(private readonly options: ProjectionRunnerOptions) {
    this.byName = new Map(options.projections.map((p) => [p.name, p]));
    if (this.byName.size !== options.projections.length) throw new Error('projection names must be unique');
  }

  get projections(): readonly Projection[] {
    return this.options.projections;
  }

  /** Creates missing generations (or rebuilds ones whose version changed); does not consume. */
  async prepare(): Promise<void> {
    const { db } = this.options;
    await ensureRegistry(db);
    for (const projection of this.options.projections) {
      const row = await readRegistry(db, projection.name);
      if (!row) {
        await db.transaction(async (tx) => {
          await createGeneration(tx, projection, 1);
          await pointViews(tx, projection, 1);
          await writeRegistry(tx, {
            name: projection.name,
            version: projection.version,
            generation: 1,
            position: 0,
          });
        });
      } else if (row.version !== projection.version) {
        await this.rebuild(projection.name);
      }
    }
  }

  async start(): Promise<void> {
    await this.prepare();
    for (const projection of this.options.projections) {
      const sub = await this.options.bus.subscribe(
        { group: groupOf(projection.name), contexts: projection.contexts },
        async (event) => {
          try {
            await this.applyLive(projection, event);
          } catch (err) {
            this.options.onError?.(projection.name, event, err);
            throw err;
          }
        },
      );
      this.subscriptions.push(sub);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }

  /** Applies one event to the live generation, at most once per (stream, position). */
  async applyLive(projection: Projection, event: StoredEvent): Promise<boolean> {
    return this.options.db.transaction(async (tx) => {
      // Touching the registry row first makes this wait for a generation swap in progress, then see its result.
      await tx.execute(
        `UPDATE ${REGISTRY_TABLE} SET position = CASE WHEN position < $2 THEN $2 ELSE position END, updated_at = $3
         WHERE name = $1`,
        [projection.name, event.globalPosition, new Date().toISOString()],
      );
      const row = await readRegistry(tx, projection.name);
      if (!row) throw new Error(`projection ${projection.name} is not prepared`);
      return applyInGeneration(tx, projection, row.generation, event);
    });
  }

  /**
   * Replays the whole log into a fresh generation, then swaps it in. Live consumers keep writing to the old
   * generation meanwhile; the swap transaction first catches up on everything committed since, and events
   * arriving after it are applied to the new generation by the live consumers (deduplicated per stream).
   */
  async rebuild(name: string): Promise<ProjectionStatus> {
    const projection = this.byName.get(name);
    if (!projection) {
      throw new Error(`unknown projection ${name}; known: ${[...this.byName.keys()].join(', ')}`);
    }
    const { db, store } = this.options;
    const batchSize = this.options.batchSize ?? 500;
    await ensureRegistry(db);
    const current = await readRegistry(db, name);
    const generation = (current?.generation ?? 0) + 1;
    await db.transaction((tx) => createGeneration(tx, projection, generation));

    // Batches in their own transactions, so a long replay never holds the read-model database for long.
    const replayBatch = async (tx: SqlDb, from: number): Promise<number> => {
      let at = from;
      for (const event of await store.readAll(from, batchSize)) {
        if (matchesContexts(projection, event)) await applyInGeneration(tx, projection, generation, event);
        at = event.globalPosition;
      }
      return at;
    };
    let position = 0;
    for (;;) {
      const before = position;
      position = await db.transaction((tx) => replayBatch(tx, position));
      if (position === before) break;
    }

    await db.transaction(async (tx) => {
      const live = await readRegistry(tx, name, true);
      for (let before = -1; before !== position; ) {
        before = position;
        position = await replayBatch(tx, position);
      }
      await pointViews(tx, projection, generation);
      await writeRegistry(tx, { name, version: projection.version, generation, position });
      if (live) await dropGeneration(tx, projection, live.generation);
    });
    const status = (await this.status()).find((s) => s.name === name);
    return status!;
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = await this.options.store.headPosition();
    const out: ProjectionStatus[] = [];
    for (const p of this.options.projections) {
      const row = await readRegistry(this.options.db, p.name);
      out.push({
        name: p.name,
        version: row?.version ?? p.version,
        generation: row?.generation ?? 0,
        position: row?.position ?? 0,
        lag: Math.max(0, head - (row?.position ?? 0)),
        updatedAt: row?.updated_at ?? '',
      });
    }
    return out;
  }
}

function matchesContexts(projection: Projection, event: StoredEvent): boolean {
  return projection.contexts.length === 0 || projection.contexts.includes(contextOfStream(event.streamId));
}

async function applyInGeneration(
  tx: SqlDb,
  projection: Projection,
  generation: number,
  event: StoredEvent,
): Promise<boolean> {
  const seen = seenTable(projection.name, generation);
  const rows = await tx.query<{ position: number }>(`SELECT position FROM ${seen} WHERE stream_id = $1`, [
    event.streamId,
  ]);
  if (rows[0] && Number(rows[0].position) >= event.globalPosition) return false;
  const ctx: ProjectionContext = { db: tx, table: (logical) => physicalName(logical, generation) };
  await projection.apply(event, ctx);
  await tx.execute(
    `INSERT INTO ${seen} (stream_id, position) VALUES ($1, $2)
     ON CONFLICT (stream_id) DO UPDATE SET position = excluded.position`,
    [event.streamId, event.globalPosition],
  );
  return true;
}
