import { AppError } from '../../core/errors/catalogue.js';
import { reply, type ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import type { BreachCorpus } from './corpus.js';
import { parsePrefix, sha1Hex } from './hashes.js';
import { padRange, type Randomness, rangeBody, secureRandomness } from './range-body.js';

/** The batch route's own bound; the gateway applies the smaller of it and the plan's batch size. */
export const BATCH_MAX = 1000;

export interface PasswordBreachDeps {
  readonly corpus: BreachCorpus;
  /** Accepted like every service's clock; no response of this service carries a time. */
  readonly now?: () => Date;
  /** Padding suffixes and line totals; default: crypto-strong. */
  readonly random?: Randomness;
}

/** R body of the single check: SPEC.md 4.4. */
export interface PasswordCheck {
  readonly breached: boolean;
  readonly occurrences: number;
  readonly message: string;
}

export interface PasswordCheckBatch {
  readonly results: readonly {
    readonly index: number;
    readonly breached: boolean;
    readonly occurrences: number;
  }[];
}

const PREFIX_MESSAGE = 'hashPrefix: must be 5 hexadecimal characters';

export function checkMessage(occurrences: number): string {
  return occurrences > 0
    ? `This password appears in the breach corpus (${occurrences.toLocaleString('en-US')} ` +
        `occurrence${occurrences === 1 ? '' : 's'}): do not use it.`
    : 'This password does not appear in the breach corpus.';
}

/** `Add-Padding: true`, as Have I Been Pwned reads it (value case-insensitive). */
function wantsPadding(headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const value = headers['add-padding'];
  return typeof value === 'string' && value.trim().toLowerCase() === 'true';
}

const PRIVACY =
  'Only the SHA-1 hash of each password is looked up; passwords are never stored, logged or returned.';

export function createPasswordBreachService(deps: PasswordBreachDeps): ServiceDefinition {
  const { corpus } = deps;
  const random = deps.random ?? secureRandomness;
  const occurrences = (password: string) => corpus.count(sha1Hex(password));

  return {
    slug: 'password-breach',
    title: 'Password breach check',
    description:
      'Checks passwords against a corpus of breached-password hashes: single and batch checks, and the ' +
      'k-anonymity range API in the exact Have I Been Pwned format, so existing HIBP clients work ' +
      'against it.',
    routes: [
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/passwords/check',
        operationId: 'passwordsCheck',
        summary: 'Check a password against the breach corpus',
        description: `Returns whether the password is breached and its corpus count. ${PRIVACY}`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('password-breach/check-request.json'),
          response: { 200: apiSchema('password-breach/check-response.json') },
        },
        async handler({ body }): Promise<PasswordCheck> {
          const n = await occurrences((body as { password: string }).password);
          return { breached: n > 0, occurrences: n, message: checkMessage(n) };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/passwords/check/batch',
        operationId: 'passwordsCheckBatch',
        summary: 'Check several passwords against the breach corpus',
        description:
          'One result per password, in request order, identified by its position (`index`): the passwords ' +
          `are not echoed. ${PRIVACY}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'passwords', max: BATCH_MAX },
        schemas: {
          body: apiSchema('password-breach/check-batch-request.json'),
          response: { 200: apiSchema('password-breach/check-batch-response.json') },
        },
        async handler({ body }): Promise<PasswordCheckBatch> {
          const passwords = (body as { passwords: string[] }).passwords;
          const counts = await Promise.all(passwords.map(occurrences));
          return { results: counts.map((n, index) => ({ index, breached: n > 0, occurrences: n })) };
        },
      },
      {
        convention: 'R',
        method: 'GET',
        path: '/api/v1/passwords/range/{hashPrefix}',
        operationId: 'passwordsRange',
        summary: 'Hash suffixes for a 5-character SHA-1 prefix (Have I Been Pwned format)',
        description:
          'The k-anonymity range API: the caller sends the first 5 hex characters of a SHA-1 hash and ' +
          'matches the returned suffixes locally, so the password never leaves the client. The body is ' +
          '`text/plain`, `SUFFIX:COUNT` lines (35 upper-case hex characters), sorted, CRLF-separated, ' +
          'exactly as api.pwnedpasswords.com/range answers; `Add-Padding: true` adds zero-count lines up ' +
          'to 800–1,000 lines. HIBP clients work by pointing their base URL at /api/v1/passwords and ' +
          'sending X-API-Key.',
        auth: 'apiKey',
        metered: true,
        schemas: {
          params: apiSchema('password-breach/range-params.json'),
          query: apiSchema('password-breach/range-query.json'),
          response: { 200: apiSchema('password-breach/range-response.json') },
        },
        async handler({ params, headers }) {
          const prefix = params.hashPrefix ?? '';
          if (parsePrefix(prefix) === null) throw new AppError('VALIDATION_ERROR', PREFIX_MESSAGE);
          const entries = await corpus.range(prefix);
          const body = rangeBody(wantsPadding(headers) ? padRange(entries, random) : entries);
          return reply(body, { headers: { 'content-type': 'text/plain' } });
        },
      },
    ],
  };
}
