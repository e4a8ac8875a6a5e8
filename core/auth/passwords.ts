import { type Algorithm, hash, type Options, parseOptions, verify } from '@node-rs/argon2';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first recommendation: 19 MiB, 2 passes, 1 lane.
 * `Algorithm` is an ambient const enum, which isolatedModules cannot read, hence the literal (2 = Argon2id).
 */
export const ARGON2_OPTIONS: Readonly<Options> = Object.freeze({
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
});

/** Returns a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`) with a fresh random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/**
 * True when `password` matches the PHC string. A malformed or foreign hash is a mismatch rather than an error,
 * so a corrupt row can never turn a login into a 500 that tells an attacker something the 401 would not.
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password nobody knows, made with ARGON2_OPTIONS. It is a constant, not computed at first
 * use, so that even the first login for an unknown account costs exactly one verification.
 */
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$Tb9xgR/l9JFFSc00hX5nJg$iVfhKelK+KbWbDXxSZcjOh+OzNiGKKimIdRNN7LQ7ME';

/**
 * Spends what `verifyPassword` spends and always answers false: call it when the account does not exist, so that
 * "unknown user" and "wrong password" take the same time and cannot be told apart.
 */
export async function dummyVerify(password: string): Promise<false> {
  await verifyPassword(DUMMY_HASH, password);
  return false;
}

/** True when a stored hash was made with other (older, weaker) parameters than today's and should be redone. */
export function needsRehash(passwordHash: string): boolean {
  try {
    const o = parseOptions(passwordHash);
    return (
      o.algorithm !== ARGON2_OPTIONS.algorithm ||
      o.memoryCost !== ARGON2_OPTIONS.memoryCost ||
      o.timeCost !== ARGON2_OPTIONS.timeCost ||
      o.parallelism !== ARGON2_OPTIONS.parallelism
    );
  } catch {
    return true;
  }
}

/** For tests: the parameters baked into the dummy hash must stay those of ARGON2_OPTIONS. */
export const dummyHashForTests = (): string => DUMMY_HASH;
