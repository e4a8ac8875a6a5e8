import { describe, expect, it } from 'vitest';
import type { AppError } from '../../core/errors/catalogue.js';
import { SERVICE_SLUGS } from '../../core/service/definition.js';
import {
  create,
  evolve,
  fold,
  initialApiKey,
  reroll,
  revoke,
  validateExpiresAt,
  validateName,
  validateOverlap,
  validateScopes,
} from './apikey.js';
import type { ApiKeyEvent } from './events.js';

const owner = '0193a0e0-0000-7000-8000-000000000001';
const other = '0193a0e0-0000-7000-8000-000000000002';
const now = new Date('2026-01-01T00:00:00.000Z');
const h = (c: string) => c.repeat(64);
const base = {
  keyId: 'AbCd1234EfGh5678',
  accountId: owner,
  name: 'ci',
  scopes: ['captcha'],
  keyHash: h('a'),
  start: 'tg_AbCd1234',
  expiresAt: null,
};
const created = fold(create(initialApiKey, base));
const apply = (state: typeof created, events: ApiKeyEvent[]) => events.reduce(evolve, state);
const error = (fn: () => unknown): { code: string; message: string } => {
  try {
    fn();
  } catch (e) {
    return { code: (e as AppError).code, message: (e as AppError).message };
  }
  return { code: 'no error', message: '' };
};

describe('API key aggregate', () => {
  it('creates once; expiresAt only when given', () => {
    expect(create(initialApiKey, base)).toEqual([
      {
        type: 'ApiKeyCreated',
        data: {
          keyId: base.keyId,
          accountId: owner,
          name: 'ci',
          scopes: ['captcha'],
          keyHash: h('a'),
          start: base.start,
        },
      },
    ]);
    const expiring = create(initialApiKey, { ...base, expiresAt: '2026-02-01T00:00:00.000Z' });
    expect(expiring[0]!.data).toMatchObject({ expiresAt: '2026-02-01T00:00:00.000Z' });
    expect(created).toMatchObject({ exists: true, accountId: owner, keyHash: h('a'), revoked: false });
    expect(error(() => create(created, base)).code).toBe('CONFLICT');
  });

  it('revokes the owner’s live key only; anything else is NOT_FOUND', () => {
    expect(revoke(created, owner)).toEqual([
      { type: 'ApiKeyRevoked', data: { keyId: base.keyId, accountId: owner } },
    ]);
    expect(error(() => revoke(created, other)).code).toBe('NOT_FOUND');
    expect(error(() => revoke(initialApiKey, owner)).code).toBe('NOT_FOUND');
    const revoked = apply(created, revoke(created, owner));
    expect(revoked.revoked).toBe(true);
    expect(error(() => revoke(revoked, owner)).code).toBe('NOT_FOUND');
  });

  it('rerolls with an overlap for the old secret, capped at the key’s expiry', () => {
    const events = reroll(created, owner, { keyHash: h('b'), start: 'tg_AbCd1234' }, now, 600);
    expect(events).toEqual([
      {
        type: 'ApiKeyRerolled',
        data: {
          keyId: base.keyId,
          accountId: owner,
          keyHash: h('b'),
          start: 'tg_AbCd1234',
          previousKeyHash: h('a'),
          previousValidUntil: '2026-01-01T00:10:00.000Z',
        },
      },
    ]);
    const rerolled = apply(created, events);
    expect(rerolled.keyHash).toBe(h('b'));
    // The next reroll replaces the current secret, not the original one.
    expect(reroll(rerolled, owner, { keyHash: h('c'), start: 'tg_x' }, now, 0)[0]!.data).toMatchObject({
      previousKeyHash: h('b'),
      previousValidUntil: now.toISOString(),
    });
    const soon = fold(create(initialApiKey, { ...base, expiresAt: '2026-01-01T00:05:00.000Z' }));
    expect(reroll(soon, owner, { keyHash: h('b'), start: 's' }, now, 3600)[0]!.data).toMatchObject({
      previousValidUntil: '2026-01-01T00:05:00.000Z',
    });
  });

  it('refuses to reroll an expired key (409), a revoked or foreign one (404), or to reuse a hash', () => {
    const expired = fold(create(initialApiKey, { ...base, expiresAt: now.toISOString() }));
    expect(error(() => reroll(expired, owner, { keyHash: h('b'), start: 's' }, now, 60)).code).toBe(
      'CONFLICT',
    );
    const revoked = apply(created, revoke(created, owner));
    expect(error(() => reroll(revoked, owner, { keyHash: h('b'), start: 's' }, now, 60)).code).toBe(
      'NOT_FOUND',
    );
    expect(error(() => reroll(created, other, { keyHash: h('b'), start: 's' }, now, 60)).code).toBe(
      'NOT_FOUND',
    );
    expect(() => reroll(created, owner, { keyHash: h('a'), start: 's' }, now, 60)).toThrow(/differ/);
    expect(error(() => reroll(created, owner, { keyHash: h('b'), start: 's' }, now, 86_401)).code).toBe(
      'VALIDATION_ERROR',
    );
  });
});

describe('API key input validation', () => {
  it('names: 1–100 characters after trimming', () => {
    expect(validateName('  deploy bot ')).toBe('deploy bot');
    expect(validateName('x'.repeat(100))).toHaveLength(100);
    expect(error(() => validateName('   ')).message).toBe('name: must not be blank');
    expect(error(() => validateName(undefined)).message).toBe('name: must not be blank');
    expect(error(() => validateName('x'.repeat(101))).message).toBe('name: must be at most 100 characters');
  });

  it('scopes: known slugs without duplicates, or exactly *; unknown ones are named', () => {
    expect(validateScopes(['phone-validation', 'readability'])).toEqual(['phone-validation', 'readability']);
    expect(validateScopes(['*'])).toEqual(['*']);
    expect(validateScopes([...SERVICE_SLUGS])).toHaveLength(20);
    const message = (v: unknown) => error(() => validateScopes(v)).message;
    expect(message([])).toBe('scopes: must contain at least 1 item');
    expect(message('captcha')).toBe('scopes: must contain at least 1 item');
    expect(message(['captcha', 3])).toBe('scopes: must be an array of strings');
    expect(message(['captcha', 'captcha'])).toBe('scopes: must not contain duplicates');
    expect(message(['captcha', 'portal-keys', 'nope'])).toBe(
      'scopes: must be known service slugs or * (unknown: "portal-keys", "nope")',
    );
    expect(message(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toMatch(
      /unknown: "a", "b", "c", "d", "e", and 2 more\)$/,
    );
    expect(message(['*', 'captcha'])).toBe('scopes: * must be the only scope');
    expect(error(() => validateScopes(['Captcha'])).code).toBe('VALIDATION_ERROR');
  });

  it('expiresAt: optional RFC 3339 date-time in the future, normalised to UTC', () => {
    expect(validateExpiresAt(undefined, now)).toBeNull();
    expect(validateExpiresAt(null, now)).toBeNull();
    expect(validateExpiresAt('2026-01-01T02:00:00+01:00', now)).toBe('2026-01-01T01:00:00.000Z');
    const message = (v: unknown) => error(() => validateExpiresAt(v, now)).message;
    expect(message('2026-01-01T00:00:00Z')).toBe('expiresAt: must be in the future');
    expect(message('2025-06-01T00:00:00Z')).toBe('expiresAt: must be in the future');
    for (const bad of [
      'tomorrow',
      '2026-02-01',
      '2026-13-01T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-03-01T24:00:00Z',
      1767225600000,
      'Feb 1 2026 10:00',
    ]) {
      expect(message(bad)).toBe('expiresAt: must be an ISO 8601 date-time');
    }
  });

  it('overlapSeconds: integer 0–86400, default 3600', () => {
    expect(validateOverlap(undefined)).toBe(3600);
    expect(validateOverlap(0)).toBe(0);
    expect(validateOverlap(86_400)).toBe(86_400);
    expect(error(() => validateOverlap(-1)).message).toBe('overlapSeconds: must be at least 0');
    expect(error(() => validateOverlap(86_401)).message).toBe('overlapSeconds: must be at most 86400');
    expect(error(() => validateOverlap(1.5)).message).toBe('overlapSeconds: must be an integer');
    expect(error(() => validateOverlap('60')).message).toBe('overlapSeconds: must be an integer');
  });
});
