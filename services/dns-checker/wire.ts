/**
 * The DNS message format (RFC 1035 4), as much of it as a stub resolver needs: one query out, and the header,
 * question and answer section of the response in. Pure: bytes in, values out. Every read is bounds-checked and
 * compression pointers may only point backwards, so a hostile response cannot loop or read past its end.
 */

export const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'] as const;

/** The RCODE name (RFC 1035 4.1.1, RFC 6895 2.3), or `RCODE<n>` for the rest. */
export const rcodeName = (rcode: number): string => RCODES[rcode] ?? `RCODE${rcode}`;

export const CLASS_IN = 1;
const TYPE_OPT = 41;
/** The EDNS payload size of DNS Flag Day 2020: fits the IPv6 minimum MTU without fragmentation. */
export const EDNS_UDP_SIZE = 1232;

export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

export interface Query {
  readonly id: number;
  /** ASCII, without the final dot. */
  readonly name: string;
  readonly type: number;
  /** Adds an OPT record announcing EDNS_UDP_SIZE (RFC 6891). */
  readonly edns: boolean;
}

/** Resource data of the types the service reports; anything else stays raw. */
export type RData =
  | { readonly kind: 'address'; readonly address: string }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'mx'; readonly preference: number; readonly exchange: string }
  | { readonly kind: 'txt'; readonly strings: readonly string[] }
  | {
      readonly kind: 'soa';
      readonly mname: string;
      readonly rname: string;
      readonly serial: number;
      readonly refresh: number;
      readonly retry: number;
      readonly expire: number;
      readonly minimum: number;
    }
  | {
      readonly kind: 'srv';
      readonly priority: number;
      readonly weight: number;
      readonly port: number;
      readonly target: string;
    }
  | { readonly kind: 'other' };

export interface ResourceRecord {
  /** Presentation form without the final dot; `.` for the root. */
  readonly name: string;
  readonly type: number;
  readonly class: number;
  /** Seconds; values with the top bit set count as 0 (RFC 2181 8). */
  readonly ttl: number;
  readonly data: RData;
}

export interface Message {
  readonly id: number;
  readonly response: boolean;
  readonly truncated: boolean;
  /** Including the upper bits an EDNS OPT record carries. */
  readonly rcode: number;
  readonly question: { readonly name: string; readonly type: number; readonly class: number } | null;
  readonly answers: readonly ResourceRecord[];
}

export function encodeQuery(query: Query): Buffer {
  const name = encodeName(query.name);
  const opt = query.edns ? 11 : 0;
  const out = Buffer.alloc(12 + name.length + 4 + opt);
  out.writeUInt16BE(query.id, 0);
  out.writeUInt16BE(0x0100, 2); // RD: the configured servers are recursive resolvers
  out.writeUInt16BE(1, 4);
  out.writeUInt16BE(query.edns ? 1 : 0, 10);
  name.copy(out, 12);
  let at = 12 + name.length;
  out.writeUInt16BE(query.type, at);
  out.writeUInt16BE(CLASS_IN, at + 2);
  at += 4;
  if (query.edns) {
    // Root owner, type OPT, class = UDP payload size, TTL 0 (version 0, no DO), no options.
    out.writeUInt8(0, at);
    out.writeUInt16BE(TYPE_OPT, at + 1);
    out.writeUInt16BE(EDNS_UDP_SIZE, at + 3);
  }
  return out;
}

function encodeName(name: string): Buffer {
  const parts: Buffer[] = [];
  for (const label of name === '' || name === '.' ? [] : name.split('.')) {
    const bytes = Buffer.from(label, 'ascii');
    if (bytes.length === 0 || bytes.length > 63)
      throw new WireError(`label "${label}" is not 1 to 63 octets`);
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  const out = Buffer.concat(parts);
  if (out.length > 255) throw new WireError('name is longer than 255 octets');
  return out;
}

export function decodeMessage(buf: Buffer): Message {
  const r = new Reader(buf);
  const id = r.u16();
  const flags = r.u16();
  const qd = r.u16();
  const an = r.u16();
  const ns = r.u16();
  const ar = r.u16();
  let question: Message['question'] = null;
  for (let i = 0; i < qd; i++) {
    const q = { name: r.name(), type: r.u16(), class: r.u16() };
    question ??= q;
  }
  const answers: ResourceRecord[] = [];
  for (let i = 0; i < an; i++) answers.push(readRecord(r));
  let rcode = flags & 0x0f;
  // Only the OPT record matters beyond the answers; a response cut short after them is still usable.
  try {
    for (let i = 0; i < ns; i++) readRecord(r);
    for (let i = 0; i < ar; i++) {
      const rr = readRecord(r);
      if (rr.type === TYPE_OPT) rcode |= (rr.ttl >>> 24) << 4;
    }
  } catch (err) {
    if (!(err instanceof WireError)) throw err;
  }
  return {
    id,
    response: (flags & 0x8000) !== 0,
    truncated: (flags & 0x0200) !== 0,
    rcode,
    question,
    answers,
  };
}

function readRecord(r: Reader): ResourceRecord {
  const name = r.name();
  const type = r.u16();
  const klass = r.u16();
  const rawTtl = r.u32();
  const length = r.u16();
  const end = r.offset + length;
  if (end > r.buf.length) throw new WireError('record data runs past the end of the message');
  const data = type === TYPE_OPT ? ({ kind: 'other' } as const) : readData(r, type, length);
  r.offset = end;
  // OPT keeps its raw TTL: it carries the extended RCODE, not a time.
  const ttl = type === TYPE_OPT ? rawTtl : rawTtl > 0x7fffffff ? 0 : rawTtl;
  return { name, type, class: klass, ttl, data };
}

function readData(r: Reader, type: number, length: number): RData {
  const end = r.offset + length;
  const within = <T>(value: T): T => {
    if (r.offset > end) throw new WireError(`type ${type} data is longer than its length`);
    return value;
  };
  switch (type) {
    case 1:
      if (length !== 4) throw new WireError('A data is not 4 octets');
      return { kind: 'address', address: [...r.bytes(4)].join('.') };
    case 28:
      if (length !== 16) throw new WireError('AAAA data is not 16 octets');
      return { kind: 'address', address: formatIpv6(r.bytes(16)) };
    case 2:
    case 5:
      return within({ kind: 'name', name: r.name() });
    case 15:
      return within({ kind: 'mx', preference: r.u16(), exchange: r.name() });
    case 16: {
      const strings: string[] = [];
      while (r.offset < end) {
        const n = r.u8();
        if (r.offset + n > end) throw new WireError('TXT string runs past its record');
        strings.push(r.bytes(n).toString('utf8'));
      }
      return { kind: 'txt', strings };
    }
    case 6:
      return within({
        kind: 'soa',
        mname: r.name(),
        rname: r.name(),
        serial: r.u32(),
        refresh: r.u32(),
        retry: r.u32(),
        expire: r.u32(),
        minimum: r.u32(),
      });
    case 33:
      return within({ kind: 'srv', priority: r.u16(), weight: r.u16(), port: r.u16(), target: r.name() });
    default:
      return { kind: 'other' };
  }
}

class Reader {
  offset = 0;

  constructor(readonly buf: Buffer) {}

  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new WireError('message ends early');
  }

  u8(): number {
    this.need(1);
    return this.buf.readUInt8(this.offset++);
  }

  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  bytes(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }

  /** A possibly compressed name (RFC 1035 4.1.4), in presentation form. */
  name(): string {
    const labels: string[] = [];
    let at = this.offset;
    let resumeAt = -1;
    let limit = at;
    let octets = 1;
    for (;;) {
      if (at >= this.buf.length) throw new WireError('name runs past the end of the message');
      const len = this.buf[at]!;
      if (len === 0) {
        at += 1;
        break;
      }
      if ((len & 0xc0) === 0xc0) {
        if (at + 1 >= this.buf.length) throw new WireError('compression pointer cut short');
        const target = ((len & 0x3f) << 8) | this.buf[at + 1]!;
        // Each jump lands before the previous one (compressors only point at names written earlier), so a
        // chain of pointers always ends.
        if (target >= limit) throw new WireError('compression pointer does not point backwards');
        if (resumeAt === -1) resumeAt = at + 2;
        limit = target;
        at = target;
        continue;
      }
      if ((len & 0xc0) !== 0) throw new WireError('unsupported label type');
      if (at + 1 + len > this.buf.length) throw new WireError('label runs past the end of the message');
      octets += len + 1;
      if (octets > 255) throw new WireError('name is longer than 255 octets');
      labels.push(presentLabel(this.buf.subarray(at + 1, at + 1 + len)));
      at += 1 + len;
    }
    this.offset = resumeAt === -1 ? at : resumeAt;
    return labels.length === 0 ? '.' : labels.join('.');
  }
}

/** RFC 1035 5.1: dots and backslashes escaped, bytes outside printable ASCII as \DDD. */
function presentLabel(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x2e || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b > 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${b.toString().padStart(3, '0')}`;
  }
  return out;
}

/** RFC 5952: lower case, leading zeros dropped, the longest run of two or more zero groups as `::`. */
export function formatIpv6(bytes: Buffer): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i));
  let bestAt = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (bestAt === -1) return hex(groups);
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLen))}`;
}
