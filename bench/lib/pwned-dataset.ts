import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * A synthetic Pwned Passwords file (`SHA1:COUNT` lines, upper-case hex, sorted by hash, CRLF as published):
 * every 5-hex-digit prefix gets `perPrefix` hashes on average (1 or 2 when it is 1.5), random suffixes. The
 * real dataset holds about 900 per prefix; this one keeps the import and the disk small, and the range route's
 * cost per call is then its fixed part (lookup, block read, formatting), which is what the benchmark compares.
 */
export async function writePwnedDataset(
  file: string,
  perPrefix = 1.5,
): Promise<{ lines: number; bytes: number }> {
  const out = createWriteStream(file);
  let lines = 0;
  let bytes = 0;
  const extra = perPrefix - Math.floor(perPrefix);
  const pool = randomBytes(1 << 22);
  let at = 0;
  const take = (n: number): Buffer => {
    if (at + n > pool.length) {
      randomBytes(pool.length).copy(pool);
      at = 0;
    }
    at += n;
    return pool.subarray(at - n, at);
  };
  let chunk: string[] = [];
  for (let p = 0; p < 1 << 20; p++) {
    const prefix = p.toString(16).toUpperCase().padStart(5, '0');
    const k = Math.floor(perPrefix) + (take(1)[0]! / 256 < extra ? 1 : 0);
    const suffixes = Array.from({ length: k }, () => take(18).toString('hex').slice(0, 35).toUpperCase());
    suffixes.sort();
    for (let i = 0; i < suffixes.length; i++) {
      if (i > 0 && suffixes[i] === suffixes[i - 1]) continue;
      chunk.push(`${prefix}${suffixes[i]}:${1 + (take(2).readUInt16LE(0) % 5000)}\r\n`);
      lines++;
    }
    if (chunk.length >= 20_000) {
      const s = chunk.join('');
      bytes += s.length;
      if (!out.write(s)) await once(out, 'drain');
      chunk = [];
    }
  }
  const s = chunk.join('');
  bytes += s.length;
  out.end(s);
  await once(out, 'finish');
  return { lines, bytes };
}
