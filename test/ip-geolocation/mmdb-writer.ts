import ipaddr from 'ipaddr.js';

/**
 * A small MaxMind DB writer (format 2.0, 24-bit records), so tests can make GeoIP2-shaped databases instead
 * of fetching MaxMind's files. Spec: https://maxmind.github.io/MaxMind-DB/. Numbers that are integers from 0
 * to 2^32 − 1 are written as uint32, other numbers as doubles; `uint64(n)` forces a uint64.
 */
export type MmdbValue =
  | string
  | number
  | boolean
  | { readonly uint64: bigint }
  | readonly MmdbValue[]
  | { readonly [key: string]: MmdbValue };

export const uint64 = (n: bigint | number): { uint64: bigint } => ({ uint64: BigInt(n) });

export interface MmdbNetwork {
  /** `1.2.3.0/24` or `2001:db8::/32`; IPv4 networks in an IPv6 database go under ::/96. */
  readonly cidr: string;
  readonly data: MmdbValue;
}

export interface MmdbOptions {
  readonly databaseType: string;
  readonly ipVersion?: 4 | 6;
  readonly buildEpoch?: Date;
  readonly description?: string;
  readonly languages?: readonly string[];
}

const TYPES = {
  pointer: 1,
  string: 2,
  double: 3,
  uint16: 5,
  uint32: 6,
  map: 7,
  uint64: 9,
  array: 11,
  bool: 14,
};

function control(type: number, size: number): Buffer {
  const bytes: number[] = [];
  let sizeBits: number;
  const extra: number[] = [];
  if (size < 29) sizeBits = size;
  else if (size < 29 + 256) {
    sizeBits = 29;
    extra.push(size - 29);
  } else if (size < 285 + 65_536) {
    sizeBits = 30;
    const s = size - 285;
    extra.push(s >> 8, s & 0xff);
  } else {
    sizeBits = 31;
    const s = size - 65_821;
    extra.push((s >> 16) & 0xff, (s >> 8) & 0xff, s & 0xff);
  }
  if (type <= 7) bytes.push((type << 5) | sizeBits);
  else bytes.push(sizeBits, type - 7);
  return Buffer.from([...bytes, ...extra]);
}

function unsigned(type: number, value: bigint): Buffer {
  const bytes: number[] = [];
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn));
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

export function encode(value: MmdbValue): Buffer {
  if (typeof value === 'string') {
    const utf8 = Buffer.from(value, 'utf8');
    return Buffer.concat([control(TYPES.string, utf8.length), utf8]);
  }
  if (typeof value === 'boolean') return control(TYPES.bool, value ? 1 : 0);
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && value < 2 ** 32)
      return unsigned(TYPES.uint32, BigInt(value));
    const b = Buffer.alloc(8);
    b.writeDoubleBE(value);
    return Buffer.concat([control(TYPES.double, 8), b]);
  }
  if (Array.isArray(value)) {
    return Buffer.concat([control(TYPES.array, value.length), ...value.map(encode)]);
  }
  if ('uint64' in value && typeof value.uint64 === 'bigint') return unsigned(TYPES.uint64, value.uint64);
  const entries = Object.entries(value as Record<string, MmdbValue>);
  return Buffer.concat([
    control(TYPES.map, entries.length),
    ...entries.flatMap(([k, v]) => [encode(k), encode(v)]),
  ]);
}

type Slot = { kind: 'empty' } | { kind: 'node'; index: number } | { kind: 'data'; offset: number };

function networkBits(cidr: string, ipVersion: 4 | 6): { bytes: number[]; length: number } {
  const [addr, len] = ipaddr.parseCIDR(cidr);
  if (addr.kind() === 'ipv4') {
    if (ipVersion === 4) return { bytes: addr.toByteArray(), length: len };
    return { bytes: [...new Array<number>(12).fill(0), ...addr.toByteArray()], length: len + 96 };
  }
  if (ipVersion === 4) throw new Error(`${cidr}: an IPv6 network in an IPv4 database`);
  return { bytes: addr.toByteArray(), length: len };
}

/** The bytes of a database holding `networks`; a more specific network wins over a less specific one. */
export function writeMmdb(networks: readonly MmdbNetwork[], options: MmdbOptions): Buffer {
  const ipVersion = options.ipVersion ?? 6;
  const nodes: [Slot, Slot][] = [[{ kind: 'empty' }, { kind: 'empty' }]];
  const data: Buffer[] = [];
  let dataSize = 0;
  const sorted = [...networks].sort(
    (a, b) => networkBits(a.cidr, ipVersion).length - networkBits(b.cidr, ipVersion).length,
  );
  for (const network of sorted) {
    const { bytes, length } = networkBits(network.cidr, ipVersion);
    if (length === 0) throw new Error('a network of length 0 is not supported');
    const encoded = encode(network.data);
    const slot: Slot = { kind: 'data', offset: dataSize };
    data.push(encoded);
    dataSize += encoded.length;
    let node = 0;
    for (let depth = 0; depth < length; depth++) {
      const bit = ((bytes[depth >> 3]! >> (7 - (depth & 7))) & 1) as 0 | 1;
      const pair = nodes[node]!;
      if (depth === length - 1) {
        pair[bit] = slot;
        break;
      }
      const next = pair[bit];
      if (next.kind === 'node') {
        node = next.index;
        continue;
      }
      // Empty, or a less specific network: a new node whose both halves keep what was there.
      nodes.push([next, next]);
      pair[bit] = { kind: 'node', index: nodes.length - 1 };
      node = nodes.length - 1;
    }
  }
  const nodeCount = nodes.length;
  const record = (s: Slot): number =>
    s.kind === 'node' ? s.index : s.kind === 'empty' ? nodeCount : nodeCount + 16 + s.offset;
  const tree = Buffer.alloc(nodeCount * 6);
  nodes.forEach(([left, right], i) => {
    tree.writeUIntBE(record(left), i * 6, 3);
    tree.writeUIntBE(record(right), i * 6 + 3, 3);
  });
  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: ipVersion,
    database_type: options.databaseType,
    languages: [...(options.languages ?? ['en'])],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: uint64(Math.floor((options.buildEpoch ?? new Date()).getTime() / 1000)),
    description: { en: options.description ?? `${options.databaseType} test database` },
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...data,
    Buffer.from('abcdef4d61784d696e642e636f6d', 'hex'),
    metadata,
  ]);
}
