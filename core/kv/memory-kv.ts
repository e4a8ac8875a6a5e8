import { checkIncrementBy, checkTtl, type KvStore, nextCounter } from './kv.js';

interface Entry {
  value: string;
  /** Epoch ms; null never expires. */
  expiresAt: number | null;
}

export interface MemoryKvOptions {
  /** Clock in epoch ms (tests advance it by hand). */
  now?: () => number;
  /** How often, at most, a write scans for expired entries. */
  sweepIntervalMs?: number;
}

/**
 * Single-process store for the embedded profile and tests. Expired entries read as absent at once (lazy expiry);
 * keys nobody reads again are dropped by a sweep that writes trigger at most once per interval, so memory stays
 * bounded by what was written within about one interval plus the live keys. JavaScript runs one call at a time
 * and no method awaits between its read and its write, so every operation is atomic.
 */
export class MemoryKvStore implements KvStore {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly sweepIntervalMs: number;
  private lastSweep: number;

  constructor(options: MemoryKvOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 30_000;
    this.lastSweep = this.now();
  }

  /** Entries held, expired ones not yet swept included (for tests and metrics). */
  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkTtl(ttlMs);
    this.write(key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean> {
    checkTtl(ttlMs);
    if (this.live(key)) return false;
    this.write(key, value, ttlMs);
    return true;
  }

  async increment(key: string, by = 1, ttlMs?: number): Promise<number> {
    checkIncrementBy(by);
    checkTtl(ttlMs);
    const entry = this.live(key);
    const next = nextCounter(key, entry?.value ?? null, by);
    if (entry) entry.value = String(next);
    else this.write(key, String(next), ttlMs);
    return next;
  }

  async delete(key: string): Promise<boolean> {
    const existed = this.live(key) !== undefined;
    this.entries.delete(key);
    return existed;
  }

  async ttl(key: string): Promise<number | null> {
    const expiresAt = this.live(key)?.expiresAt ?? null;
    return expiresAt === null ? null : expiresAt - this.now();
  }

  async close(): Promise<void> {
    this.entries.clear();
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt != null && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, value: string, ttlMs: number | undefined): void {
    this.sweepIfDue();
    this.entries.set(key, { value, expiresAt: ttlMs === undefined ? null : this.now() + ttlMs });
  }

  private sweepIfDue(): void {
    const now = this.now();
    if (now - this.lastSweep < this.sweepIntervalMs) return;
    this.lastSweep = now;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
