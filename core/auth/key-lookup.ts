/**
 * The port the gateway authenticates API keys with (DESIGN.md section 4: SHA-256 of the presented key →
 * lookup). Adapters: SQL over the `apikeys` read model (embedded) and Redis fed by its own projector
 * (cluster), both in projections/apikeys/. A lookup never sees a key, only its hash.
 */
export interface KeyRecord {
  readonly keyId: string;
  readonly accountId: string;
  /** Service slugs, or `['*']`. */
  readonly scopes: readonly string[];
  /** ISO-8601 UTC; null when the key never expires. */
  readonly expiresAt: string | null;
  /** Revoked keys stay findable (until they expire), so a caller is told "revoked" rather than "unknown". */
  readonly revoked: boolean;
  /** Set on a rerolled-away old hash: it works until then. Null on the current hash. */
  readonly validUntil: string | null;
}

export interface KeyLookup {
  /** The record of the key whose SHA-256 (hex) is `keyHash`, or null when no such key was ever issued. */
  find(keyHash: string): Promise<KeyRecord | null>;
}

/** Why a found key may not be used now, or null when it may. */
export type KeyRefusal = 'revoked' | 'expired' | 'rotated';

export function keyRefusal(record: KeyRecord, now: Date): KeyRefusal | null {
  const t = now.getTime();
  // Written as !(bound > t) so that an unparseable date counts as passed: a damaged record fails closed.
  if (record.revoked) return 'revoked';
  if (record.expiresAt !== null && !(Date.parse(record.expiresAt) > t)) return 'expired';
  if (record.validUntil !== null && !(Date.parse(record.validUntil) > t)) return 'rotated';
  return null;
}

/**
 * Usable at `now`: not revoked, not expired, and (for an old hash) inside its overlap. Bounds are exclusive.
 */
export const keyUsable = (record: KeyRecord, now: Date): boolean => keyRefusal(record, now) === null;
