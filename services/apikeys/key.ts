import { createHash, randomBytes } from 'node:crypto';

/**
 * API key format (DESIGN.md section 6): `tg_<keyId>_<secret>`. The key id (16 base62 characters, ~95 bits)
 * names the key in URLs and events; the secret (43 base62 characters, ~256 bits) is what makes the key
 * unguessable. Base62 only, so a double click selects the whole key and no URL or header escaping is ever
 * needed.
 */
export const KEY_PREFIX = 'tg_';
export const KEY_ID_LENGTH = 16;
/** 43 × log2(62) ≈ 256.03 bits: at least as strong as 32 random bytes. */
export const SECRET_LENGTH = 43;
/** `tg_` + 8 characters of the key id: enough to tell keys apart in a list, nothing of the secret. */
export const START_LENGTH = 11;
export const KEY_LENGTH = KEY_PREFIX.length + KEY_ID_LENGTH + 1 + SECRET_LENGTH;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_ID = /^[0-9A-Za-z]{16}$/;
const FULL_KEY = /^tg_([0-9A-Za-z]{16})_([0-9A-Za-z]{43})$/;

/**
 * Uniform base62 characters: bytes ≥ 248 are rejected, since 256 is not a multiple of 62 and `% 62` would
 * bias.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const newKeyId = (): string => randomBase62(KEY_ID_LENGTH);

export const isKeyId = (value: unknown): value is string => typeof value === 'string' && KEY_ID.test(value);

/** A fresh key for `keyId`, with everything the events record about it (never the key itself). */
export function generateKey(keyId: string): { key: string; keyHash: string; start: string } {
  if (!isKeyId(keyId)) throw new Error('generateKey: invalid key id');
  const key = `${KEY_PREFIX}${keyId}_${randomBase62(SECRET_LENGTH)}`;
  return { key, keyHash: hashKey(key), start: key.slice(0, START_LENGTH) };
}

/** SHA-256 hex of the full key, exactly as presented: the only form in which a key is stored or looked up. */
export const hashKey = (fullKey: string): string => createHash('sha256').update(fullKey).digest('hex');

/**
 * Splits a presented key, or returns null when it cannot be one of ours. The length check comes first, so
 * junk of any size is refused in constant time before a regular expression or a hash ever sees it.
 */
export function parseKey(presented: unknown): { keyId: string; secret: string } | null {
  if (typeof presented !== 'string' || presented.length !== KEY_LENGTH) return null;
  const m = FULL_KEY.exec(presented);
  return m ? { keyId: m[1]!, secret: m[2]! } : null;
}
