import type { BreachCorpus } from './corpus.js';
import { sha1Hex } from './hashes.js';

/** Structurally the portal's `BreachedPasswords` (services may not import each other; cli/ wires the two). */
export interface BreachedPasswordCheck {
  isBreached(password: string): Promise<boolean>;
}

/**
 * The registration check over the corpus: a password is refused when it, or its lower-case form, has a count
 * (so `PASSWORD123` is refused like `password123`, as the portal's own list did). Any `also` list refuses
 * too, for lists the corpus lacks. Only the hash is looked up; the password is neither kept nor logged.
 */
export function breachedPasswordsFrom(
  corpus: BreachCorpus,
  ...also: readonly BreachedPasswordCheck[]
): BreachedPasswordCheck {
  return {
    async isBreached(password: string): Promise<boolean> {
      if ((await corpus.count(sha1Hex(password))) > 0) return true;
      const lower = password.toLowerCase();
      if (lower !== password && (await corpus.count(sha1Hex(lower))) > 0) return true;
      for (const other of also) if (await other.isBreached(password)) return true;
      return false;
    },
  };
}
