import { type RecordType, TYPE_CODES } from './record-types.js';
import type { ResourceRecord } from './wire.js';

/**
 * One record as the API reports it. `value` is what the record points to or says: the address (A, AAAA), the
 * host name (CNAME, NS, MX exchange, SRV target, SOA primary name server) or the text (TXT, its strings joined
 * without separator, as SPF and DKIM read them). The other fields carry the rest of the record.
 */
export interface DnsRecord {
  readonly value: string;
  /** Seconds, as the server gave it (a recursive resolver counts it down). */
  readonly ttl: number;
  /** MX preference, SRV priority: lower is tried first. */
  readonly priority?: number;
  readonly weight?: number;
  readonly port?: number;
  /** TXT: the character-strings as sent (RFC 1035 3.3.14). */
  readonly strings?: string[];
  /** CNAME: the alias this link starts from. */
  readonly name?: string;
  readonly mname?: string;
  readonly rname?: string;
  readonly serial?: number;
  readonly refresh?: number;
  readonly retry?: number;
  readonly expire?: number;
  readonly minimum?: number;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export interface Selection {
  /** Records of the asked type owned by the name or by a name its CNAME chain leads to. */
  readonly records: readonly ResourceRecord[];
  /** The CNAME links found from the name, in chain order. */
  readonly chain: readonly ResourceRecord[];
}

/**
 * The answers that belong to a query. A resolver answers an alias with the CNAME chain followed by the target's
 * records (RFC 1034 3.6.2); records owned by names off that chain are ignored, whatever the server sent.
 */
export function selectAnswers(answers: readonly ResourceRecord[], qname: string, qtype: number): Selection {
  const chain: ResourceRecord[] = [];
  let current = qname;
  const seen = new Set([qname.toLowerCase()]);
  for (;;) {
    const link = answers.find((rr) => rr.type === TYPE_CODES.CNAME && same(rr.name, current));
    if (link?.data.kind !== 'name') break;
    chain.push(link);
    current = link.data.name;
    // A link back into the chain is reported, and ends it.
    if (seen.has(current.toLowerCase())) break;
    seen.add(current.toLowerCase());
  }
  if (qtype === TYPE_CODES.CNAME) return { records: chain, chain };
  const owners = new Set(seen);
  const records = answers.filter((rr) => rr.type === qtype && owners.has(rr.name.toLowerCase()));
  return { records, chain };
}

/** The API form of a record of one of the reported types. */
export function toDnsRecord(rr: ResourceRecord): DnsRecord {
  const d = rr.data;
  switch (d.kind) {
    case 'address':
      return { value: d.address, ttl: rr.ttl };
    case 'name':
      return rr.type === TYPE_CODES.CNAME
        ? { value: d.name, ttl: rr.ttl, name: rr.name }
        : { value: d.name, ttl: rr.ttl };
    case 'mx':
      return { value: d.exchange, ttl: rr.ttl, priority: d.preference };
    case 'txt':
      return { value: d.strings.join(''), ttl: rr.ttl, strings: [...d.strings] };
    case 'srv':
      return { value: d.target, ttl: rr.ttl, priority: d.priority, weight: d.weight, port: d.port };
    case 'soa':
      return {
        value: d.mname,
        ttl: rr.ttl,
        mname: d.mname,
        rname: d.rname,
        serial: d.serial,
        refresh: d.refresh,
        retry: d.retry,
        expire: d.expire,
        minimum: d.minimum,
      };
    default:
      return { value: '', ttl: rr.ttl };
  }
}

/**
 * Stable order where the type defines one: MX by preference, SRV by priority then heavier weight first
 * (RFC 2782's selection order), ties by value. Other types keep the server's order.
 */
export function orderRecords(type: RecordType, records: DnsRecord[]): DnsRecord[] {
  if (type !== 'MX' && type !== 'SRV') return records;
  return [...records].sort(
    (a, b) =>
      (a.priority ?? 0) - (b.priority ?? 0) ||
      (b.weight ?? 0) - (a.weight ?? 0) ||
      a.value.localeCompare(b.value),
  );
}
