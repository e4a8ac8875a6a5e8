/**
 * A small time-bounded cache for per-request lookups (API keys, account plans). Entries live at most `ttlMs`, so a
 * revoked key or a changed plan is seen within that bound; concurrent misses for one key share one load.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > t) return hit.value;
    if (this.entries.size >= this.maxEntries) this.evict(t);
    const value = load();
    this.entries.set(key, { value, expires: t + this.ttlMs });
    // A failed load is not remembered.
    value.catch(() => this.entries.delete(key));
    return value;
  }

  private evict(t: number): void {
    for (const [k, e] of this.entries) if (e.expires <= t) this.entries.delete(k);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
  }
}
