import type { IpNumber, IpRange } from './ip-number.js';

/**
 * A feed's ranges, per family sorted and merged into disjoint intervals, so a lookup is one binary search
 * (a FireHOL level-1 set or a 100,000-address proxy list stays a few megabytes and answers in microseconds).
 */
export class RangeSet {
  private readonly starts: Record<4 | 6, bigint[]> = { 4: [], 6: [] };
  private readonly ends: Record<4 | 6, bigint[]> = { 4: [], 6: [] };

  constructor(ranges: Iterable<IpRange>) {
    const byFamily: Record<4 | 6, IpRange[]> = { 4: [], 6: [] };
    for (const r of ranges) byFamily[r.family].push(r);
    for (const family of [4, 6] as const) {
      const sorted = byFamily[family].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
      const starts = this.starts[family];
      const ends = this.ends[family];
      for (const r of sorted) {
        const last = ends.length - 1;
        if (last >= 0 && r.start <= ends[last]! + 1n) {
          if (r.end > ends[last]!) ends[last] = r.end;
        } else {
          starts.push(r.start);
          ends.push(r.end);
        }
      }
    }
  }

  /** Disjoint intervals held (after merging). */
  get size(): number {
    return this.starts[4].length + this.starts[6].length;
  }

  has(ip: IpNumber): boolean {
    const starts = this.starts[ip.family];
    const ends = this.ends[ip.family];
    let lo = 0;
    let hi = starts.length - 1;
    // The last interval starting at or before the address is the only one that can hold it.
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= ip.value) lo = mid + 1;
      else hi = mid - 1;
    }
    return hi >= 0 && ends[hi]! >= ip.value;
  }

  /** The merged intervals, for storage. */
  *intervals(): Generator<IpRange> {
    for (const family of [4, 6] as const) {
      const starts = this.starts[family];
      for (let i = 0; i < starts.length; i++) {
        yield { family, start: starts[i]!, end: this.ends[family][i]! };
      }
    }
  }
}
