import { readFile } from 'node:fs/promises';
import { parseFeed } from './feed-format.js';
import type { FeedSpec } from './feed-spec.js';
import type { FeedStore } from './feed-store.js';
import { RangeSet } from './range-set.js';

/** Fetches a feed URL; the composition root passes the platform's outbound client (never user input). */
export type FetchText = (url: string) => Promise<string>;

export interface ImportDeps {
  readonly store: FeedStore;
  readonly fetchText: FetchText;
  readonly now?: () => Date;
}

export interface ImportOutcome {
  readonly name: string;
  readonly ok: boolean;
  /** Disjoint ranges stored (ok), or why the list was kept as it was (not ok). */
  readonly entries?: number;
  readonly skippedLines?: number;
  readonly error?: string;
}

const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

/** A URL's query may carry an access token: it is used for the fetch but never stored. */
function storedSource(source: string): string {
  if (!isUrl(source)) return source;
  const url = new URL(source);
  url.username = '';
  url.password = '';
  url.search = '';
  return url.toString();
}

async function readSource(source: string, fetchText: FetchText): Promise<string> {
  return isUrl(source) ? fetchText(source) : readFile(source, 'utf8');
}

/**
 * Imports each feed on its own: a list that cannot be fetched or holds no address keeps its previous version
 * (an empty download must not clear the Tor list), and the others go on.
 */
export async function importFeeds(specs: readonly FeedSpec[], deps: ImportDeps): Promise<ImportOutcome[]> {
  const out: ImportOutcome[] = [];
  for (const spec of specs) {
    try {
      const parsed = parseFeed(await readSource(spec.source, deps.fetchText));
      if (parsed.ranges.length === 0) throw new Error('no address or range found');
      const set = new RangeSet(parsed.ranges);
      await deps.store.replace(
        {
          name: spec.name,
          kind: spec.kind,
          source: storedSource(spec.source),
          importedAt: (deps.now?.() ?? new Date()).toISOString(),
          entries: set.size,
        },
        set.intervals(),
      );
      out.push({ name: spec.name, ok: true, entries: set.size, skippedLines: parsed.skipped });
    } catch (err) {
      out.push({ name: spec.name, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}

export interface FeedRefreshDeps extends ImportDeps {
  readonly feeds: readonly FeedSpec[];
  /** Default 6 hours: Tor's list changes hourly, FireHOL and Spamhaus sets a few times a day. */
  readonly intervalMs?: number;
  /** Rebuild this process's matcher after each round. */
  readonly onImported?: (outcomes: readonly ImportOutcome[]) => void | Promise<void>;
  readonly onError?: (err: unknown) => void;
}

/**
 * The worker role's scheduled refresh: imports at once, then every `intervalMs`; rounds never overlap.
 * Returns a stop function that waits for a running round.
 */
export function startFeedRefresh(deps: FeedRefreshDeps): () => Promise<void> {
  const interval = deps.intervalMs ?? 6 * 60 * 60 * 1000;
  let running: Promise<void> | null = null;
  let stopped = false;
  const round = () => {
    if (running || stopped || deps.feeds.length === 0) return;
    running = (async () => {
      try {
        const outcomes = await importFeeds(deps.feeds, deps);
        await deps.onImported?.(outcomes);
      } catch (err) {
        deps.onError?.(err);
      } finally {
        running = null;
      }
    })();
  };
  round();
  const timer = setInterval(round, interval);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
