/**
 * What the portal needs of the accounts context. A service may import only core (the layering rule in
 * .dependency-cruiser.cjs), so the portal declares the shapes it uses and the composition root passes in
 * `AccountCommands` (services/accounts) and `AccountsReader` (projections/accounts), which satisfy them as they are.
 */
export type PortalRole = 'ROLE_USER' | 'ROLE_ADMIN';

export interface AccountRegistration {
  readonly login: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly plan: string;
  readonly roles?: readonly PortalRole[];
  readonly activated?: boolean;
  readonly activationKeyHash?: string;
  readonly activationExpiresAt?: Date;
  readonly langKey?: string;
}

/** The account as its event stream says: the truth, where the read model may lag. */
export interface PortalAccountState {
  readonly exists: boolean;
  readonly accountId: string;
  readonly login: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly roles: readonly string[];
  readonly activated: boolean;
  readonly activationKeyHash?: string;
  readonly activationExpiresAt?: string;
}

/** The command side (AccountCommands). Failures are AppErrors: CONFLICT, VALIDATION_ERROR, NOT_FOUND. */
export interface PortalAccounts {
  register(input: AccountRegistration): Promise<string>;
  activate(accountId: string, activationKeyHash: string): Promise<unknown>;
  issueActivationKey(accountId: string, activationKeyHash: string, expiresAt: Date): Promise<unknown>;
  grantRole(accountId: string, role: PortalRole): Promise<unknown>;
  load(accountId: string): Promise<{ state: PortalAccountState; version: number }>;
}

/** A row of the accounts read model (AccountsReader's AccountView, the fields the portal reads). */
export interface PortalAccountView {
  readonly accountId: string;
  readonly login: string;
  readonly email: string;
  readonly activated: boolean;
  readonly activationKeyHash: string | null;
  readonly activationExpiresAt: string | null;
  /** Stream version the row reflects. */
  readonly version: number;
}

/** The query side (AccountsReader): eventually consistent with PortalAccounts. */
export interface PortalAccountsReader {
  byId(accountId: string): Promise<PortalAccountView | null>;
  byLogin(login: string): Promise<PortalAccountView | null>;
  byEmail(email: string): Promise<PortalAccountView | null>;
  byActivationKeyHash(hash: string): Promise<PortalAccountView | null>;
}
