import { describe, expect, it } from 'vitest';
import type { AppError } from '../../core/errors/catalogue.js';
import {
  activate,
  changePassword,
  changePlan,
  evolve,
  fold,
  grantRole,
  initialAccount,
  issueActivationKey,
  register,
  revokeAdmin,
} from './account.js';
import type { AccountEvent, AccountRegistered } from './events.js';

const id = '0193a0e0-0000-7000-8000-000000000001';
const registered: AccountRegistered = {
  accountId: id,
  login: 'ada',
  email: 'ada@example.com',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  plan: 'FREE',
  roles: ['ROLE_USER'],
  activated: false,
  activationKeyHash: 'a'.repeat(64),
  activationExpiresAt: '2026-01-02T00:00:00.000Z',
};
const start = fold([{ type: 'AccountRegistered', data: registered }]);
const apply = (events: AccountEvent[]) => events.reduce(evolve, start);
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return 'no error';
};

describe('accounts aggregate', () => {
  it('registers once', () => {
    expect(register(initialAccount, registered)).toEqual([{ type: 'AccountRegistered', data: registered }]);
    expect(code(() => register(start, registered))).toBe('CONFLICT');
    expect(start).toMatchObject({ exists: true, login: 'ada', activated: false, roles: ['ROLE_USER'] });
  });

  it('activates with the current unexpired key only, and forgets the key', () => {
    const before = new Date('2026-01-01T00:00:00Z');
    expect(code(() => activate(start, 'b'.repeat(64), before))).toBe('VALIDATION_ERROR');
    expect(code(() => activate(start, 'a'.repeat(64), new Date('2026-01-02T00:00:00Z')))).toBe(
      'VALIDATION_ERROR',
    );
    const events = activate(start, 'a'.repeat(64), before);
    const active = apply(events);
    expect(active.activated).toBe(true);
    expect(active.activationKeyHash).toBeUndefined();
    expect(code(() => activate(active, 'a'.repeat(64), before))).toBe('VALIDATION_ERROR');
  });

  it('replaces the activation key on resend, and refuses resend once active', () => {
    const reissued = apply(issueActivationKey(start, 'c'.repeat(64), new Date('2026-03-01T00:00:00Z')));
    expect(code(() => activate(reissued, 'a'.repeat(64), new Date('2026-01-01T00:00:00Z')))).toBe(
      'VALIDATION_ERROR',
    );
    expect(activate(reissued, 'c'.repeat(64), new Date('2026-02-01T00:00:00Z'))).toHaveLength(1);
    const active = apply(activate(start, 'a'.repeat(64), new Date('2026-01-01T00:00:00Z')));
    expect(code(() => issueActivationKey(active, 'c'.repeat(64), new Date()))).toBe('CONFLICT');
  });

  it('grants and revokes roles idempotently', () => {
    const admin = apply(grantRole(start, 'ROLE_ADMIN'));
    expect(admin.roles).toEqual(['ROLE_USER', 'ROLE_ADMIN']);
    expect(grantRole(admin, 'ROLE_ADMIN')).toEqual([]);
    expect(evolve(admin, revokeAdmin(admin)[0]!).roles).toEqual(['ROLE_USER']);
    expect(revokeAdmin(start)).toEqual([]);
  });

  it('changes plan and password; commands on a missing account are NOT_FOUND', () => {
    const ent = apply(changePlan(start, 'ENTERPRISE', { perMinute: 5000 }));
    expect(ent).toMatchObject({ plan: 'ENTERPRISE', limits: { perMinute: 5000 } });
    expect(changePlan(ent, 'ENTERPRISE', { perMinute: 5000 })).toEqual([]);
    expect(evolve(ent, changePlan(ent, 'PRO')[0]!).limits).toBeUndefined();
    expect(code(() => changePlan(start, 'pro'))).toBe('VALIDATION_ERROR');
    expect(apply(changePassword(start, '$argon2id$new')).passwordHash).toBe('$argon2id$new');
    expect(code(() => changePassword(initialAccount, '$argon2id$x'))).toBe('NOT_FOUND');
  });
});
