import type { AsnTableBuilder, Words } from './asn-table.js';

/**
 * Reads the numeric CSV form of @ip-location-db/asn (`asn-ipv4-num.csv`, `asn-ipv6-num.csv`):
 * `range_start,range_end,as_number,as_organization`, both ends inclusive and decimal (IPv6 up to 39 digits),
 * the organization optionally quoted with `""` escapes, UTF-8, LF or CRLF. Bytes are scanned directly: no
 * line array, no BigInt, and each organization name is a fresh string (not a slice pinning the whole file).
 *
 * The 32 MB of the two files take about 0.5–1 s; the work yields to the event loop every ROWS_PER_SLICE rows
 * (a few milliseconds each), so other requests are served while the first lookup waits for it.
 */
const ROWS_PER_SLICE = 2_048;
const NL = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const TWO_32 = 2 ** 32;

/** Decimal digits `buf[from..to)` as a number below 2^32, or null. */
export function decimalU32(buf: Buffer, from: number, to: number): number | null {
  if (to <= from || to - from > 10) return null;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = buf[i]! - 48;
    if (d < 0 || d > 9) return null;
    n = n * 10 + d;
  }
  return n < TWO_32 ? n : null;
}

/** Decimal digits `buf[from..to)` as a 128-bit number in four 32-bit words, or null (not digits, too big). */
export function decimalWords(buf: Buffer, from: number, to: number): Words | null {
  if (to <= from || to - from > 39) return null;
  const w = [0, 0, 0, 0];
  for (let i = from; i < to; i++) {
    let carry = buf[i]! - 48;
    if (carry < 0 || carry > 9) return null;
    // Each step is at most (2^32 - 1) × 10 + 9 < 2^36: exact in a double.
    for (let k = 3; k >= 0; k--) {
      const v = w[k]! * 10 + carry;
      carry = Math.floor(v / TWO_32);
      w[k] = v - carry * TWO_32;
    }
    if (carry !== 0) return null;
  }
  return w as unknown as Words;
}

/** The organization field `buf[from..to)`: unquoted, `""` unescaped. */
function organization(buf: Buffer, from: number, to: number): string {
  if (to - from >= 2 && buf[from] === QUOTE && buf[to - 1] === QUOTE) {
    return buf.toString('utf8', from + 1, to - 1).replaceAll('""', '"');
  }
  return buf.toString('utf8', from, to);
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Adds every row of `buf` to `into` as `family` ranges; returns the number of rows. Throws on a bad row. */
export async function readAsnCsv(buf: Buffer, family: 4 | 6, into: AsnTableBuilder): Promise<number> {
  let pos = 0;
  let line = 0;
  let rows = 0;
  while (pos < buf.length) {
    line++;
    let end = buf.indexOf(NL, pos);
    if (end < 0) end = buf.length;
    const next = end + 1;
    if (end > pos && buf[end - 1] === CR) end--;
    if (end > pos) {
      const c1 = buf.indexOf(COMMA, pos);
      const c2 = c1 < 0 || c1 >= end ? -1 : buf.indexOf(COMMA, c1 + 1);
      const c3 = c2 < 0 || c2 >= end ? -1 : buf.indexOf(COMMA, c2 + 1);
      const asn = c3 < 0 || c3 >= end ? null : decimalU32(buf, c2 + 1, c3);
      if (asn === null) throw new Error(`ASN data: line ${line} is not start,end,asn,organization`);
      const org = organization(buf, c3 + 1, end);
      if (family === 4) {
        const start = decimalU32(buf, pos, c1);
        const last = decimalU32(buf, c1 + 1, c2);
        if (start === null || last === null) throw new Error(`ASN data: line ${line} has a bad IPv4 range`);
        into.addV4(start, last, asn, org);
      } else {
        const start = decimalWords(buf, pos, c1);
        const last = decimalWords(buf, c1 + 1, c2);
        if (!start || !last) throw new Error(`ASN data: line ${line} has a bad IPv6 range`);
        into.addV6(start, last, asn, org);
      }
      rows++;
      if (rows % ROWS_PER_SLICE === 0) await nextTick();
    }
    pos = next;
  }
  return rows;
}
