import { describe, expect, it } from 'vitest';
import { type KeyRecord, keyRefusal, keyUsable } from '../../core/auth/key-lookup.js';

const record: KeyRecord = {
  keyId: 'AbCd1234EfGh5678',
  accountId: '0193a0e0-0000-7000-8000-000000000001',
  scopes: ['captcha'],
  expiresAt: null,
  revoked: false,
  validUntil: null,
};
const at = (iso: string) => new Date(iso);

describe('keyUsable', () => {
  it('accepts a live key and refuses revoked, expired and rotated-away ones (bounds exclusive)', () => {
    const now = at('2026-01-01T00:00:00.000Z');
    expect(keyUsable(record, now)).toBe(true);
    expect(keyRefusal({ ...record, revoked: true }, now)).toBe('revoked');
    expect(keyUsable({ ...record, expiresAt: '2026-01-01T00:00:00.001Z' }, now)).toBe(true);
    expect(keyRefusal({ ...record, expiresAt: '2026-01-01T00:00:00.000Z' }, now)).toBe('expired');
    expect(keyUsable({ ...record, validUntil: '2026-01-01T00:00:00.001Z' }, now)).toBe(true);
    expect(keyRefusal({ ...record, validUntil: '2026-01-01T00:00:00.000Z' }, now)).toBe('rotated');
    // Revocation wins over everything else, even inside an overlap.
    expect(keyRefusal({ ...record, revoked: true, validUntil: '2027-01-01T00:00:00Z' }, now)).toBe('revoked');
  });

  it('fails closed on a date it cannot read', () => {
    const now = at('2026-01-01T00:00:00.000Z');
    expect(keyRefusal({ ...record, expiresAt: 'garbage' }, now)).toBe('expired');
    expect(keyRefusal({ ...record, validUntil: 'garbage' }, now)).toBe('rotated');
  });
});
