import { HEX_VALUE } from './hashes.js';

const NL = 10;
const CR = 13;
const COLON = 58;
const ZERO = 48;
const MAX_COUNT = 0xffffffff;
/** Longest valid line: a BOM, 40 hex digits, a colon, 10 digits, CR LF. Longer is refused, not buffered. */
const MAX_LINE = 56;

/** A line the importer refuses. The message names the line number and the rule, never the line's content. */
export class HashLineError extends Error {
  override readonly name = 'HashLineError';

  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** Receives each hash (20 bytes, reused: copy what you keep) with its count, in input order. */
export type HashSink = (hash: Uint8Array, count: number) => void;

/**
 * Parses the published Pwned Passwords text format, `SHA1:COUNT` per line (hex in either case, LF or CRLF,
 * blank lines and a leading BOM ignored), from chunks of any size, in constant memory. Hashes must be
 * strictly ascending, as in the dataset ordered by hash: anything else is refused rather than silently
 * mis-indexed.
 */
export class HashLineParser {
  /** Lines read so far, blank ones included. */
  lines = 0;
  /** Hashes passed to the sink. */
  entries = 0;
  private carry: Buffer | null = null;
  private prev = new Uint8Array(20);
  private cur = new Uint8Array(20);

  constructor(private readonly sink: HashSink) {}

  push(chunk: Buffer): void {
    let p = 0;
    if (this.carry) {
      const nl = chunk.indexOf(NL);
      if (nl === -1) {
        this.keep(Buffer.concat([this.carry, chunk]));
        return;
      }
      const joined = Buffer.concat([this.carry, chunk.subarray(0, nl + 1)]);
      this.carry = null;
      this.line(joined, 0);
      p = nl + 1;
    }
    const end = chunk.lastIndexOf(NL) + 1;
    while (p < end) p = this.line(chunk, p);
    if (p < chunk.length) this.keep(Buffer.from(chunk.subarray(p)));
  }

  /** The last line may lack its newline. */
  end(): void {
    if (!this.carry) return;
    const rest = Buffer.concat([this.carry, Buffer.of(NL)]);
    this.carry = null;
    this.line(rest, 0);
  }

  private keep(partial: Buffer): void {
    if (partial.length > MAX_LINE) {
      throw new HashLineError(
        this.lines + 1,
        'line too long: expected SHA1:COUNT (40 hex digits, a colon, a count)',
      );
    }
    this.carry = partial;
  }

  /** One line starting at `at`, known to end with LF within `buf`; returns where the next line starts. */
  private line(buf: Buffer, at: number): number {
    this.lines++;
    let p = at;
    if (this.lines === 1 && buf[p] === 0xef && buf[p + 1] === 0xbb && buf[p + 2] === 0xbf) p += 3;
    if (buf[p] === NL) return p + 1;
    if (buf[p] === CR && buf[p + 1] === NL) return p + 2;
    const cur = this.cur;
    // A non-hex byte (the LF at the latest) stops the loop before it can read past the line.
    for (let i = 0; i < 20; i++) {
      const hi = HEX_VALUE[buf[p + 2 * i]!]!;
      const lo = hi < 0 ? -1 : HEX_VALUE[buf[p + 2 * i + 1]!]!;
      if (lo < 0)
        return this.fail('expected SHA1:COUNT (a 40-digit hexadecimal SHA-1 hash, a colon, a count)');
      cur[i] = (hi << 4) | lo;
    }
    let q = p + 40;
    if (buf[q] !== COLON)
      return this.fail('expected SHA1:COUNT (a 40-digit hexadecimal SHA-1 hash, a colon, a count)');
    q++;
    let count = 0;
    const digitsFrom = q;
    for (let d = buf[q]! - ZERO; d >= 0 && d <= 9; d = buf[q]! - ZERO) {
      count = count * 10 + d;
      q++;
    }
    if (q === digitsFrom || q - digitsFrom > 10 || count > MAX_COUNT) {
      return this.fail(`the count must be an integer from 0 to ${MAX_COUNT}`);
    }
    if (buf[q] === CR) q++;
    if (buf[q] !== NL) return this.fail('expected the line to end after the count');
    if (this.entries > 0) {
      const prev = this.prev;
      let i = 0;
      while (i < 20 && cur[i] === prev[i]) i++;
      if (i === 20) return this.fail('the same hash appears twice');
      if (cur[i]! < prev[i]!) {
        return this.fail(
          'hashes are not in ascending order: import the dataset ordered by hash, or sort it first',
        );
      }
    }
    this.sink(cur, count);
    this.entries++;
    this.cur = this.prev;
    this.prev = cur;
    return q + 1;
  }

  private fail(reason: string): never {
    throw new HashLineError(this.lines, reason);
  }
}
