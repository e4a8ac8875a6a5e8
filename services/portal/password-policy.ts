import { readFileSync } from 'node:fs';
import { AppError } from '../../core/errors/catalogue.js';

/** DESIGN.md section 7, Passwords. Counted in characters (code points), as a person counts them. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * The breach corpus as the password policy sees it. The bundled list below stands in until the password-breach
 * service exists; that service then implements this interface over its full corpus.
 */
export interface BreachedPasswords {
  isBreached(password: string): Promise<boolean>;
}

/**
 * A set of known passwords held in memory. The bundled `common-passwords.txt` holds a few hundred of the most
 * used passwords from the public "most common passwords" lists, only those of 8 characters or more (shorter ones
 * fail the length rule anyway), one per line. A password matches as written and in lower case, so `PASSWORD123`
 * counts as breached like `password123`.
 */
export class CommonPasswordList implements BreachedPasswords {
  private readonly passwords: ReadonlySet<string>;

  constructor(passwords: Iterable<string>) {
    this.passwords = new Set(passwords);
  }

  /** One password per line; blank lines ignored. */
  static fromFile(
    file: string | URL = new URL('./common-passwords.txt', import.meta.url),
  ): CommonPasswordList {
    return new CommonPasswordList(
      readFileSync(file, 'utf8')
        .split(/\r?\n/)
        .filter((line) => line.length > 0),
    );
  }

  get size(): number {
    return this.passwords.size;
  }

  async isBreached(password: string): Promise<boolean> {
    return this.passwords.has(password) || this.passwords.has(password.toLowerCase());
  }
}

let bundled: CommonPasswordList | null = null;

/** The bundled list, read once. */
export function bundledBreachedPasswords(): CommonPasswordList {
  bundled ??= CommonPasswordList.fromFile();
  return bundled;
}

export const passwordLength = (password: string): number => [...password].length;

/** Throws VALIDATION_ERROR `password: …` unless the password may be used. Never echoes the password. */
export async function checkPassword(password: unknown, breached: BreachedPasswords): Promise<void> {
  if (typeof password !== 'string') throw new AppError('VALIDATION_ERROR', 'password: must not be blank');
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw new AppError(
      'VALIDATION_ERROR',
      `password: must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
    );
  }
  if (await breached.isBreached(password)) {
    throw new AppError('VALIDATION_ERROR', 'password: appears in a list of breached passwords');
  }
}
