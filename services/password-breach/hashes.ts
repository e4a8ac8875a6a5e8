import { createHash } from 'node:crypto';

/** A SHA-1 hash is 40 hex digits; the range API splits it into a 5-digit prefix and a 35-digit suffix. */
export const PREFIX_DIGITS = 5;
export const SUFFIX_DIGITS = 35;
export const HASH_DIGITS = PREFIX_DIGITS + SUFFIX_DIGITS;
/** 16^5 prefixes. */
export const PREFIX_COUNT = 0x100000;

const PREFIX = /^[0-9A-Fa-f]{5}$/;
const SHA1 = /^[0-9A-Fa-f]{40}$/;

/** Upper-case hex SHA-1 of the UTF-8 bytes, as Have I Been Pwned hashes passwords. */
export const sha1Hex = (password: string): string =>
  createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();

/** `5baa6` → 0x5BAA6; null unless exactly five hex digits (either case). */
export function parsePrefix(text: string): number | null {
  return PREFIX.test(text) ? Number.parseInt(text, 16) : null;
}

/** The 20 bytes of a 40-hex-digit hash (either case); null if it is not one. */
export function parseSha1(text: string): Buffer | null {
  return SHA1.test(text) ? Buffer.from(text, 'hex') : null;
}

export const formatPrefix = (prefix: number): string =>
  prefix.toString(16).toUpperCase().padStart(PREFIX_DIGITS, '0');

/** The value of each ASCII hex digit, -1 for every other byte: the importer's hot loop reads this table. */
export const HEX_VALUE: Int8Array = (() => {
  const table = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) table[0x30 + i] = i;
  for (let i = 0; i < 6; i++) {
    table[0x41 + i] = 10 + i;
    table[0x61 + i] = 10 + i;
  }
  return table;
})();
