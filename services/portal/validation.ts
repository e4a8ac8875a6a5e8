import { AppError } from '../../core/errors/catalogue.js';

const LOGIN = /^[A-Za-z0-9._@-]{1,50}$/;
/** The same rule as ajv-formats' `email` (full mode), which the gateway and the event schemas apply. */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const LANG_KEY = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/;

const invalid = (message: string) => new AppError('VALIDATION_ERROR', message);

/** Input rules of the account fields (SPEC.md 2.2), with `<field>: <constraint>` messages. */
export function requireLogin(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0) throw invalid('login: must not be blank');
  const login = value.trim();
  if (!LOGIN.test(login)) {
    throw invalid('login: must be 1 to 50 characters of letters, digits and . _ @ -');
  }
  return login;
}

export function requireEmail(value: unknown): string {
  if (typeof value !== 'string' || value.trim().length === 0) throw invalid('email: must not be blank');
  const email = value.trim();
  if (email.length > 254 || !EMAIL.test(email)) throw invalid('email: must be a well-formed email address');
  return email;
}

export function optionalLangKey(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !LANG_KEY.test(value)) {
    throw invalid('langKey: must be a language code such as en');
  }
  return value;
}
