import { describe, expect, it } from 'vitest';
import { breachedPasswordsFrom } from './breached-passwords.js';
import { memoryCorpus } from './corpus.js';
import { sha1Hex } from './hashes.js';

const corpus = memoryCorpus(
  [
    { sha1: sha1Hex('password123'), count: 100 },
    { sha1: sha1Hex('Summer2024'), count: 5 },
    { sha1: sha1Hex('zero-count'), count: 0 },
  ],
  { source: 'test' },
);

describe('breachedPasswordsFrom', () => {
  it('refuses a password in the corpus, as written or in lower case', async () => {
    const check = breachedPasswordsFrom(corpus);
    expect(await check.isBreached('password123')).toBe(true);
    expect(await check.isBreached('PASSWORD123')).toBe(true);
    expect(await check.isBreached('Password123')).toBe(true);
    expect(await check.isBreached('Summer2024')).toBe(true);
    // Only lower-casing is tried: "summer2024" is not the hash the corpus holds.
    expect(await check.isBreached('summer2024')).toBe(false);
    expect(await check.isBreached('password1234')).toBe(false);
    expect(await check.isBreached('zero-count')).toBe(false);
  });

  it('also refuses what any extra list refuses', async () => {
    const extra = { isBreached: async (p: string) => p === 'Qwerty123!' };
    expect(await breachedPasswordsFrom(corpus).isBreached('Qwerty123!')).toBe(false);
    expect(await breachedPasswordsFrom(corpus, extra).isBreached('Qwerty123!')).toBe(true);
    expect(await breachedPasswordsFrom(corpus, extra).isBreached('password123')).toBe(true);
    expect(await breachedPasswordsFrom(corpus, extra).isBreached('Tg-unique-9f8e7d')).toBe(false);
  });
});
