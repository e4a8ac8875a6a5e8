import { AppError } from '../../core/errors/catalogue.js';
import type { KvStore } from '../../core/kv/kv.js';
import { parentDomains } from './email-address.js';

export type OverrideAction = 'ALLOW' | 'DENY';

/** An account's own verdict on a domain and its sub-domains, taking precedence over every layer. */
export interface Override {
  readonly domain: string;
  readonly action: OverrideAction;
  readonly note: string | null;
  readonly createdAt: string;
}

/** Overrides one account may hold; bounds what one key can make the store keep. */
export const MAX_OVERRIDES = 10_000;

const key = (accountId: string, domain: string) => `disposable-email:override:${accountId}:${domain}`;
const countKey = (accountId: string) => `disposable-email:override-count:${accountId}`;

function parse(raw: string | null): Override | null {
  if (raw === null) return null;
  const o = JSON.parse(raw) as Override;
  return { domain: o.domain, action: o.action, note: o.note ?? null, createdAt: o.createdAt };
}

/**
 * Overrides in the kv port, one key per account and domain, so a check reads only the keys of its domain and
 * parents, and every profile (memory, SQLite, Redis) shares them across gateways at once.
 */
export class OverrideStore {
  constructor(
    private readonly kv: KvStore,
    private readonly max = MAX_OVERRIDES,
  ) {}

  /** Creates or replaces the account's override for the domain. */
  async put(accountId: string, override: Override): Promise<Override> {
    const k = key(accountId, override.domain);
    const value = JSON.stringify(override);
    if (!(await this.kv.setIfAbsent(k, value))) {
      await this.kv.set(k, value);
      return override;
    }
    const count = await this.kv.increment(countKey(accountId));
    if (count > this.max) {
      await this.kv.delete(k);
      await this.kv.increment(countKey(accountId), -1);
      throw new AppError(
        'UNPROCESSABLE',
        `domain: the account already has the maximum of ${this.max} overrides; delete some first`,
      );
    }
    return override;
  }

  /** False when the account has no override for exactly this domain. */
  async remove(accountId: string, domain: string): Promise<boolean> {
    if (!(await this.kv.delete(key(accountId, domain)))) return false;
    await this.kv.increment(countKey(accountId), -1);
    return true;
  }

  /** The override for the domain itself, else for its nearest parent that has one. */
  async find(accountId: string, domain: string): Promise<Override | null> {
    const names = [domain, ...parentDomains(domain)];
    const found = await Promise.all(names.map((d) => this.kv.get(key(accountId, d))));
    for (const raw of found) if (raw !== null) return parse(raw);
    return null;
  }
}
