import { parseArgs } from 'node:util';
import type { SqlDb } from '../core/sql/sql-db.js';
import { type FetchText, importFeeds } from '../services/ip-reputation/feed-import.js';
import { type FeedSpec, parseFeedsSetting } from '../services/ip-reputation/feed-spec.js';
import { FeedStore } from '../services/ip-reputation/feed-store.js';

export const FEEDS_IMPORT_USAGE = `Usage: toolgate feeds import [NAME ...] [NAME[:KIND]=SOURCE ...]

Imports IP reputation feeds into the read-model database: with no argument every feed of the FEEDS setting;
NAME picks a configured feed; NAME=SOURCE (or NAME:KIND=SOURCE) imports a URL or file given here.
KIND is tor, proxy, vpn, attacker or datacenter (default: guessed from NAME, e.g. tor-exits → tor).
Formats: Tor bulk exit list or exit-addresses, FireHOL netsets, Spamhaus DROP, plain address lists.
Running servers pick the new lists up within a minute.`;

export interface FeedsImportDeps {
  /** The read-model database (Runtime.readModels). */
  readonly db: SqlDb;
  /** The FEEDS setting, parsed (parseFeedsSetting). */
  readonly feeds: readonly FeedSpec[];
  /** feedFetcher(outbound) in production. */
  readonly fetchText: FetchText;
  readonly now?: () => Date;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * `toolgate feeds import …`; `argv` is what follows `feeds import`. Exit codes: 0 every feed imported,
 * 1 at least one failed (the others are imported; a failed one keeps its previous version), 2 bad usage.
 */
export async function runFeedsImport(argv: readonly string[], deps: FeedsImportDeps): Promise<number> {
  let specs: FeedSpec[];
  try {
    const { positionals, values } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      deps.stdout.write(`${FEEDS_IMPORT_USAGE}\n`);
      return 0;
    }
    specs = selectFeeds(positionals, deps.feeds);
  } catch (err) {
    deps.stderr.write(`toolgate: feeds import: ${(err as Error).message}\n${FEEDS_IMPORT_USAGE}\n`);
    return 2;
  }
  const outcomes = await importFeeds(specs, {
    store: new FeedStore(deps.db),
    fetchText: deps.fetchText,
    ...(deps.now ? { now: deps.now } : {}),
  });
  for (const o of outcomes) {
    if (o.ok) {
      const skipped = o.skippedLines ? `, ${o.skippedLines} unreadable lines skipped` : '';
      deps.stdout.write(`${o.name}: ${o.entries} ranges imported${skipped}\n`);
    } else {
      deps.stderr.write(`toolgate: feeds import: ${o.name}: ${o.error}; the previous list is kept\n`);
    }
  }
  return outcomes.every((o) => o.ok) ? 0 : 1;
}

function selectFeeds(args: readonly string[], configured: readonly FeedSpec[]): FeedSpec[] {
  if (args.length === 0) {
    if (configured.length === 0) throw new Error('no feed given and the FEEDS setting is empty');
    return [...configured];
  }
  const given = parseFeedsSetting(args.filter((a) => a.includes('=')).join(' '));
  const named = args
    .filter((a) => !a.includes('='))
    .map((name) => {
      const spec = configured.find((s) => s.name === name);
      if (!spec) throw new Error(`${name} is not a feed of the FEEDS setting`);
      return spec;
    });
  return [...named, ...given];
}
