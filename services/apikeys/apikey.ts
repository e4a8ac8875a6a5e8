import { AppError } from '../../core/errors/catalogue.js';
import { SERVICE_SLUGS } from '../../core/service/definition.js';
import type { ApiKeyEvent } from './events.js';

/**
 * The API-key aggregate: state folded from one `apikey-<keyId>` stream, and pure decisions that return new
 * events.
 *
 * Decisions where DESIGN.md is silent:
 * - Another account's key, an unknown key and a revoked key are all NOT_FOUND: a revoked key is gone from the
 *   owner's point of view (it leaves the list), so DELETE twice answers 404 and a revoked key cannot be
 *   rerolled.
 * - An expired key cannot be rerolled (409 CONFLICT): a new secret would expire at the same instant, so the
 *   caller needs a new key, not a new secret.
 * - The old secret's overlap never outlives the key: `previousValidUntil` is capped at `expiresAt`.
 */
export interface ApiKeyState {
  readonly exists: boolean;
  readonly keyId: string;
  readonly accountId: string;
  readonly name: string;
  readonly scopes: readonly string[];
  /** Hash of the current secret. */
  readonly keyHash: string;
  readonly start: string;
  readonly expiresAt: string | null;
  readonly revoked: boolean;
}

export const initialApiKey: ApiKeyState = {
  exists: false,
  keyId: '',
  accountId: '',
  name: '',
  scopes: [],
  keyHash: '',
  start: '',
  expiresAt: null,
  revoked: false,
};

export function evolve(state: ApiKeyState, event: ApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyCreated': {
      const d = event.data;
      return {
        exists: true,
        keyId: d.keyId,
        accountId: d.accountId,
        name: d.name,
        scopes: [...d.scopes],
        keyHash: d.keyHash,
        start: d.start,
        expiresAt: d.expiresAt ?? null,
        revoked: false,
      };
    }
    case 'ApiKeyRevoked':
      return { ...state, revoked: true };
    case 'ApiKeyRerolled':
      return { ...state, keyHash: event.data.keyHash, start: event.data.start };
  }
}

export const fold = (events: readonly ApiKeyEvent[]): ApiKeyState => events.reduce(evolve, initialApiKey);

export const NAME_MAX = 100;
export const OVERLAP_DEFAULT_SECONDS = 3600;
export const OVERLAP_MAX_SECONDS = 86_400;
const MAX_NAMED_UNKNOWN = 5;

/** RFC 3339 date-time (what JSON Schema's `date-time` means); Date.parse alone accepts far looser input. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]\d{2}:[0-5]\d)$/i;

/** V8's Date.parse rolls 2026-02-30 over into March and takes hour 24; a calendar date must be one. */
function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [y, mo, d, hh] = [1, 2, 3, 4].map((i) => Number(m[i]));
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  return day.getUTCMonth() === mo! - 1 && day.getUTCDate() === d && hh! < 24;
}

const invalid = (message: string): AppError => new AppError('VALIDATION_ERROR', message);

export function validateName(name: unknown): string {
  if (typeof name !== 'string' || name.trim().length === 0) throw invalid('name: must not be blank');
  const trimmed = name.trim();
  if (trimmed.length > NAME_MAX) throw invalid(`name: must be at most ${NAME_MAX} characters`);
  return trimmed;
}

/** Known service slugs, or exactly `['*']`; the message names the unknown ones so the caller can fix them. */
export function validateScopes(scopes: unknown): string[] {
  if (!Array.isArray(scopes) || scopes.length === 0) throw invalid('scopes: must contain at least 1 item');
  if (scopes.some((s) => typeof s !== 'string')) throw invalid('scopes: must be an array of strings');
  const list = scopes as string[];
  if (new Set(list).size !== list.length) throw invalid('scopes: must not contain duplicates');
  const known = new Set<string>(SERVICE_SLUGS);
  const unknown = list.filter((s) => s !== '*' && !known.has(s));
  if (unknown.length > 0) {
    const named = unknown.slice(0, MAX_NAMED_UNKNOWN).map((s) => JSON.stringify(s.slice(0, 40)));
    const more = unknown.length > MAX_NAMED_UNKNOWN ? `, and ${unknown.length - MAX_NAMED_UNKNOWN} more` : '';
    throw invalid(`scopes: must be known service slugs or * (unknown: ${named.join(', ')}${more})`);
  }
  if (list.includes('*') && list.length > 1) throw invalid('scopes: * must be the only scope');
  return [...list];
}

/** Optional; when given, an RFC 3339 date-time in the future. Normalised to UTC (SPEC.md section 2). */
export function validateExpiresAt(expiresAt: unknown, now: Date): string | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const at = typeof expiresAt === 'string' && isDateTime(expiresAt) ? Date.parse(expiresAt) : Number.NaN;
  if (Number.isNaN(at)) throw invalid('expiresAt: must be an ISO 8601 date-time');
  if (at <= now.getTime()) throw invalid('expiresAt: must be in the future');
  return new Date(at).toISOString();
}

export function validateOverlap(overlapSeconds: unknown): number {
  if (overlapSeconds === undefined || overlapSeconds === null) return OVERLAP_DEFAULT_SECONDS;
  if (typeof overlapSeconds !== 'number' || !Number.isInteger(overlapSeconds)) {
    throw invalid('overlapSeconds: must be an integer');
  }
  if (overlapSeconds < 0) throw invalid('overlapSeconds: must be at least 0');
  if (overlapSeconds > OVERLAP_MAX_SECONDS)
    throw invalid(`overlapSeconds: must be at most ${OVERLAP_MAX_SECONDS}`);
  return overlapSeconds;
}

export interface NewKeyMaterial {
  readonly keyHash: string;
  readonly start: string;
}

export interface CreateKeyData extends NewKeyMaterial {
  readonly keyId: string;
  readonly accountId: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly expiresAt: string | null;
}

export function create(state: ApiKeyState, data: CreateKeyData): ApiKeyEvent[] {
  if (state.exists) throw new AppError('CONFLICT', 'keyId: already exists');
  const { expiresAt, ...rest } = data;
  return [
    {
      type: 'ApiKeyCreated',
      data: { ...rest, scopes: [...rest.scopes], ...(expiresAt ? { expiresAt } : {}) },
    },
  ];
}

/** The caller's live key, or NOT_FOUND: ownership is never told apart from absence (DESIGN.md section 6). */
function mustOwn(state: ApiKeyState, accountId: string): void {
  if (!state.exists || state.accountId !== accountId || state.revoked) {
    throw new AppError('NOT_FOUND', 'api key not found');
  }
}

export function revoke(state: ApiKeyState, accountId: string): ApiKeyEvent[] {
  mustOwn(state, accountId);
  return [{ type: 'ApiKeyRevoked', data: { keyId: state.keyId, accountId: state.accountId } }];
}

export function reroll(
  state: ApiKeyState,
  accountId: string,
  next: NewKeyMaterial,
  now: Date,
  overlapSeconds: number,
): ApiKeyEvent[] {
  mustOwn(state, accountId);
  const expires = state.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(state.expiresAt);
  if (expires <= now.getTime())
    throw new AppError('CONFLICT', 'keyId: the key has expired; create a new key');
  if (next.keyHash === state.keyHash)
    throw new Error('reroll: the new secret must differ from the current one');
  const validUntil = Math.min(now.getTime() + validateOverlap(overlapSeconds) * 1000, expires);
  return [
    {
      type: 'ApiKeyRerolled',
      data: {
        keyId: state.keyId,
        accountId: state.accountId,
        keyHash: next.keyHash,
        start: next.start,
        previousKeyHash: state.keyHash,
        previousValidUntil: new Date(validUntil).toISOString(),
      },
    },
  ];
}
