import type { Listing } from './domain-list.js';
import type { MailHostStatus } from './mail-host.js';
import type { Override } from './overrides.js';

export type Confidence = 'HIGH' | 'MEDIUM' | 'LOW';

/** R's `reasons[]`: every finding that shaped the score or the confidence, strongest first. */
export const REASONS = [
  'OVERRIDE_DENY',
  'OVERRIDE_ALLOW',
  'KNOWN_PROVIDER',
  'STATIC_LIST',
  'SUBDOMAIN_OF_LISTED',
  'DOMAIN_NOT_FOUND',
  'NULL_MX',
  'NO_MAIL_HOST',
  'RANDOM_DOMAIN',
  'RANDOM_LOCAL_PART',
  'DNS_UNAVAILABLE',
] as const;
export type Reason = (typeof REASONS)[number];

/** How strongly each finding alone points to a disposable address; findings combine as independent evidence. */
export const WEIGHTS: Readonly<Partial<Record<Reason, number>>> = {
  STATIC_LIST: 0.95,
  SUBDOMAIN_OF_LISTED: 0.8,
  DOMAIN_NOT_FOUND: 0.7,
  NULL_MX: 0.7,
  NO_MAIL_HOST: 0.65,
  RANDOM_DOMAIN: 0.35,
  RANDOM_LOCAL_PART: 0.25,
};

/** What the layers found for one address. */
export interface Findings {
  readonly domain: string;
  /** The account's most specific override for the domain or a parent. */
  readonly override: Override | null;
  readonly provider: string | null;
  readonly listing: Listing | null;
  /** null: the DNS layer was not asked (the verdict was settled without it). */
  readonly mailHost: MailHostStatus | null;
  readonly randomDomain: boolean;
  readonly randomLocalPart: boolean;
}

export interface Verdict {
  readonly disposable: boolean;
  readonly confidence: Confidence;
  /** 0..1, two decimals: 1 − Π(1 − weight) over the findings. */
  readonly score: number;
  readonly reasons: Reason[];
  /** D's `reason`: the findings in words. */
  readonly reason: string;
  readonly detectionLayers: { staticList: boolean; dnsCheck: boolean; patternMatch: boolean };
}

const THRESHOLD = 0.5;
const round2 = (n: number) => Math.round(n * 100) / 100;

const DNS_REASON: Partial<Record<MailHostStatus, Reason>> = {
  DOMAIN_NOT_FOUND: 'DOMAIN_NOT_FOUND',
  NULL_MX: 'NULL_MX',
  NO_MAIL_HOST: 'NO_MAIL_HOST',
  UNAVAILABLE: 'DNS_UNAVAILABLE',
};

function sentence(reason: Reason, f: Findings): string {
  const listNames = () => (f.listing?.lists ?? []).map((l) => `${l.name} ${l.version}`).join(', ');
  switch (reason) {
    case 'OVERRIDE_DENY':
      return `${f.override?.domain} is on this account's deny list`;
    case 'OVERRIDE_ALLOW':
      return `${f.override?.domain} is on this account's allow list`;
    case 'KNOWN_PROVIDER':
      return `${f.domain} is a mailbox provider (${f.provider})`;
    case 'STATIC_LIST':
      return f.listing?.kind === 'WILDCARD'
        ? `every sub-domain of ${f.listing.entry} is on the disposable-domain lists (${listNames()})`
        : `${f.domain} is on the disposable-domain lists (${listNames()})`;
    case 'SUBDOMAIN_OF_LISTED':
      return `${f.domain} is a sub-domain of ${f.listing?.entry}, a listed disposable domain`;
    case 'DOMAIN_NOT_FOUND':
      return `${f.domain} does not exist in DNS`;
    case 'NULL_MX':
      return `${f.domain} declares that it accepts no mail (null MX)`;
    case 'NO_MAIL_HOST':
      return `${f.domain} has no mail host (no MX, A or AAAA record)`;
    case 'RANDOM_DOMAIN':
      return 'the domain name looks randomly generated';
    case 'RANDOM_LOCAL_PART':
      return 'the local part looks randomly generated';
    case 'DNS_UNAVAILABLE':
      return 'the mail host could not be checked (DNS did not answer)';
  }
}

/**
 * Precedence: the account's override, then a known mailbox provider (only the local part is judged), then the
 * layers' evidence combined. The verdict is "disposable" from a score of 0.5.
 */
export function decide(f: Findings): Verdict {
  const found: Reason[] = [];
  if (f.listing) found.push(f.listing.kind === 'PARENT' ? 'SUBDOMAIN_OF_LISTED' : 'STATIC_LIST');
  const dns = f.mailHost ? DNS_REASON[f.mailHost] : undefined;
  if (dns) found.push(dns);
  if (f.randomDomain) found.push('RANDOM_DOMAIN');
  if (f.randomLocalPart) found.push('RANDOM_LOCAL_PART');
  let reasons: Reason[];
  if (f.override) reasons = [f.override.action === 'DENY' ? 'OVERRIDE_DENY' : 'OVERRIDE_ALLOW'];
  // A provider's domain is not judged; its local parts still are.
  else if (f.provider) reasons = ['KNOWN_PROVIDER', ...found.filter((r) => r === 'RANDOM_LOCAL_PART')];
  else reasons = found;
  reasons.sort((a, b) => REASONS.indexOf(a) - REASONS.indexOf(b));

  const evidence = 1 - reasons.reduce((p, r) => p * (1 - (WEIGHTS[r] ?? 0)), 1);
  const score = f.override ? (f.override.action === 'DENY' ? 1 : 0) : round2(evidence);
  const disposable = f.override ? f.override.action === 'DENY' : !f.provider && score >= THRESHOLD;
  let confidence: Confidence;
  if (f.override || f.provider) confidence = 'HIGH';
  else if (disposable) confidence = score >= 0.9 ? 'HIGH' : score >= 0.7 ? 'MEDIUM' : 'LOW';
  else if (score >= 0.3) confidence = 'LOW';
  else confidence = f.mailHost === 'MAIL_HOST' && score === 0 ? 'HIGH' : 'MEDIUM';

  const positive = reasons.filter((r) => (WEIGHTS[r] ?? 0) > 0);
  const decisive = f.override || f.provider ? reasons.slice(0, 1) : positive;
  let reason = decisive.map((r) => sentence(r, f)).join('; ');
  if (!reason) {
    reason =
      f.mailHost === 'MAIL_HOST'
        ? `${f.domain} has a mail host and is on no disposable-domain list`
        : `${f.domain} is on no disposable-domain list and shows no sign of a disposable address`;
  }
  if (reasons.includes('DNS_UNAVAILABLE')) reason += `; ${sentence('DNS_UNAVAILABLE', f)}`;
  return {
    disposable,
    confidence,
    score,
    reasons,
    reason,
    detectionLayers: {
      staticList: found.includes('STATIC_LIST'),
      dnsCheck: dns !== undefined && dns !== 'DNS_UNAVAILABLE',
      patternMatch: found.some((r) => r === 'SUBDOMAIN_OF_LISTED' || r.startsWith('RANDOM_')),
    },
  };
}
