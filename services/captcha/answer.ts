import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Characters a reader cannot confuse once the image is distorted: no 0/O, no 1/I/L (l), and the answer is
 * compared case-insensitively, so only upper-case forms exist.
 */
export const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A uniformly random answer of `length` characters (crypto-grade: the answer is the secret). */
export function randomAnswer(length: number, pick: (n: number) => number = randomInt): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[pick(ALPHABET.length)];
  return out;
}

/** What the user typed, as compared: white space dropped, upper case. */
export const normalizeAnswer = (answer: string): string => answer.replace(/\s+/g, '').toUpperCase();

/**
 * SHA-256 over the challenge id and the normalized answer. Unkeyed on purpose: every gateway must check what
 * any other issued, with nothing shared but the kv store. The id works as a salt; the hash keeps answers out
 * of the store's plain view, not away from someone who can read the store (who could brute-force 31^6).
 */
export function answerHash(challengeId: string, answer: string): string {
  return createHash('sha256')
    .update(`${challengeId}:${normalizeAnswer(answer)}`)
    .digest('hex');
}

/** Constant-time comparison of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
