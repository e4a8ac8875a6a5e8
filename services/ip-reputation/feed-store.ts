import type { SqlDb } from '../../core/sql/sql-db.js';
import type { FeedKind } from './feed-spec.js';
import type { IpRange } from './ip-number.js';

/** A stored list, as answers name it. */
export interface FeedList {
  readonly name: string;
  readonly kind: FeedKind;
  /** Where it was imported from (a URL without its query, or a file path): for operators, never in answers. */
  readonly source: string;
  readonly importedAt: string;
  /** Disjoint ranges held. */
  readonly entries: number;
}

const LISTS = 'ip_feed_lists';
const RANGES = 'ip_feed_ranges';
const CHUNK = 400;

const hex = (family: 4 | 6, v: bigint): string => v.toString(16).padStart(family === 4 ? 8 : 32, '0');

/**
 * Imported feeds in the read-model database. Plain tables, not a projection: a feed is operator data that is
 * replaced whole at each import, with no history worth an event per entry. Ranges are stored as fixed-width
 * hex, so both dialects hold 128-bit values without extensions.
 */
export class FeedStore {
  private ready: Promise<void> | null = null;

  constructor(private readonly db: SqlDb) {}

  private ensure(): Promise<void> {
    this.ready ??= (async () => {
      await this.db.execute(
        `CREATE TABLE IF NOT EXISTS ${LISTS} (name TEXT PRIMARY KEY, kind TEXT NOT NULL, source TEXT NOT NULL,
           imported_at TEXT NOT NULL, entries INTEGER NOT NULL)`,
      );
      await this.db.execute(
        `CREATE TABLE IF NOT EXISTS ${RANGES} (name TEXT NOT NULL, family INTEGER NOT NULL,
           range_start TEXT NOT NULL, range_end TEXT NOT NULL)`,
      );
      await this.db.execute(`CREATE INDEX IF NOT EXISTS ${RANGES}_name ON ${RANGES} (name)`);
    })();
    this.ready.catch(() => {
      this.ready = null;
    });
    return this.ready;
  }

  /** Replaces a list's ranges atomically: readers see the old list or the new one, never a mix. */
  async replace(list: FeedList, ranges: Iterable<IpRange>): Promise<void> {
    await this.ensure();
    const rows = [...ranges];
    await this.db.transaction(async (tx) => {
      await tx.execute(`DELETE FROM ${RANGES} WHERE name = $1`, [list.name]);
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const values = chunk.map((_, j) => `($${j * 4 + 1}, $${j * 4 + 2}, $${j * 4 + 3}, $${j * 4 + 4})`);
        await tx.execute(
          `INSERT INTO ${RANGES} (name, family, range_start, range_end) VALUES ${values.join(', ')}`,
          chunk.flatMap((r) => [list.name, r.family, hex(r.family, r.start), hex(r.family, r.end)]),
        );
      }
      await tx.execute(
        `INSERT INTO ${LISTS} (name, kind, source, imported_at, entries) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, source = excluded.source,
           imported_at = excluded.imported_at, entries = excluded.entries`,
        [list.name, list.kind, list.source, list.importedAt, list.entries],
      );
    });
  }

  async lists(): Promise<FeedList[]> {
    await this.ensure();
    const rows = await this.db.query<{
      name: string;
      kind: FeedKind;
      source: string;
      imported_at: string;
      entries: number;
    }>(`SELECT name, kind, source, imported_at, entries FROM ${LISTS} ORDER BY name`);
    return rows.map((r) => ({
      name: r.name,
      kind: r.kind,
      source: r.source,
      importedAt: r.imported_at,
      entries: Number(r.entries),
    }));
  }

  async ranges(name: string): Promise<IpRange[]> {
    await this.ensure();
    const rows = await this.db.query<{ family: number; range_start: string; range_end: string }>(
      `SELECT family, range_start, range_end FROM ${RANGES} WHERE name = $1`,
      [name],
    );
    return rows.map((r) => ({
      family: Number(r.family) === 6 ? 6 : 4,
      start: BigInt(`0x${r.range_start}`),
      end: BigInt(`0x${r.range_end}`),
    }));
  }

  /** Changes whenever any list is imported again: other processes compare it to know when to reload. */
  async signature(): Promise<string> {
    await this.ensure();
    const [row] = await this.db.query<{ n: number; latest: string | null }>(
      `SELECT COUNT(*) AS n, MAX(imported_at) AS latest FROM ${LISTS}`,
    );
    return `${row?.n ?? 0}:${row?.latest ?? ''}`;
  }
}
