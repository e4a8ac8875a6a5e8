/**
 * A deterministic stand-in for the published dataset: `total` sorted SHA1:COUNT lines (CRLF, as published),
 * spread evenly over the 16^5 prefixes. Each prefix's lines come from a generator seeded by the prefix, so a
 * test can recompute any prefix's entries without holding the dataset: `prefixEntries`. Every seventh prefix
 * is written in lower case, which the importer accepts.
 */
const PREFIXES = 0x100000;
const UPPER = Buffer.from('0123456789ABCDEF');
const LOWER = Buffer.from('0123456789abcdef');
/** Longest line: 40 hex digits, a colon, a count below 10^6, CRLF. */
const MAX_LINE = 40 + 1 + 6 + 2;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const linesIn = (prefix: number, total: number): number =>
  Math.floor(((prefix + 1) * total) / PREFIXES) - Math.floor((prefix * total) / PREFIXES);

/** Digits of a positive integer at `at` (a string per line would dominate the generator's time). */
function writeDecimal(out: Buffer, at: number, value: number): number {
  let digits = 1;
  for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
  let v = value;
  for (let i = digits - 1; i >= 0; i--) {
    out[at + i] = 0x30 + (v % 10);
    v = Math.floor(v / 10);
  }
  return at + digits;
}

/** Writes one prefix's lines at `at`; returns the new offset. */
function writePrefix(out: Buffer, at: number, prefix: number, total: number): number {
  const k = linesIn(prefix, total);
  if (k === 0) return at;
  const rand = mulberry32(Math.imul(prefix + 1, 0x9e3779b1));
  const hex = prefix % 7 === 3 ? LOWER : UPPER;
  const slot = Math.floor(4096 / k);
  let p = at;
  for (let j = 0; j < k; j++) {
    // Distinct, ascending leading 12 bits per slot keep the lines sorted without sorting them.
    const lead = j * slot + (rand() % slot);
    for (let s = 16; s >= 0; s -= 4) out[p++] = hex[(prefix >>> s) & 15]!;
    for (let s = 8; s >= 0; s -= 4) out[p++] = hex[(lead >>> s) & 15]!;
    for (let w = 0; w < 4; w++) {
      const r = rand();
      for (let s = 28; s >= 0; s -= 4) out[p++] = hex[(r >>> s) & 15]!;
    }
    out[p++] = 0x3a;
    p = writeDecimal(out, p, 1 + (rand() % 999_999));
    out[p++] = 0x0d;
    out[p++] = 0x0a;
  }
  return p;
}

/** The dataset as a stream of chunks of about `chunkBytes`, each a fresh buffer (safe to hand to a pipe). */
export function* datasetChunks(total: number, chunkBytes = 4 * 1024 * 1024): Generator<Buffer> {
  const maxPerPrefix = (Math.ceil(total / PREFIXES) + 1) * MAX_LINE;
  let out = Buffer.allocUnsafe(chunkBytes + maxPerPrefix);
  let used = 0;
  for (let prefix = 0; prefix < PREFIXES; prefix++) {
    used = writePrefix(out, used, prefix, total);
    if (used >= chunkBytes) {
      yield out.subarray(0, used);
      out = Buffer.allocUnsafe(chunkBytes + maxPerPrefix);
      used = 0;
    }
  }
  if (used > 0) yield out.subarray(0, used);
}

/** What the dataset holds for one prefix, as the range API should report it. */
export function prefixEntries(prefix: number, total: number): { suffix: string; count: number }[] {
  const out = Buffer.alloc((Math.ceil(total / PREFIXES) + 1) * MAX_LINE);
  const end = writePrefix(out, 0, prefix, total);
  return out
    .toString('latin1', 0, end)
    .split('\r\n')
    .filter(Boolean)
    .map((line) => {
      const [hash, count] = line.split(':') as [string, string];
      return { suffix: hash.slice(5).toUpperCase(), count: Number(count) };
    });
}
