import type { FeedKind } from './feed-spec.js';
import type { FeedList, FeedStore } from './feed-store.js';
import { ipToNumber } from './ip-number.js';
import { RangeSet } from './range-set.js';

/** A list that holds the address. */
export interface FeedHit {
  readonly name: string;
  readonly kind: FeedKind;
  readonly importedAt: string;
}

export interface FeedMatcherOptions {
  /** How often a lookup asks the store whether another process imported something (default 60 s). */
  readonly recheckMs?: number;
  readonly now?: () => number;
}

interface Loaded {
  readonly list: FeedList;
  readonly set: RangeSet;
}

/**
 * The imported feeds in memory, for every process that answers checks. Rebuilt from the store after an import in
 * this process (`reload`) and, for imports by another process (the CLI, a worker), when the store's signature
 * changes; the check is at most once per `recheckMs`, so a lookup normally touches no database.
 */
export class FeedMatcher {
  private loaded: readonly Loaded[] = [];
  private signature: string | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<void> | null = null;
  private readonly recheckMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: FeedStore,
    options: FeedMatcherOptions = {},
  ) {
    this.recheckMs = options.recheckMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Reads every list from the store now. */
  reload(): Promise<void> {
    this.pending ??= (async () => {
      try {
        const signature = await this.store.signature();
        const lists = await this.store.lists();
        const loaded: Loaded[] = [];
        for (const list of lists)
          loaded.push({ list, set: new RangeSet(await this.store.ranges(list.name)) });
        this.loaded = loaded;
        this.signature = signature;
        this.checkedAt = this.now();
      } finally {
        this.pending = null;
      }
    })();
    return this.pending;
  }

  private async fresh(): Promise<void> {
    if (this.now() - this.checkedAt < this.recheckMs) return;
    this.checkedAt = this.now();
    if ((await this.store.signature()) !== this.signature) await this.reload();
  }

  /** The lists holding `ip` (a canonical address); [] for anything else. */
  async match(ip: string): Promise<FeedHit[]> {
    await this.fresh();
    const n = ipToNumber(ip);
    if (!n) return [];
    return this.loaded
      .filter((l) => l.set.has(n))
      .map(({ list }) => ({ name: list.name, kind: list.kind, importedAt: list.importedAt }));
  }
}
