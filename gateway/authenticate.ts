import { createHash } from 'node:crypto';
import { AppError } from '../core/errors/catalogue.js';
import type { AuthKind } from '../core/service/definition.js';
import type { AccountView, GatewayPorts, KeyRecordView, LimitsView } from './ports.js';
import { TtlCache } from './ttl-cache.js';

/** Who is calling, once credentials are checked. */
export interface Caller {
  readonly accountId: string | null;
  readonly keyId: string | null;
  readonly roles: readonly string[];
  readonly plan: string | null;
  readonly limits: LimitsView | null;
  /** The API key's scopes (empty without a key). */
  readonly scopes: readonly string[];
}

export const ANONYMOUS: Caller = {
  accountId: null,
  keyId: null,
  roles: [],
  plan: null,
  limits: null,
  scopes: [],
};

/** Throws INSUFFICIENT_SCOPE unless the key may call `slug`. */
export function checkScope(caller: Caller, slug: string): void {
  if (!caller.scopes.includes('*') && !caller.scopes.includes(slug)) {
    throw new AppError('INSUFFICIENT_SCOPE', `X-API-Key: the key's scopes do not include ${slug}`);
  }
}

const KEY_SHAPE = /^tg_[A-Za-z0-9]{8,64}_[A-Za-z0-9_-]{16,128}$/;

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Credential checks of the pipeline (DESIGN.md section 4): API key → SHA-256 → cached lookup → scope; Bearer JWT
 * verified locally. Lookups are cached for a fraction of a second only, so a revocation still reaches every
 * gateway within one second.
 */
export class Authenticator {
  private readonly keyCache = new TtlCache<KeyRecordView | null>(250);
  private readonly accountCache = new TtlCache<AccountView | null>(1000);

  constructor(private readonly ports: GatewayPorts) {}

  /** `slug` null: the path spans services, and the scope is checked once the operation is known. */
  async authenticate(
    auth: AuthKind,
    slug: string | null,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<Caller> {
    switch (auth) {
      case 'public':
      case 'capability':
        return ANONYMOUS;
      case 'apiKey':
        return this.byKey(headers, slug);
      case 'jwt':
        return this.byJwt(headers);
      case 'admin': {
        const user = await this.byJwt(headers);
        if (!user.roles.includes('ROLE_ADMIN'))
          throw new AppError('FORBIDDEN', 'this operation needs ROLE_ADMIN');
        const key = await this.byKey(headers, null);
        if (key.accountId !== user.accountId) {
          throw new AppError('UNAUTHORIZED', 'X-API-Key: must belong to the signed-in account');
        }
        return { ...key, roles: user.roles };
      }
    }
  }

  private async byKey(
    headers: Record<string, string | string[] | undefined>,
    slug: string | null,
  ): Promise<Caller> {
    const presented = header(headers, 'x-api-key')?.trim();
    if (!presented) throw new AppError('UNAUTHORIZED', 'X-API-Key: an API key is required');
    if (!KEY_SHAPE.test(presented))
      throw new AppError('UNAUTHORIZED', 'X-API-Key: unknown or revoked API key');
    const hash = createHash('sha256').update(presented).digest('hex');
    const record = await this.keyCache.get(hash, () => this.ports.keys.find(hash));
    const now = (this.ports.now?.() ?? new Date()).getTime();
    if (!record || record.revoked)
      throw new AppError('UNAUTHORIZED', 'X-API-Key: unknown or revoked API key');
    if (record.expiresAt && Date.parse(record.expiresAt) <= now) {
      throw new AppError('UNAUTHORIZED', 'X-API-Key: the API key has expired');
    }
    if (record.validUntil && Date.parse(record.validUntil) <= now) {
      throw new AppError('UNAUTHORIZED', 'X-API-Key: the API key was rerolled and its overlap has ended');
    }
    const account = await this.accountCache.get(record.accountId, () =>
      this.ports.accounts.byId(record.accountId),
    );
    if (!account) throw new AppError('UNAUTHORIZED', 'X-API-Key: unknown or revoked API key');
    const caller: Caller = {
      accountId: account.accountId,
      keyId: record.keyId,
      roles: account.roles,
      plan: account.plan,
      limits: this.ports.limits(account.plan, account.planLimits),
      scopes: record.scopes,
    };
    if (slug !== null) checkScope(caller, slug);
    return caller;
  }

  private async byJwt(headers: Record<string, string | string[] | undefined>): Promise<Caller> {
    const authz = header(headers, 'authorization');
    const match = authz ? /^Bearer\s+(\S+)\s*$/i.exec(authz) : null;
    if (!match?.[1]) throw new AppError('UNAUTHORIZED', 'Authorization: a Bearer token is required');
    const claims = await this.ports.jwt.verify(match[1]);
    return {
      accountId: claims.accountId,
      keyId: null,
      roles: claims.roles,
      plan: null,
      limits: null,
      scopes: [],
    };
  }
}
