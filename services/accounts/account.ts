import { AppError } from '../../core/errors/catalogue.js';
import type { AccountEvent, AccountRegistered, PlanLimits, Role } from './events.js';

/** The accounts aggregate: state folded from its events, and pure decisions that return new events. */
export interface AccountState {
  readonly exists: boolean;
  readonly accountId: string;
  readonly login: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly plan: string;
  readonly limits?: PlanLimits;
  readonly roles: readonly Role[];
  readonly activated: boolean;
  readonly activationKeyHash?: string;
  readonly activationExpiresAt?: string;
}

export const initialAccount: AccountState = {
  exists: false,
  accountId: '',
  login: '',
  email: '',
  passwordHash: '',
  plan: '',
  roles: [],
  activated: false,
};

export function evolve(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountRegistered': {
      const { langKey: _lang, ...rest } = event.data;
      return { ...initialAccount, ...rest, exists: true, roles: [...event.data.roles] };
    }
    case 'AccountActivated': {
      const { activationKeyHash: _k, activationExpiresAt: _e, ...rest } = state;
      return { ...rest, activated: true };
    }
    case 'ActivationKeyIssued':
      return {
        ...state,
        activationKeyHash: event.data.activationKeyHash,
        activationExpiresAt: event.data.activationExpiresAt,
      };
    case 'PasswordChanged':
      return { ...state, passwordHash: event.data.passwordHash };
    case 'RoleGranted':
      return state.roles.includes(event.data.role)
        ? state
        : { ...state, roles: [...state.roles, event.data.role] };
    case 'RoleRevoked':
      return { ...state, roles: state.roles.filter((r) => r !== event.data.role) };
    case 'PlanChanged': {
      const { limits: _old, ...rest } = state;
      return { ...rest, plan: event.data.plan, ...(event.data.limits ? { limits: event.data.limits } : {}) };
    }
  }
}

export const fold = (events: readonly AccountEvent[]): AccountState => events.reduce(evolve, initialAccount);

const mustExist = (state: AccountState): void => {
  if (!state.exists) throw new AppError('NOT_FOUND', 'account not found');
};

export function register(state: AccountState, data: AccountRegistered): AccountEvent[] {
  if (state.exists) throw new AppError('CONFLICT', 'account already exists');
  return [{ type: 'AccountRegistered', data }];
}

/** Activation needs the key of the latest link, unexpired; an activated account has no key any more. */
export function activate(state: AccountState, activationKeyHash: string, now: Date): AccountEvent[] {
  mustExist(state);
  if (state.activated || !state.activationKeyHash || state.activationKeyHash !== activationKeyHash) {
    throw new AppError('VALIDATION_ERROR', 'key: unknown or already used activation key');
  }
  if (state.activationExpiresAt && Date.parse(state.activationExpiresAt) <= now.getTime()) {
    throw new AppError('VALIDATION_ERROR', 'key: activation key has expired');
  }
  return [{ type: 'AccountActivated', data: { accountId: state.accountId } }];
}

export function issueActivationKey(
  state: AccountState,
  activationKeyHash: string,
  expiresAt: Date,
): AccountEvent[] {
  mustExist(state);
  if (state.activated) throw new AppError('CONFLICT', 'account is already activated');
  return [
    {
      type: 'ActivationKeyIssued',
      data: { accountId: state.accountId, activationKeyHash, activationExpiresAt: expiresAt.toISOString() },
    },
  ];
}

export function changePassword(state: AccountState, passwordHash: string): AccountEvent[] {
  mustExist(state);
  return [{ type: 'PasswordChanged', data: { accountId: state.accountId, passwordHash } }];
}

/** Idempotent: granting a role the account has changes nothing. */
export function grantRole(state: AccountState, role: Role): AccountEvent[] {
  mustExist(state);
  return state.roles.includes(role)
    ? []
    : [{ type: 'RoleGranted', data: { accountId: state.accountId, role } }];
}

export function revokeAdmin(state: AccountState): AccountEvent[] {
  mustExist(state);
  return state.roles.includes('ROLE_ADMIN')
    ? [{ type: 'RoleRevoked', data: { accountId: state.accountId, role: 'ROLE_ADMIN' } }]
    : [];
}

export function changePlan(state: AccountState, plan: string, limits?: PlanLimits): AccountEvent[] {
  mustExist(state);
  if (!/^[A-Z][A-Z0-9_]*$/.test(plan))
    throw new AppError('VALIDATION_ERROR', 'plan: must be an upper-case plan name');
  if (state.plan === plan && JSON.stringify(state.limits ?? null) === JSON.stringify(limits ?? null))
    return [];
  return [{ type: 'PlanChanged', data: { accountId: state.accountId, plan, ...(limits ? { limits } : {}) } }];
}
