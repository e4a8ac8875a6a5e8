import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors/catalogue.js';
import type { EventMetadata, NewEvent } from '../../core/events/envelope.js';
import { streamIdOf } from '../../core/events/envelope.js';
import { ConcurrencyError } from '../../core/events/errors.js';
import type { EventStore } from '../../core/events/event-store.js';
import { newId } from '../../core/ids.js';
import type { AccountState } from './account.js';
import * as account from './account.js';
import {
  ACCOUNT_CATEGORY,
  type AccountEvent,
  type PlanLimits,
  type Role,
  UNIQUE_CATEGORY,
  type UniqueValueClaimed,
} from './events.js';

export const accountStream = (accountId: string): string => streamIdOf(ACCOUNT_CATEGORY, accountId);

/** Logins and e-mail addresses are unique regardless of case. */
export const uniqueStream = (kind: 'login' | 'email', value: string): string =>
  streamIdOf(
    UNIQUE_CATEGORY,
    createHash('sha256').update(`${kind}:${value.trim().toLowerCase()}`).digest('hex'),
  );

/** A claim whose account never got registered (a crash in between) may be taken over after this long. */
const STALE_CLAIM_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;

export interface RegisterInput {
  readonly login: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly plan: string;
  readonly roles?: readonly Role[];
  readonly activated?: boolean;
  readonly activationKeyHash?: string;
  readonly activationExpiresAt?: Date;
  readonly langKey?: string;
}

/**
 * Command handlers of the accounts context: load the stream, decide with the pure aggregate, append with the
 * version read; on a concurrency conflict, read again and decide again.
 */
export class AccountCommands {
  constructor(
    private readonly store: EventStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async load(accountId: string): Promise<{ state: AccountState; version: number }> {
    const events = await this.store.readStream(accountStream(accountId));
    return {
      state: account.fold(events.map((e) => ({ type: e.type, data: e.data }) as AccountEvent)),
      version: events.at(-1)?.streamVersion ?? 0,
    };
  }

  /** Claims the login and the e-mail address, then records the account. Returns the new account id. */
  async register(input: RegisterInput, metadata: EventMetadata = {}): Promise<string> {
    const accountId = newId();
    await this.claim('login', input.login, accountId, metadata);
    try {
      await this.claim('email', input.email, accountId, metadata);
    } catch (err) {
      await this.release('login', input.login, accountId, metadata);
      throw err;
    }
    const data = {
      accountId,
      login: input.login.trim().toLowerCase(),
      email: input.email.trim().toLowerCase(),
      passwordHash: input.passwordHash,
      plan: input.plan,
      roles: [...(input.roles ?? ['ROLE_USER'])],
      activated: input.activated ?? false,
      ...(input.activationKeyHash ? { activationKeyHash: input.activationKeyHash } : {}),
      ...(input.activationExpiresAt ? { activationExpiresAt: input.activationExpiresAt.toISOString() } : {}),
      ...(input.langKey ? { langKey: input.langKey } : {}),
    };
    await this.store.append(
      accountStream(accountId),
      toNew(account.register(account.initialAccount, data), accountId, metadata),
      'no_stream',
    );
    return accountId;
  }

  activate(
    accountId: string,
    activationKeyHash: string,
    metadata: EventMetadata = {},
  ): Promise<AccountState> {
    return this.update(accountId, (s) => account.activate(s, activationKeyHash, this.now()), metadata);
  }

  issueActivationKey(
    accountId: string,
    activationKeyHash: string,
    expiresAt: Date,
    metadata: EventMetadata = {},
  ): Promise<AccountState> {
    return this.update(
      accountId,
      (s) => account.issueActivationKey(s, activationKeyHash, expiresAt),
      metadata,
    );
  }

  changePassword(
    accountId: string,
    passwordHash: string,
    metadata: EventMetadata = {},
  ): Promise<AccountState> {
    return this.update(accountId, (s) => account.changePassword(s, passwordHash), metadata);
  }

  grantRole(accountId: string, role: Role, metadata: EventMetadata = {}): Promise<AccountState> {
    return this.update(accountId, (s) => account.grantRole(s, role), metadata);
  }

  revokeAdmin(accountId: string, metadata: EventMetadata = {}): Promise<AccountState> {
    return this.update(accountId, (s) => account.revokeAdmin(s), metadata);
  }

  changePlan(
    accountId: string,
    plan: string,
    limits?: PlanLimits,
    metadata: EventMetadata = {},
  ): Promise<AccountState> {
    return this.update(accountId, (s) => account.changePlan(s, plan, limits), metadata);
  }

  private async update(
    accountId: string,
    decide: (state: AccountState) => AccountEvent[],
    metadata: EventMetadata,
  ): Promise<AccountState> {
    for (let attempt = 1; ; attempt++) {
      const { state, version } = await this.load(accountId);
      const events = decide(state);
      if (events.length === 0) return state;
      try {
        await this.store.append(accountStream(accountId), toNew(events, accountId, metadata), version);
        return events.reduce(account.evolve, state);
      } catch (err) {
        if (!(err instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  private async claim(kind: 'login' | 'email', value: string, accountId: string, metadata: EventMetadata) {
    const stream = uniqueStream(kind, value);
    for (let attempt = 1; ; attempt++) {
      const events = await this.store.readStream(stream);
      const last = events.at(-1);
      if (last?.type === 'UniqueValueClaimed') {
        const holder = (last.data as UniqueValueClaimed).accountId;
        const stale =
          this.now().getTime() - Date.parse(last.occurredAt) > STALE_CLAIM_MS &&
          (await this.store.readStream(accountStream(holder), { limit: 1 })).length === 0;
        if (!stale) throw new AppError('CONFLICT', `${kind}: is already in use`);
      }
      try {
        await this.store.append(
          stream,
          [{ type: 'UniqueValueClaimed', data: { kind, accountId }, accountId, metadata }],
          last?.streamVersion ?? 0,
        );
        return;
      } catch (err) {
        if (!(err instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  private async release(kind: 'login' | 'email', value: string, accountId: string, metadata: EventMetadata) {
    await this.store
      .append(
        uniqueStream(kind, value),
        [{ type: 'UniqueValueReleased', data: { kind, accountId }, accountId, metadata }],
        'any',
      )
      .catch(() => {
        // A claim left behind is taken over once stale; registration already failed for its own reason.
      });
  }
}

const toNew = (events: readonly AccountEvent[], accountId: string, metadata: EventMetadata): NewEvent[] =>
  events.map((e) => ({ type: e.type, data: e.data, accountId, metadata }));
