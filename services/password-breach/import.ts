import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { CorpusFileWriter } from './corpus-writer.js';
import { HashLineParser } from './hash-lines.js';

/** The shortest line that carries a hash: 40 hex digits, a colon, one digit, LF. */
const MIN_LINE = 43;
const READ_CHUNK = 1024 * 1024;

export interface ImportProgress {
  readonly bytesRead: number;
  /** Null when the input's size is unknown (standard input). */
  readonly totalBytes: number | null;
  readonly lines: number;
  readonly entries: number;
  readonly elapsedMs: number;
}

export interface ImportOptions {
  /** A file of `SHA1:COUNT` lines, or a stream of them (then `totalBytes` tells its size, when known). */
  readonly input: string | Readable;
  readonly totalBytes?: number;
  /** The corpus file to write (replaced atomically). */
  readonly output: string;
  /** Recorded in the header; default: the input file's name. */
  readonly source?: string;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Minimum time between progress reports (default 200 ms); a last report always follows the end. */
  readonly progressIntervalMs?: number;
  readonly now?: () => Date;
}

export interface ImportResult {
  readonly entries: number;
  readonly lines: number;
  readonly bytesRead: number;
  readonly elapsedMs: number;
}

/**
 * Streams the published Pwned Passwords dataset (ordered by hash) into a corpus file: one pass, constant
 * memory whatever the input size (about 12 MiB of buffers plus one read chunk). A refused line aborts the
 * import and leaves any existing corpus file untouched.
 */
export async function importHashes(options: ImportOptions): Promise<ImportResult> {
  const fromFile = typeof options.input === 'string';
  const totalBytes = fromFile ? (await stat(options.input as string)).size : (options.totalBytes ?? null);
  const input =
    typeof options.input === 'string'
      ? createReadStream(options.input, { highWaterMark: READ_CHUNK })
      : options.input;
  const started = performance.now();
  const writer = await CorpusFileWriter.create(options.output);
  const parser = new HashLineParser((hash, count) => writer.add(hash, count));
  const interval = options.progressIntervalMs ?? 200;
  let bytesRead = 0;
  let lastReport = started;
  const report = () =>
    options.onProgress?.({
      bytesRead,
      totalBytes,
      lines: parser.lines,
      entries: parser.entries,
      elapsedMs: performance.now() - started,
    });
  try {
    for await (const data of input) {
      const chunk = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
      if (!writer.hasRoomFor(Math.ceil(chunk.length / MIN_LINE) + 1)) await writer.flush();
      if (!writer.hasRoomFor(Math.ceil(chunk.length / MIN_LINE) + 1)) {
        // A chunk larger than the record buffer: parse it in slices (streams given by callers may do this).
        for (let at = 0; at < chunk.length; at += READ_CHUNK) {
          parser.push(chunk.subarray(at, at + READ_CHUNK));
          await writer.flush();
        }
      } else {
        parser.push(chunk);
      }
      bytesRead += chunk.length;
      const now = performance.now();
      if (now - lastReport >= interval) {
        lastReport = now;
        report();
      }
    }
    parser.end();
    await writer.commit({
      source: options.source ?? (fromFile ? basename(options.input as string) : 'standard input'),
      builtAt: options.now?.() ?? new Date(),
    });
  } catch (err) {
    input.destroy();
    await writer.abort();
    throw err;
  }
  report();
  return { entries: parser.entries, lines: parser.lines, bytesRead, elapsedMs: performance.now() - started };
}
