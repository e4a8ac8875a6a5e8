import { mapLimit } from './concurrency.js';
import type { DomainList, Listing } from './domain-list.js';
import type { EmailAddress } from './email-address.js';
import { knownProvider } from './known-providers.js';
import type { MailHostChecker, MailHostStatus } from './mail-host.js';
import type { Override, OverrideStore } from './overrides.js';
import { randomDomain, randomLocalPart } from './randomness.js';
import { decide, type Verdict } from './verdict.js';

export interface CheckerDeps {
  readonly lists: () => Promise<DomainList>;
  readonly mailHosts: MailHostChecker;
  readonly overrides: OverrideStore;
}

/** What the layers know about a domain, shared by every address at it. */
interface DomainFindings {
  readonly override: Override | null;
  readonly provider: string | null;
  readonly listing: Listing | null;
  readonly mailHost: MailHostStatus | null;
  readonly randomDomain: boolean;
}

export interface AddressResult extends Verdict {
  readonly address: EmailAddress;
  /** S's `provider`: the listed disposable domain that matched, else the known mailbox provider, else null. */
  readonly provider: string | null;
}

export interface DomainStatus {
  readonly domain: string;
  readonly disposable: boolean;
  readonly source: 'STATIC_LIST' | 'PATTERN_MATCH' | 'OVERRIDE' | null;
  readonly addedDate: string | null;
  readonly matchedDomain: string | null;
  readonly lists: Listing['lists'];
}

/** Domains resolved at once in a batch. */
const DNS_CONCURRENCY = 16;

/** Runs the layers in order of cost: overrides and lists first, DNS only when its answer can matter. */
export class EmailChecker {
  constructor(private readonly deps: CheckerDeps) {}

  private async domainFindings(domain: string, accountId: string | null): Promise<DomainFindings> {
    const [lists, override] = await Promise.all([
      this.deps.lists(),
      accountId ? this.deps.overrides.find(accountId, domain) : null,
    ]);
    const provider = knownProvider(domain);
    const listing = provider ? null : lists.lookup(domain);
    const settled = override !== null || provider !== null || (listing !== null && listing.kind !== 'PARENT');
    return {
      override,
      provider,
      listing,
      mailHost: settled ? null : await this.deps.mailHosts.check(domain),
      randomDomain: !provider && !listing && randomDomain(domain),
    };
  }

  private result(address: EmailAddress, d: DomainFindings): AddressResult {
    const verdict = decide({
      domain: address.domain,
      override: d.override,
      provider: d.provider,
      listing: d.listing,
      mailHost: d.mailHost,
      randomDomain: d.randomDomain,
      randomLocalPart: randomLocalPart(address.localPart),
    });
    return { ...verdict, address, provider: d.listing?.entry ?? d.provider };
  }

  async check(address: EmailAddress, accountId: string | null): Promise<AddressResult> {
    return this.result(address, await this.domainFindings(address.domain, accountId));
  }

  /** Each distinct domain is judged once; null items (malformed input) stay null. */
  async checkMany(
    addresses: readonly (EmailAddress | null)[],
    accountId: string | null,
  ): Promise<(AddressResult | null)[]> {
    const domains = [...new Set(addresses.flatMap((a) => (a ? [a.domain] : [])))];
    const findings = await mapLimit(domains, DNS_CONCURRENCY, (d) => this.domainFindings(d, accountId));
    const byDomain = new Map(domains.map((d, i) => [d, findings[i]!]));
    return addresses.map((a) => (a ? this.result(a, byDomain.get(a.domain)!) : null));
  }

  /** The lists and the account's overrides only: no DNS, no guessing from the name. */
  async domainStatus(domain: string, accountId: string | null): Promise<DomainStatus> {
    const [lists, override] = await Promise.all([
      this.deps.lists(),
      accountId ? this.deps.overrides.find(accountId, domain) : null,
    ]);
    const listing = knownProvider(domain) ? null : lists.lookup(domain);
    const listed = {
      matchedDomain: listing?.entry ?? null,
      lists: listing?.lists ?? [],
    };
    if (override) {
      return {
        domain,
        disposable: override.action === 'DENY',
        source: 'OVERRIDE',
        addedDate: override.createdAt.slice(0, 10),
        ...listed,
        matchedDomain: override.domain,
      };
    }
    if (!listing) return { domain, disposable: false, source: null, addedDate: null, ...listed };
    return {
      domain,
      disposable: true,
      source: listing.kind === 'PARENT' ? 'PATTERN_MATCH' : 'STATIC_LIST',
      addedDate: listing.addedDate,
      ...listed,
    };
  }
}
