import { type FileHandle, open } from 'node:fs/promises';
import {
  CorpusFormatError,
  decodeHeader,
  encodeHeader,
  HEADER_SIZE,
  INDEX_SIZE,
  indexEntry,
  PrefixIndex,
  prefixOfHash,
  RECORD_HASH_BYTES,
  RECORD_SIZE,
  RECORDS_OFFSET,
  recordCount,
  recordSuffix,
  writeRecord,
} from './corpus-format.js';
import { parsePrefix, parseSha1 } from './hashes.js';

export interface RangeEntry {
  /** 35 upper-case hex digits. */
  readonly suffix: string;
  readonly count: number;
}

export interface CorpusInfo {
  readonly source: string;
  readonly entries: number;
  /** ISO 8601 UTC. */
  readonly builtAt: string;
}

/** SHA-1 hashes of breached passwords with their occurrence counts. Never holds a password. */
export interface BreachCorpus {
  /** Entries whose hash starts with the 5 hex digits (either case), sorted by suffix. */
  range(prefix5: string): Promise<RangeEntry[]>;
  /** Occurrences of a 40-hex-digit SHA-1 (either case); 0 when absent. */
  count(sha1Hex: string): Promise<number>;
  info(): CorpusInfo;
  /** Releases the file, if any. */
  close(): Promise<void>;
}

interface ByteSource {
  read(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

class BinaryCorpus implements BreachCorpus {
  constructor(
    private readonly index: Buffer,
    private readonly records: ByteSource,
    private readonly header: { source: string; entries: number; builtAt: Date },
  ) {}

  async range(prefix5: string): Promise<RangeEntry[]> {
    const prefix = parsePrefix(prefix5);
    if (prefix === null) throw new RangeError('a hash prefix is 5 hexadecimal characters');
    const { buf, n } = await this.block(prefix);
    const entries: RangeEntry[] = new Array(n);
    for (let i = 0; i < n; i++) {
      entries[i] = { suffix: recordSuffix(buf, i * RECORD_SIZE), count: recordCount(buf, i * RECORD_SIZE) };
    }
    return entries;
  }

  async count(sha1Hex: string): Promise<number> {
    const hash = parseSha1(sha1Hex);
    if (!hash) throw new RangeError('a SHA-1 hash is 40 hexadecimal characters');
    const { buf, n } = await this.block(prefixOfHash(hash));
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = mid * RECORD_SIZE;
      const order = buf.compare(hash, 2, 20, at, at + RECORD_HASH_BYTES);
      if (order === 0) return recordCount(buf, at);
      if (order < 0) lo = mid + 1;
      else hi = mid;
    }
    return 0;
  }

  info(): CorpusInfo {
    const { source, entries, builtAt } = this.header;
    return { source, entries, builtAt: builtAt.toISOString() };
  }

  close(): Promise<void> {
    return this.records.close();
  }

  /** The records of one prefix: one read. */
  private async block(prefix: number): Promise<{ buf: Buffer; n: number }> {
    const start = indexEntry(this.index, prefix);
    const n = indexEntry(this.index, prefix + 1) - start;
    if (n === 0) return { buf: Buffer.alloc(0), n };
    const buf = await this.records.read(start * RECORD_SIZE, n * RECORD_SIZE);
    if (buf.length !== n * RECORD_SIZE) throw new CorpusFormatError('corpus file is truncated');
    return { buf, n };
  }
}

export interface CorpusEntry {
  /** 40 hex digits, either case. */
  readonly sha1: string;
  readonly count: number;
}

/** A corpus held in memory, in the file's format (the bundled default, and tests). */
export function memoryCorpus(
  entries: Iterable<CorpusEntry>,
  meta: { source: string; builtAt?: Date },
): BreachCorpus {
  const hashes: { hash: Buffer; count: number }[] = [];
  for (const e of entries) {
    const hash = parseSha1(e.sha1);
    if (!hash) throw new RangeError('a SHA-1 hash is 40 hexadecimal characters');
    if (!Number.isInteger(e.count) || e.count < 0 || e.count > 0xffffffff) {
      throw new RangeError('a count is an integer from 0 to 4294967295');
    }
    hashes.push({ hash, count: e.count });
  }
  hashes.sort((a, b) => a.hash.compare(b.hash));
  const unique = hashes.filter((h, i) => i === 0 || !h.hash.equals(hashes[i - 1]!.hash));
  const index = new PrefixIndex();
  const records = Buffer.alloc(unique.length * RECORD_SIZE);
  unique.forEach((h, i) => {
    index.startPrefix(prefixOfHash(h.hash), i);
    writeRecord(records, i * RECORD_SIZE, h.hash, h.count);
  });
  const header = { source: meta.source, entries: unique.length, builtAt: meta.builtAt ?? new Date() };
  // Through the header codec, so the in-memory corpus reports exactly what its file would.
  const decoded = decodeHeader(encodeHeader(header));
  return new BinaryCorpus(
    index.encode(unique.length),
    {
      read: async (position, length) => records.subarray(position, position + length),
      close: async () => {},
    },
    decoded,
  );
}

/** Opens a file written by the importer. The 8 MiB index is read once; every range is then one read. */
export async function openCorpusFile(file: string): Promise<BreachCorpus> {
  const fh = await open(file, 'r');
  try {
    const head = await readExactly(fh, 0, HEADER_SIZE + INDEX_SIZE);
    if (head.length < HEADER_SIZE + INDEX_SIZE)
      throw new CorpusFormatError('not a breach corpus file (too short)');
    const header = decodeHeader(head.subarray(0, HEADER_SIZE));
    const index = Buffer.from(head.subarray(HEADER_SIZE));
    const { size } = await fh.stat();
    if (indexEntry(index, 0) !== 0 || indexEntry(index, 0x100000) !== header.entries) {
      throw new CorpusFormatError('corpus index does not match its header');
    }
    if (size !== RECORDS_OFFSET + header.entries * RECORD_SIZE) {
      throw new CorpusFormatError('corpus file size does not match its header (truncated or damaged)');
    }
    return new BinaryCorpus(
      index,
      {
        read: (position, length) => readExactly(fh, RECORDS_OFFSET + position, length),
        close: () => fh.close(),
      },
      header,
    );
  } catch (err) {
    await fh.close();
    throw err;
  }
}

async function readExactly(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buf : buf.subarray(0, done);
}
