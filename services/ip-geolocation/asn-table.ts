/**
 * IP range → autonomous system, in memory: per family, parallel typed arrays of range starts, range ends, AS
 * numbers and organization indexes, sorted by start and searched by bisection. IPv6 addresses are four
 * unsigned 32-bit words (most significant first), so a lookup needs no BigInt. About 412,000 IPv4 and 103,000
 * IPv6 ranges take some 12 MB this way; organization names are stored once each.
 */
export interface AsnEntry {
  readonly asn: number;
  readonly org: string | null;
}

export type Words = readonly [number, number, number, number];

/** A growable Uint32Array: the builder does not know the row count in advance. */
class U32 {
  data = new Uint32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }

  done(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

interface Family {
  /** `width` words per address: 1 for IPv4, 4 for IPv6. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly asns: Uint32Array;
  readonly orgs: Uint32Array;
}

/** -1, 0 or 1 as address `i` of `table` (width words each) compares with `key`. */
function compareAt(table: Uint32Array, i: number, key: ArrayLike<number>, width: number): number {
  for (let w = 0; w < width; w++) {
    const a = table[i * width + w]!;
    const b = key[w]!;
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

export class AsnRangeTable {
  constructor(
    private readonly v4: Family,
    private readonly v6: Family,
    private readonly orgNames: readonly (string | null)[],
  ) {}

  get size(): { ipv4: number; ipv6: number; organizations: number } {
    return { ipv4: this.v4.asns.length, ipv6: this.v6.asns.length, organizations: this.orgNames.length };
  }

  lookupV4(value: number): AsnEntry | null {
    return this.find(this.v4, [value], 1);
  }

  lookupV6(words: Words): AsnEntry | null {
    return this.find(this.v6, words, 4);
  }

  /** The last range starting at or before `key`, if `key` is not past its end. */
  private find(f: Family, key: ArrayLike<number>, width: number): AsnEntry | null {
    let lo = 0;
    let hi = f.asns.length - 1;
    let hit = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compareAt(f.starts, mid, key, width) <= 0) {
        hit = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (hit < 0 || compareAt(f.ends, hit, key, width) < 0) return null;
    return { asn: f.asns[hit]!, org: this.orgNames[f.orgs[hit]!] ?? null };
  }
}

class FamilyBuilder {
  readonly starts = new U32();
  readonly ends = new U32();
  readonly asns = new U32();
  readonly orgs = new U32();
  sorted = true;

  constructor(readonly width: number) {}

  add(start: ArrayLike<number>, end: ArrayLike<number>, asn: number, org: number): void {
    const n = this.asns.length;
    if (n > 0 && this.sorted) {
      const prev = this.starts.data.subarray((n - 1) * this.width, n * this.width);
      if (compareAt(prev, 0, start, this.width) > 0) this.sorted = false;
    }
    for (let w = 0; w < this.width; w++) {
      this.starts.push(start[w]!);
      this.ends.push(end[w]!);
    }
    this.asns.push(asn);
    this.orgs.push(org);
  }

  build(): Family {
    const family = {
      starts: this.starts.done(),
      ends: this.ends.done(),
      asns: this.asns.done(),
      orgs: this.orgs.done(),
    };
    return this.sorted ? family : sortFamily(family, this.width);
  }
}

/** The published files are sorted; a hand-made or merged file may not be. */
function sortFamily(f: Family, width: number): Family {
  const order = Array.from({ length: f.asns.length }, (_, i) => i).sort((a, b) => {
    for (let w = 0; w < width; w++) {
      const d = f.starts[a * width + w]! - f.starts[b * width + w]!;
      if (d !== 0) return d;
    }
    return 0;
  });
  const pick = (src: Uint32Array, w: number) => {
    const out = new Uint32Array(src.length);
    order.forEach((from, to) => {
      out.set(src.subarray(from * w, from * w + w), to * w);
    });
    return out;
  };
  return {
    starts: pick(f.starts, width),
    ends: pick(f.ends, width),
    asns: pick(f.asns, 1),
    orgs: pick(f.orgs, 1),
  };
}

/**
 * Collects rows in any order; `build()` sorts when needed. AS number 0 ("not routed") is kept as no entry.
 */
export class AsnTableBuilder {
  private readonly v4 = new FamilyBuilder(1);
  private readonly v6 = new FamilyBuilder(4);
  private readonly orgIndex = new Map<string, number>();
  private readonly orgNames: (string | null)[] = [null];

  private org(name: string): number {
    if (name === '') return 0;
    let i = this.orgIndex.get(name);
    if (i === undefined) {
      i = this.orgNames.length;
      this.orgIndex.set(name, i);
      this.orgNames.push(name);
    }
    return i;
  }

  addV4(start: number, end: number, asn: number, org: string): void {
    if (asn === 0) return;
    this.v4.add([start], [end], asn, this.org(org));
  }

  addV6(start: Words, end: Words, asn: number, org: string): void {
    if (asn === 0) return;
    this.v6.add(start, end, asn, this.org(org));
  }

  build(): AsnRangeTable {
    return new AsnRangeTable(this.v4.build(), this.v6.build(), this.orgNames);
  }
}
