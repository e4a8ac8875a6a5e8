import { cidrToRange, type IpRange } from './ip-number.js';

export interface ParsedFeed {
  readonly ranges: IpRange[];
  /** Lines that held something but no address or range (reported by the importer, never fatal). */
  readonly skipped: number;
}

/**
 * One parser for the three formats feeds come in; they differ only in comments and extra columns:
 * - plain IP lists and the Tor bulk exit list: one address per line;
 * - FireHOL netsets: addresses and CIDR ranges, `#` comments;
 * - Spamhaus DROP/EDROP: `1.10.16.0/20 ; SBL256894`, `;` comments;
 * - Tor's `exit-addresses` document: `ExitAddress 1.2.3.4 2024-01-01 00:00:00` lines, other lines ignored.
 * Special-purpose ranges are kept: a feed that lists them harms nothing, since such input never gets a verdict.
 */
export function parseFeed(text: string): ParsedFeed {
  const ranges: IpRange[] = [];
  let skipped = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/[#;].*$/, '').trim();
    if (line === '') continue;
    const tokens = line.split(/[\s,]+/);
    let token = tokens[0]!;
    if (token === 'ExitAddress') token = tokens[1] ?? '';
    else if (/^[A-Z][A-Za-z]+$/.test(token)) continue; // other keywords of exit-addresses
    const range = cidrToRange(token);
    if (range) ranges.push(range);
    else skipped++;
  }
  return { ranges, skipped };
}
