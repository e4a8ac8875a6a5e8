import { randomBytes } from 'node:crypto';
import type { KvStore } from '../../core/kv/kv.js';
import { answerHash, sameHash } from './answer.js';
import type { Scene } from './scene.js';

/** DESIGN.md section 7: a challenge may be answered for 5 minutes. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * The record outlives the challenge in the store, so a late attempt reads EXPIRED rather than NOT_FOUND; after
 * this it is gone and the id is as unknown as one never issued.
 */
export const RECORD_TTL_MS = 15 * 60_000;

export type Reason = 'WRONG_ANSWER' | 'EXPIRED' | 'ALREADY_USED' | 'NOT_FOUND';

export interface Verdict {
  readonly valid: boolean;
  readonly reason: Reason | null;
}

/** 128 random bits, base64url: the id is the only credential for the image, so it must not be guessable. */
export const newChallengeId = (): string => randomBytes(16).toString('base64url');
const ID_SHAPE = /^[A-Za-z0-9_-]{22}$/;

// Three keys per challenge: the answer's hash, the picture, and the attempt counter whose atomic increment
// decides which one attempt (across all gateways) gets to check the answer.
const recordKey = (id: string) => `captcha:${id}`;
const imageKey = (id: string) => `captcha:${id}:image`;
const usedKey = (id: string) => `captcha:${id}:used`;

interface StoredRecord {
  readonly hash: string;
  /** Epoch ms. */
  readonly expiresAt: number;
}

interface StoredImage {
  readonly expiresAt: number;
  readonly scene: Scene;
}

export async function storeChallenge(
  kv: KvStore,
  input: { id: string; answer: string; scene: Scene; expiresAt: number },
): Promise<void> {
  // The picture first: a record without its picture would be a challenge nobody can read.
  const image: StoredImage = { expiresAt: input.expiresAt, scene: input.scene };
  await kv.set(imageKey(input.id), JSON.stringify(image), CHALLENGE_TTL_MS);
  const record: StoredRecord = { hash: answerHash(input.id, input.answer), expiresAt: input.expiresAt };
  if (!(await kv.setIfAbsent(recordKey(input.id), JSON.stringify(record), RECORD_TTL_MS))) {
    throw new Error('captcha: challenge id collision');
  }
}

/**
 * One validation attempt. Every attempt on a known challenge consumes it, right or wrong, in time or not: the
 * first increment of the attempt counter wins, so of any number of simultaneous attempts exactly one is checked.
 */
export async function attempt(kv: KvStore, id: string, answer: string, now: Date): Promise<Verdict> {
  if (!ID_SHAPE.test(id)) return { valid: false, reason: 'NOT_FOUND' };
  const raw = await kv.get(recordKey(id));
  if (raw === null) return { valid: false, reason: 'NOT_FOUND' };
  const record = JSON.parse(raw) as StoredRecord;
  if ((await kv.increment(usedKey(id), 1, RECORD_TTL_MS)) !== 1)
    return { valid: false, reason: 'ALREADY_USED' };
  // The picture has served its purpose; dropping it is tidiness, not safety (the counter already decided).
  await kv.delete(imageKey(id));
  if (now.getTime() >= record.expiresAt) return { valid: false, reason: 'EXPIRED' };
  return sameHash(record.hash, answerHash(id, answer))
    ? { valid: true, reason: null }
    : { valid: false, reason: 'WRONG_ANSWER' };
}

/** The picture of a live, unanswered challenge; null when unknown, expired or already answered. */
export async function sceneOf(kv: KvStore, id: string, now: Date): Promise<Scene | null> {
  if (!ID_SHAPE.test(id)) return null;
  const raw = await kv.get(imageKey(id));
  if (raw === null) return null;
  const image = JSON.parse(raw) as StoredImage;
  return now.getTime() < image.expiresAt ? image.scene : null;
}
