import { PREFIX_COUNT } from './hashes.js';

/**
 * The corpus file (README "Corpus file format"): a 256-byte header, an index of 16^5 + 1 big-endian uint64
 * record numbers (where each 5-hex-digit prefix starts; the last one is the entry count), then fixed-width
 * records sorted by hash. A range is therefore one contiguous read at a computed offset.
 */
export const MAGIC = 'TGBREACH';
export const FORMAT_VERSION = 1;
export const HEADER_SIZE = 256;
/** Hash bytes 2..19 (hex digits 5..40 with the fifth, already known from the index, in the first nibble). */
export const RECORD_HASH_BYTES = 18;
export const RECORD_SIZE = RECORD_HASH_BYTES + 4;
export const INDEX_ENTRIES = PREFIX_COUNT + 1;
export const INDEX_SIZE = INDEX_ENTRIES * 8;
export const RECORDS_OFFSET = HEADER_SIZE + INDEX_SIZE;
const SOURCE_OFFSET = 34;
export const MAX_SOURCE_BYTES = HEADER_SIZE - SOURCE_OFFSET;

export interface CorpusHeader {
  readonly entries: number;
  readonly builtAt: Date;
  /** Where the entries came from (a file name, the bundled list): never a password. */
  readonly source: string;
}

export class CorpusFormatError extends Error {
  override readonly name = 'CorpusFormatError';
}

export function encodeHeader(header: CorpusHeader): Buffer {
  const buf = Buffer.alloc(HEADER_SIZE);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32BE(FORMAT_VERSION, 8);
  buf.writeUInt32BE(RECORD_SIZE, 12);
  buf.writeBigUInt64BE(BigInt(header.entries), 16);
  buf.writeBigUInt64BE(BigInt(header.builtAt.getTime()), 24);
  const source = truncateUtf8(header.source, MAX_SOURCE_BYTES);
  buf.writeUInt16BE(source.length, 32);
  source.copy(buf, SOURCE_OFFSET);
  return buf;
}

export function decodeHeader(buf: Buffer): CorpusHeader {
  if (buf.length < HEADER_SIZE || buf.toString('latin1', 0, 8) !== MAGIC) {
    throw new CorpusFormatError('not a breach corpus file (bad magic)');
  }
  const version = buf.readUInt32BE(8);
  if (version !== FORMAT_VERSION) throw new CorpusFormatError(`unsupported corpus format version ${version}`);
  if (buf.readUInt32BE(12) !== RECORD_SIZE) throw new CorpusFormatError('unexpected record size');
  const sourceLength = Math.min(buf.readUInt16BE(32), MAX_SOURCE_BYTES);
  return {
    entries: Number(buf.readBigUInt64BE(16)),
    builtAt: new Date(Number(buf.readBigUInt64BE(24))),
    source: buf.toString('utf8', SOURCE_OFFSET, SOURCE_OFFSET + sourceLength),
  };
}

/** The bytes of `text` cut to at most `max`, never inside a character. */
function truncateUtf8(text: string, max: number): Buffer {
  let bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return bytes;
  let chars = [...text];
  while (bytes.length > max) {
    chars = chars.slice(0, -1);
    bytes = Buffer.from(chars.join(''), 'utf8');
  }
  return bytes;
}

/** Built while records arrive in hash order: O(1) per record, 8 MiB whatever the corpus size. */
export class PrefixIndex {
  private readonly starts = new Float64Array(INDEX_ENTRIES);
  private next = 0;

  /** Records from `record` on have prefixes ≥ `prefix`; prefixes must not decrease. */
  startPrefix(prefix: number, record: number): void {
    if (prefix < this.next - 1) throw new CorpusFormatError('records are not in ascending hash order');
    for (let p = this.next; p <= prefix; p++) this.starts[p] = record;
    if (prefix >= this.next) this.next = prefix + 1;
  }

  encode(total: number): Buffer {
    for (let p = this.next; p < INDEX_ENTRIES; p++) this.starts[p] = total;
    this.next = INDEX_ENTRIES;
    const buf = Buffer.allocUnsafe(INDEX_SIZE);
    for (let p = 0; p < INDEX_ENTRIES; p++) {
      // Two 32-bit halves: exact for any count below 2^53, without a BigInt per entry.
      const n = this.starts[p]!;
      buf.writeUInt32BE(Math.floor(n / 0x100000000), p * 8);
      buf.writeUInt32BE(n % 0x100000000, p * 8 + 4);
    }
    return buf;
  }
}

/** Record number where `prefix` starts, read from an encoded index. */
export function indexEntry(index: Buffer, prefix: number): number {
  return index.readUInt32BE(prefix * 8) * 0x100000000 + index.readUInt32BE(prefix * 8 + 4);
}

/** The 35 upper-case hex digits after the prefix, from a record at `offset`. */
export const recordSuffix = (records: Buffer, offset: number): string =>
  records
    .toString('hex', offset, offset + RECORD_HASH_BYTES)
    .slice(1)
    .toUpperCase();

export const recordCount = (records: Buffer, offset: number): number =>
  records.readUInt32BE(offset + RECORD_HASH_BYTES);

/** Writes the record of a 20-byte hash and its count at `offset`. */
export function writeRecord(out: Buffer, offset: number, hash: Uint8Array, count: number): void {
  for (let i = 0; i < RECORD_HASH_BYTES; i++) out[offset + i] = hash[2 + i]!;
  out.writeUInt32BE(count, offset + RECORD_HASH_BYTES);
}

export const prefixOfHash = (hash: Uint8Array): number =>
  (hash[0]! << 12) | (hash[1]! << 4) | (hash[2]! >> 4);
