/**
 * Ephemeral key/value state with expiry (dedupe windows, challenges, throttles, caches).
 * Adapters: memory and SQLite (embedded), Redis (cluster). One contract suite runs against all of them.
 * Values are strings; callers serialise. TTLs are in milliseconds; an expired key reads as absent.
 * A TTL, when given, is a positive safe integer and `by` a safe integer: anything else is refused (RangeError),
 * because Redis refuses it and the embedded adapters must not quietly accept what the cluster would reject.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  /** `ttlMs` omitted: the key never expires. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** Sets only when absent (atomically across processes); returns whether it was set. */
  setIfAbsent(key: string, value: string, ttlMs?: number): Promise<boolean>;
  /**
   * Atomically adds `by` (default 1) to an integer value, creating it at 0; a new key gets `ttlMs`. Returns the new value.
   * An existing key keeps its expiry (later calls' `ttlMs` is ignored); a non-integer value is refused.
   */
  increment(key: string, by?: number, ttlMs?: number): Promise<number>;
  delete(key: string): Promise<boolean>;
  /** Remaining lifetime in ms; null when the key is absent or has no expiry. */
  ttl(key: string): Promise<number | null>;
  close(): Promise<void>;
}

/** Argument checks shared by the adapters, so all of them refuse the same calls. */
export function checkTtl(ttlMs: number | undefined): void {
  if (ttlMs === undefined) return;
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`kv: ttlMs must be a positive integer of milliseconds, got ${ttlMs}`);
  }
}

export function checkIncrementBy(by: number): void {
  if (!Number.isSafeInteger(by)) throw new RangeError(`kv: increment must be a safe integer, got ${by}`);
}

/** The value after adding `by` to a stored counter (absent: 0); the message matches Redis's for the same mistake. */
export function nextCounter(key: string, stored: string | null, by: number): number {
  const current = stored === null ? 0 : Number(stored);
  const next = current + by;
  if (
    (stored !== null && !/^-?\d+$/.test(stored)) ||
    !Number.isSafeInteger(current) ||
    !Number.isSafeInteger(next)
  ) {
    throw new Error(`kv: value of ${JSON.stringify(key)} is not an integer or out of range`);
  }
  return next;
}
