import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  encodeHeader,
  PrefixIndex,
  prefixOfHash,
  RECORD_SIZE,
  RECORDS_OFFSET,
  writeRecord,
} from './corpus-format.js';

const BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * Writes a corpus file from hashes given in ascending order, in constant memory (the 8 MiB index and a 4 MiB
 * record buffer). Records go to a temporary file beside the target; `commit` writes the index and header,
 * syncs and renames it over the target, so readers see the old corpus or the complete new one, never a
 * partial file.
 */
export class CorpusFileWriter {
  private readonly index = new PrefixIndex();
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private written = 0;
  private entries = 0;
  private prefix = -1;

  private constructor(
    private readonly fh: FileHandle,
    private readonly temp: string,
    private readonly target: string,
  ) {}

  static async create(target: string): Promise<CorpusFileWriter> {
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    return new CorpusFileWriter(await open(temp, 'wx'), temp, target);
  }

  get count(): number {
    return this.entries;
  }

  /** Room for `records` more records without a flush. */
  hasRoomFor(records: number): boolean {
    return this.used + records * RECORD_SIZE <= BUFFER_BYTES;
  }

  /** Synchronous: the caller checks `hasRoomFor` and flushes between input chunks. */
  add(hash: Uint8Array, count: number): void {
    const prefix = prefixOfHash(hash);
    if (prefix !== this.prefix) {
      this.index.startPrefix(prefix, this.entries);
      this.prefix = prefix;
    }
    writeRecord(this.buffer, this.used, hash, count);
    this.used += RECORD_SIZE;
    this.entries++;
  }

  async flush(): Promise<void> {
    await writeAll(this.fh, this.buffer.subarray(0, this.used), RECORDS_OFFSET + this.written);
    this.written += this.used;
    this.used = 0;
  }

  async commit(meta: { source: string; builtAt: Date }): Promise<void> {
    await this.flush();
    const head = Buffer.concat([
      encodeHeader({ entries: this.entries, builtAt: meta.builtAt, source: meta.source }),
      this.index.encode(this.entries),
    ]);
    await writeAll(this.fh, head, 0);
    // An empty corpus has no record to extend the file past the index.
    await this.fh.truncate(RECORDS_OFFSET + this.written);
    await this.fh.sync();
    await this.fh.close();
    await rename(this.temp, this.target);
    // The rename itself is durable once the directory is synced.
    const dir = await open(dirname(this.target), 'r');
    await dir.sync().finally(() => dir.close());
  }

  /** Drops the temporary file; the target is left as it was. */
  async abort(): Promise<void> {
    await this.fh.close().catch(() => {});
    await rm(this.temp, { force: true });
  }
}

async function writeAll(fh: FileHandle, data: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await fh.write(data, done, data.length - done, position + done);
    done += bytesWritten;
  }
}
