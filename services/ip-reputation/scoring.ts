import type { ThreatCategory } from './categories.js';

/** A reporter's latest report on an address, as the read model aggregates them. */
export interface ReporterReport {
  readonly reportedAt: string;
}

/** Reports older than this no longer count (AbuseIPDB's longest window). */
export const REPORT_WINDOW_DAYS = 90;
/** What one fresh report from one reporter adds to abuseConfidenceScore; four distinct reporters reach 100. */
export const POINTS_PER_REPORTER = 25;

const DAY_MS = 86_400_000;

/**
 * AbuseIPDB-style confidence that the address is abusive, 0-100. Each distinct reporter counts once (a single
 * account filing a thousand reports cannot condemn an address alone), by its most recent report, weighted by
 * recency: full weight for a day, then falling linearly to zero at REPORT_WINDOW_DAYS.
 */
export function abuseConfidence(reporters: readonly ReporterReport[], now: Date): number {
  let score = 0;
  for (const r of reporters) {
    const ageDays = Math.max(0, (now.getTime() - Date.parse(r.reportedAt)) / DAY_MS);
    const weight = ageDays <= 1 ? 1 : Math.max(0, 1 - (ageDays - 1) / (REPORT_WINDOW_DAYS - 1));
    score += POINTS_PER_REPORTER * weight;
  }
  return Math.min(100, Math.round(score));
}

export interface Signals {
  readonly isTor: boolean;
  readonly isProxy: boolean;
  readonly isVpn: boolean;
  readonly isDatacenter: boolean;
  readonly isKnownAttacker: boolean;
  readonly abuseConfidenceScore: number;
}

export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL';

/** Each signal alone, on the 0-100 scale: how much it says about the traffic's intent. */
const WEIGHTS = { isKnownAttacker: 75, isTor: 60, isProxy: 50, isVpn: 40, isDatacenter: 20 } as const;

/**
 * Risk 0-100: the strongest signal (abuse confidence counts as itself), plus 10 for every other signal present,
 * capped at 100. So a Tor exit is 60 (HIGH), a Tor exit also listed as an attacker 85 (CRITICAL), a cloud
 * server 20 (LOW), a cloud server that runs a proxy 60.
 */
export function riskScore(s: Signals): number {
  const parts: number[] = (Object.keys(WEIGHTS) as (keyof typeof WEIGHTS)[])
    .filter((k) => s[k])
    .map((k) => WEIGHTS[k]);
  if (s.abuseConfidenceScore > 0) parts.push(s.abuseConfidenceScore);
  if (parts.length === 0) return 0;
  const strongest = Math.max(...parts);
  return Math.min(100, strongest + 10 * (parts.length - 1));
}

/** LOW below 25, MEDIUM below 50, HIGH below 75, CRITICAL from 75. */
export function riskLevel(score: number): RiskLevel {
  if (score >= 75) return 'CRITICAL';
  if (score >= 50) return 'HIGH';
  if (score >= 25) return 'MEDIUM';
  return 'LOW';
}

export const sortCategories = (c: Iterable<ThreatCategory>): ThreatCategory[] => [...new Set(c)].sort();
