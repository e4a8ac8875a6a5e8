import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bundledBreachedPasswords,
  CommonPasswordList,
  checkPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './password-policy.js';

const none = new CommonPasswordList([]);
const LENGTH = 'password: must be 8 to 128 characters';
const BREACHED = 'password: appears in a list of breached passwords';

describe('password policy', () => {
  it('accepts 8 to 128 characters, counted as a person counts them', async () => {
    expect([PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH]).toEqual([8, 128]);
    await expect(checkPassword('a'.repeat(8), none)).resolves.toBeUndefined();
    await expect(checkPassword('a'.repeat(128), none)).resolves.toBeUndefined();
    // Eight emoji are 16 UTF-16 units but eight characters; 128 of them are still allowed.
    await expect(checkPassword('🔑'.repeat(8), none)).resolves.toBeUndefined();
    await expect(checkPassword('🔑'.repeat(128), none)).resolves.toBeUndefined();
  });

  it('refuses shorter and longer passwords with the catalogue message', async () => {
    for (const p of ['', 'a'.repeat(7), '🔑'.repeat(7), 'a'.repeat(129), '🔑'.repeat(129)]) {
      await expect(checkPassword(p, none)).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        message: LENGTH,
      });
    }
    await expect(checkPassword(undefined, none)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(checkPassword(12345678, none)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('refuses a breached password as written and in any case, without echoing it', async () => {
    const list = new CommonPasswordList(['password123', 'Secret-Sauce-42']);
    for (const p of ['password123', 'PASSWORD123', 'Password123', 'Secret-Sauce-42']) {
      const err = await checkPassword(p, list).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'VALIDATION_ERROR', message: BREACHED });
      expect(JSON.stringify({ ...(err as object), message: (err as Error).message })).not.toContain(p);
    }
    await expect(checkPassword('password1234', list)).resolves.toBeUndefined();
  });

  it('bundles a few hundred common passwords that the length rule alone would let through', async () => {
    const bundled = bundledBreachedPasswords();
    expect(bundled).toBe(bundledBreachedPasswords());
    expect(bundled.size).toBeGreaterThanOrEqual(300);
    for (const p of [
      'password',
      '12345678',
      'qwertyuiop',
      'iloveyou',
      'password1',
      'P@ssw0rd',
      'Qwerty123!',
    ]) {
      expect(await bundled.isBreached(p)).toBe(true);
      await expect(checkPassword(p, bundled)).rejects.toMatchObject({ message: BREACHED });
    }
    expect(await bundled.isBreached('correct horse battery staple')).toBe(false);
  });

  it('has a clean bundled file: one per line, no duplicates, all within the length rule', () => {
    const file = CommonPasswordList.fromFile();
    const lines = readBundled();
    expect(lines.length).toBe(file.size);
    expect(new Set(lines).size).toBe(lines.length);
    for (const line of lines) {
      expect(line).toBe(line.trim());
      expect([...line].length).toBeGreaterThanOrEqual(8);
      expect([...line].length).toBeLessThanOrEqual(128);
    }
  });
});

function readBundled(): string[] {
  return readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
}
