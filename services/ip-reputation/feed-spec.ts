/** What a feed's entries mean for an address listed in it. */
export const FEED_KINDS = ['tor', 'proxy', 'vpn', 'attacker', 'datacenter'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/** One configured feed: a name (shown in answers), what it lists, and where it comes from (URL or file). */
export interface FeedSpec {
  readonly name: string;
  readonly kind: FeedKind;
  readonly source: string;
}

const NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/i;

/** A name says what most public lists are: `tor-exits`, `firehol-proxies`, `x4bnet-vpn`, `spamhaus-drop`. */
export function kindFromName(name: string): FeedKind {
  const n = name.toLowerCase();
  if (/tor/.test(n)) return 'tor';
  if (/vpn/.test(n)) return 'vpn';
  if (/prox|anonym/.test(n)) return 'proxy';
  if (/hosting|datacenter|datacentre|cloud/.test(n)) return 'datacenter';
  return 'attacker';
}

/**
 * The FEEDS setting: entries separated by commas or white space, each `name=source` or `name:kind=source`,
 * where source is an http(s) URL or a file path and kind one of FEED_KINDS (default: guessed from the name).
 * Throws naming the bad entry, so a typo stops the start-up instead of silently dropping a list.
 */
export function parseFeedsSetting(text: string): FeedSpec[] {
  const specs: FeedSpec[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const head = eq > 0 ? entry.slice(0, eq) : '';
    const source = eq > 0 ? entry.slice(eq + 1) : '';
    const [name = '', kind, extra] = head.split(':');
    if (!NAME.test(name) || source === '' || extra !== undefined) {
      throw new Error(`FEEDS: expected name=source or name:kind=source, got ${JSON.stringify(entry)}`);
    }
    if (kind !== undefined && !(FEED_KINDS as readonly string[]).includes(kind)) {
      throw new Error(`FEEDS: kind of ${name} must be one of ${FEED_KINDS.join(', ')}`);
    }
    if (specs.some((s) => s.name === name)) throw new Error(`FEEDS: ${name} is named twice`);
    specs.push({ name, kind: (kind as FeedKind | undefined) ?? kindFromName(name), source });
  }
  return specs;
}
