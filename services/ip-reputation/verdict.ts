import type { ThreatCategory } from './categories.js';
import type { IpChecked, ListedIn } from './events.js';
import type { FeedHit } from './feed-matcher.js';
import { isHostingAsn } from './hosting-asns.js';
import { abuseConfidence, REPORT_WINDOW_DAYS, riskLevel, riskScore, sortCategories } from './scoring.js';

/** What the ASN database says about an address (GeoLookup's record has these fields, among others). */
export interface NetworkInfo {
  readonly asn: number | null;
  readonly asnOrg: string | null;
  readonly isp: string | null;
  readonly country: string | null;
}

export interface ReportFacts {
  readonly reporters: readonly { readonly reportedAt: string }[];
  readonly categories: readonly string[];
  readonly lastReportedAt: string | null;
}

export const reportWindowStart = (now: Date): Date =>
  new Date(now.getTime() - REPORT_WINDOW_DAYS * 86_400_000);

/** Combines the three sources of signals into one verdict. Pure. */
export function verdictOf(input: {
  readonly ip: string;
  readonly accountId: string;
  readonly network: NetworkInfo;
  readonly hits: readonly FeedHit[];
  readonly reports: ReportFacts;
  readonly now: Date;
}): IpChecked {
  const { hits, network, reports, now } = input;
  const has = (kind: FeedHit['kind']) => hits.some((h) => h.kind === kind);
  const isTor = has('tor');
  const isProxy = has('proxy');
  const isVpn = has('vpn');
  const isKnownAttacker = has('attacker');
  const isDatacenter = has('datacenter') || isHostingAsn(network.asn, network.asnOrg);
  const abuseConfidenceScore = abuseConfidence(reports.reporters, now);
  const categories = new Set(reports.categories as ThreatCategory[]);
  if (isTor) categories.add('TOR_EXIT');
  if (isProxy || isVpn) categories.add('ANONYMIZER');
  if (isKnownAttacker) categories.add('KNOWN_ATTACKER');
  const signals = { isTor, isProxy, isVpn, isDatacenter, isKnownAttacker, abuseConfidenceScore };
  const score = riskScore(signals);
  const lists: ListedIn[] = hits.map((h) => ({ name: h.name, kind: h.kind, importedAt: h.importedAt }));
  return {
    ip: input.ip,
    accountId: input.accountId,
    checkedAt: now.toISOString(),
    riskScore: score,
    riskLevel: riskLevel(score),
    ...signals,
    isp: network.isp ?? network.asnOrg,
    country: network.country,
    asn: network.asn,
    threatCategories: sortCategories(categories),
    lastReportedAt: reports.lastReportedAt,
    lists,
  };
}

/** Lists as answered: with their age at `now`. */
export const listsAt = (lists: readonly ListedIn[], now: Date) =>
  lists.map((l) => ({
    ...l,
    ageSeconds: Math.max(0, Math.floor((now.getTime() - Date.parse(l.importedAt)) / 1000)),
  }));

/** Convention D's body. */
export function detailedBody(v: IpChecked, now: Date) {
  return {
    ipAddress: v.ip,
    riskScore: v.riskScore,
    riskLevel: v.riskLevel,
    isTor: v.isTor,
    isProxy: v.isProxy,
    isVpn: v.isVpn,
    isDatacenter: v.isDatacenter,
    isKnownAttacker: v.isKnownAttacker,
    abuseConfidenceScore: v.abuseConfidenceScore,
    isp: v.isp,
    country: v.country,
    asn: v.asn,
    threatCategories: v.threatCategories,
    lastReportedAt: v.lastReportedAt,
    lists: listsAt(v.lists, now),
    checkedAt: v.checkedAt,
  };
}

/** Convention R's body. `lastSeen`: the latest report or the import of a list that holds the address. */
export function shortBody(v: IpChecked, now: Date) {
  const seen = [v.lastReportedAt, ...v.lists.map((l) => l.importedAt)]
    .filter((t): t is string => t !== null)
    .map((t) => Date.parse(t));
  return {
    ip: v.ip,
    riskScore: v.riskScore / 100,
    isProxy: v.isProxy,
    isVpn: v.isVpn,
    isTor: v.isTor,
    isDatacenter: v.isDatacenter,
    isKnownAttacker: v.isKnownAttacker,
    abuseConfidenceScore: v.abuseConfidenceScore,
    threats: v.threatCategories,
    lastSeen: seen.length > 0 ? new Date(Math.max(...seen)).toISOString() : null,
    lists: listsAt(v.lists, now),
  };
}
