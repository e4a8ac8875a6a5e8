import type { RecordType } from './record-types.js';
import { type DnsRecord, orderRecords, toDnsRecord } from './records.js';
import type { FailureCode, Outcome, Resolver } from './resolver.js';
import type { NameServer } from './servers.js';

export type DnsStatus = 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL';

/** The outcome of resolving some record types of one name. */
export interface CheckResult {
  readonly status: DnsStatus;
  /** Every answered type, [] when the name has none of it; none at all for NXDOMAIN; failed types absent. */
  readonly records: Partial<Record<RecordType, DnsRecord[]>>;
  /** The server whose answers are reported (the first to answer), or the one that failed. */
  readonly nameserver: string;
  readonly queryTimeMs: number;
  /** Only with SERVFAIL: why, and which types it hit. */
  readonly error?: FailureCode;
  readonly message?: string;
}

/** Resolves every type at once, within one deadline (a performance.now() instant). */
export async function checkName(
  resolver: Resolver,
  fallback: NameServer,
  name: string,
  types: readonly RecordType[],
  deadline: number,
): Promise<CheckResult> {
  const started = performance.now();
  const outcomes = await Promise.all(
    types.map(async (type) => ({
      type,
      outcome:
        type === 'CNAME' ? await resolver.chain(name, deadline) : await resolver.query(name, type, deadline),
    })),
  );
  return summarize(outcomes, fallback, Math.round(performance.now() - started));
}

/**
 * One status for the name. NXDOMAIN when a server said the name does not exist: no records at all (SPEC.md
 * 4.3). An NXDOMAIN that comes with a CNAME from the name is about the alias target (RFC 6604), so the name
 * exists: it counts as an answer without records of that type. Otherwise SERVFAIL when a type got no answer
 * (the answered types are still reported), else NOERROR.
 */
export function summarize(
  outcomes: readonly { readonly type: RecordType; readonly outcome: Outcome }[],
  fallback: NameServer,
  queryTimeMs: number,
): CheckResult {
  const answered = outcomes.filter((o) => o.outcome.ok);
  const firstServer = answered[0]?.outcome.ok ? answered[0].outcome.server : null;
  const nxdomain = outcomes.find(
    (o) => o.outcome.ok && o.outcome.rcode === 'NXDOMAIN' && o.outcome.chain.length === 0,
  );
  if (nxdomain?.outcome.ok) {
    return { status: 'NXDOMAIN', records: {}, nameserver: nxdomain.outcome.server.label, queryTimeMs };
  }
  const records: Partial<Record<RecordType, DnsRecord[]>> = {};
  for (const { type, outcome } of answered) {
    if (outcome.ok) records[type] = orderRecords(type, outcome.records.map(toDnsRecord));
  }
  const failed = outcomes.flatMap((o) => (o.outcome.ok ? [] : [{ type: o.type, failure: o.outcome }]));
  if (failed.length === 0) {
    return { status: 'NOERROR', records, nameserver: (firstServer ?? fallback).label, queryTimeMs };
  }
  const byMessage = new Map<string, RecordType[]>();
  for (const { type, failure } of failed)
    byMessage.set(failure.message, [...(byMessage.get(failure.message) ?? []), type]);
  const first = failed[0]!.failure;
  return {
    status: 'SERVFAIL',
    records,
    nameserver: (firstServer ?? first.server ?? fallback).label,
    queryTimeMs,
    error: first.error,
    message: [...byMessage].map(([message, types]) => `${types.join(', ')}: ${message}`).join('; '),
  };
}
