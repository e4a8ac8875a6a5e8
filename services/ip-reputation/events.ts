import type { FeedKind } from './feed-spec.js';
import { ipToNumber } from './ip-number.js';

/**
 * Payload types of the `reputation-<address as hex>` streams; the JSON Schemas in schemas/events/reputation/
 * are the contract. One stream per address holds its whole history: every check by every account, every report.
 */

/** A list that held the address at the time of a check. */
export interface ListedIn {
  readonly name: string;
  readonly kind: FeedKind;
  readonly importedAt: string;
}

/** A check's verdict, exactly as answered (convention D's fields, without the per-call timing). */
export interface IpChecked {
  readonly ip: string;
  readonly accountId: string;
  readonly checkedAt: string;
  readonly riskScore: number;
  readonly riskLevel: string;
  readonly isTor: boolean;
  readonly isProxy: boolean;
  readonly isVpn: boolean;
  readonly isDatacenter: boolean;
  readonly isKnownAttacker: boolean;
  readonly abuseConfidenceScore: number;
  readonly isp: string | null;
  readonly country: string | null;
  readonly asn: number | null;
  readonly threatCategories: readonly string[];
  readonly lastReportedAt: string | null;
  readonly lists: readonly ListedIn[];
}

export interface IpReported {
  readonly ip: string;
  readonly accountId: string;
  readonly categories: readonly string[];
  readonly comment?: string;
  readonly reportedAt: string;
}

export type ReputationEvent =
  | { type: 'IpChecked'; data: IpChecked }
  | { type: 'IpReported'; data: IpReported };

/** Stream category; core/bus/topics.ts maps it to the `reputation` context (topic). */
export const REPUTATION_CATEGORY = 'reputation';
export const REPUTATION_CONTEXT = 'reputation';

/** `reputation-` + the address as fixed-width hex (8 digits IPv4, 32 IPv6): one spelling per address. */
export function reputationStreamId(ip: string): string {
  const n = ipToNumber(ip);
  if (!n) throw new Error(`not a canonical IP address: ${JSON.stringify(ip)}`);
  return `${REPUTATION_CATEGORY}-${n.value.toString(16).padStart(n.family === 4 ? 8 : 32, '0')}`;
}
