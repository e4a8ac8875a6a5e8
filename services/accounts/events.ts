/** Payload types of the accounts streams; the JSON Schemas in schemas/events/accounts/ are the contract. */
export type Role = 'ROLE_USER' | 'ROLE_ADMIN';

export interface PlanLimits {
  readonly perMinute?: number;
  readonly perDay?: number;
  readonly perMonth?: number;
  readonly batchSize?: number;
}

export interface AccountRegistered {
  readonly accountId: string;
  readonly login: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly plan: string;
  readonly roles: readonly Role[];
  readonly activated: boolean;
  readonly activationKeyHash?: string;
  readonly activationExpiresAt?: string;
  readonly langKey?: string;
}

export interface AccountActivated {
  readonly accountId: string;
}

export interface ActivationKeyIssued {
  readonly accountId: string;
  readonly activationKeyHash: string;
  readonly activationExpiresAt: string;
}

export interface PasswordChanged {
  readonly accountId: string;
  readonly passwordHash: string;
}

export interface RoleGranted {
  readonly accountId: string;
  readonly role: Role;
}

export interface RoleRevoked {
  readonly accountId: string;
  readonly role: 'ROLE_ADMIN';
}

export interface PlanChanged {
  readonly accountId: string;
  readonly plan: string;
  readonly limits?: PlanLimits;
}

export interface UniqueValueClaimed {
  readonly kind: 'login' | 'email';
  readonly accountId: string;
}

export type UniqueValueReleased = UniqueValueClaimed;

export type AccountEvent =
  | { type: 'AccountRegistered'; data: AccountRegistered }
  | { type: 'AccountActivated'; data: AccountActivated }
  | { type: 'ActivationKeyIssued'; data: ActivationKeyIssued }
  | { type: 'PasswordChanged'; data: PasswordChanged }
  | { type: 'RoleGranted'; data: RoleGranted }
  | { type: 'RoleRevoked'; data: RoleRevoked }
  | { type: 'PlanChanged'; data: PlanChanged };

export const ACCOUNT_CATEGORY = 'account';
/** Streams that guard uniqueness of a login or an e-mail address. */
export const UNIQUE_CATEGORY = 'uniq';
