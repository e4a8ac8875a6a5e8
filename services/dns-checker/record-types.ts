/** The record types the service resolves, in the order results list them (SPEC.md 4.3). */
export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'SRV'] as const;

export type RecordType = (typeof RECORD_TYPES)[number];

/** RFC 1035 3.2.2, RFC 3596 (AAAA), RFC 2782 (SRV). */
export const TYPE_CODES: Readonly<Record<RecordType, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
};
