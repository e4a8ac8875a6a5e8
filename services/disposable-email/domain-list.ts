import { normalizeDomain, parentDomains } from './email-address.js';

/** One published list, as a release of its package ships it. */
export interface ListSource {
  /** The package name, e.g. `disposable-email-domains`. */
  readonly name: string;
  readonly version: string;
  /** YYYY-MM-DD: when that version was released (see list-sources.ts for how it is known). */
  readonly date: string;
  readonly domains: Iterable<string>;
  /** Domains whose every sub-domain is disposable too, as the list states it. */
  readonly wildcards?: Iterable<string>;
}

export interface ListInfo {
  readonly name: string;
  readonly version: string;
  readonly date: string;
}

/**
 * EXACT: the domain is an entry. WILDCARD: it is under an entry the list marks as covering every sub-domain.
 * PARENT: it is under an ordinary entry (a sign, not a listing: the pattern layer's "sub-domain of a listed domain").
 */
export type ListingKind = 'EXACT' | 'WILDCARD' | 'PARENT';

export interface Listing {
  readonly kind: ListingKind;
  /** The list entry that matched. */
  readonly entry: string;
  /** The lists that carry the entry. */
  readonly lists: readonly ListInfo[];
  /** The earliest release date among those lists: the entry was listed on that day at the latest. */
  readonly addedDate: string;
}

/**
 * Entries of the lists that are registry suffixes (Public Suffix List): under them, unrelated people register
 * their own names (`uni.edu.pl`, `shop.web.id`, `club.msk.ru`), so an entry says nothing about its sub-domains.
 * They still match exactly. Entries the list marks as wildcards keep their wildcard unless they are ICANN
 * suffixes (`my.id`, `web.id`): a dynamic-DNS zone such as `ddns.net` is the list maintainers' call.
 * Computed from the merged lists against the Public Suffix List; test/disposable-email re-checks it.
 */
export const SHARED_SUFFIXES: ReadonlySet<string> = new Set([
  // ICANN section
  'edu.pl',
  'my.id',
  'nom.za',
  'web.id',
  'zp.ua',
  // private section, not marked as wildcards by the lists
  'ch.tc',
  'gleeze.com',
  'msk.ru',
  'pp.ua',
  'za.com',
]);

/** Per entry, two bits per source: listed (bit 2i) and wildcard (bit 2i+1). */
const MAX_SOURCES = 15;

/** The lists merged: normalized (lower case, punycode), deduplicated, each entry with the lists that carry it. */
export class DomainList {
  private constructor(
    private readonly entries: ReadonlyMap<string, number>,
    private readonly sourceInfo: readonly ListInfo[],
    private readonly shared: ReadonlySet<string>,
    /** Entries that were not domain names and were left out, per source name. */
    readonly skipped: Readonly<Record<string, number>>,
  ) {}

  static build(sources: readonly ListSource[], shared: ReadonlySet<string> = SHARED_SUFFIXES): DomainList {
    if (sources.length > MAX_SOURCES) throw new RangeError(`at most ${MAX_SOURCES} list sources`);
    const entries = new Map<string, number>();
    const skipped: Record<string, number> = {};
    sources.forEach((source, i) => {
      skipped[source.name] = 0;
      const add = (raw: string, bits: number) => {
        const domain = typeof raw === 'string' ? normalizeDomain(raw.trim(), { trailingDot: true }) : null;
        if (domain === null) {
          skipped[source.name]! += 1;
          return;
        }
        entries.set(domain, (entries.get(domain) ?? 0) | bits);
      };
      for (const d of source.domains) add(d, 1 << (2 * i));
      for (const d of source.wildcards ?? []) add(d, (1 << (2 * i)) | (1 << (2 * i + 1)));
    });
    const info = sources.map(({ name, version, date }) => ({ name, version, date }));
    return new DomainList(entries, info, shared, skipped);
  }

  get size(): number {
    return this.entries.size;
  }

  get sources(): readonly ListInfo[] {
    return this.sourceInfo;
  }

  /** The domain itself, else its nearest listed parent (registry suffixes skipped); null when neither. */
  lookup(domain: string): Listing | null {
    const own = this.entries.get(domain);
    if (own !== undefined) return this.listing('EXACT', domain, own);
    for (const parent of parentDomains(domain)) {
      const bits = this.entries.get(parent);
      if (bits === undefined || this.shared.has(parent)) continue;
      return this.listing(this.isWildcard(bits) ? 'WILDCARD' : 'PARENT', parent, bits);
    }
    return null;
  }

  private isWildcard(bits: number): boolean {
    for (let i = 0; i < this.sourceInfo.length; i++) if (bits & (1 << (2 * i + 1))) return true;
    return false;
  }

  private listing(kind: ListingKind, entry: string, bits: number): Listing {
    const lists = this.sourceInfo.filter((_, i) => bits & (1 << (2 * i)));
    const addedDate = lists.map((l) => l.date).reduce((a, b) => (b < a ? b : a));
    return { kind, entry, lists, addedDate };
  }
}
