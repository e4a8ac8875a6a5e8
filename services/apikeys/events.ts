/**
 * Payload types of the `apikey-<keyId>` streams; the JSON Schemas in schemas/events/apikeys/ are the
 * contract.
 */

/**
 * A key was issued. Only the SHA-256 of the full key is recorded; the key itself is shown once and forgotten.
 */
export interface ApiKeyCreated {
  readonly keyId: string;
  readonly accountId: string;
  readonly name: string;
  /** Service slugs (DESIGN.md section 8), or exactly `['*']` for every service. */
  readonly scopes: readonly string[];
  /** SHA-256 (hex) of the full key. */
  readonly keyHash: string;
  /** First 11 characters of the key (`tg_` + 8 of the key id), for recognising a key in a list. */
  readonly start: string;
  readonly expiresAt?: string;
}

export interface ApiKeyRevoked {
  readonly keyId: string;
  readonly accountId: string;
}

/** A new secret replaced the current one; the old hash keeps working until `previousValidUntil`. */
export interface ApiKeyRerolled {
  readonly keyId: string;
  readonly accountId: string;
  readonly keyHash: string;
  readonly start: string;
  readonly previousKeyHash: string;
  readonly previousValidUntil: string;
}

export type ApiKeyEvent =
  | { type: 'ApiKeyCreated'; data: ApiKeyCreated }
  | { type: 'ApiKeyRevoked'; data: ApiKeyRevoked }
  | { type: 'ApiKeyRerolled'; data: ApiKeyRerolled };

/** Stream category: `apikey-<keyId>`; core/bus/topics.ts maps it to the `keys` context (topic). */
export const APIKEY_CATEGORY = 'apikey';
export const APIKEY_CONTEXT = 'keys';
