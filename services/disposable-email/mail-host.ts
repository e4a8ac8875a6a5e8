import { Resolver } from 'node:dns/promises';

/**
 * MAIL_HOST: MX records, or none but an A/AAAA record (the implicit MX of RFC 5321 section 5.1).
 * NULL_MX: the single MX "." of RFC 7505, the domain's statement that it takes no mail.
 * NO_MAIL_HOST: the name exists but has neither. DOMAIN_NOT_FOUND: NXDOMAIN.
 * UNAVAILABLE: no usable answer in time (timeout, SERVFAIL, refused): no evidence either way.
 */
export type MailHostStatus = 'MAIL_HOST' | 'NULL_MX' | 'NO_MAIL_HOST' | 'DOMAIN_NOT_FOUND' | 'UNAVAILABLE';

export interface MailHostOptions {
  /** `ip`, `ip:port` or `[ipv6]:port`, asked in order; default the system's resolvers. */
  readonly servers?: readonly string[];
  /** Budget for all lookups of one domain (default 2,000 ms). */
  readonly timeoutMs?: number;
  /** Answers are kept this long (default 5 min); UNAVAILABLE only for `unavailableTtlMs` (default 30 s). */
  readonly cacheTtlMs?: number;
  readonly unavailableTtlMs?: number;
  /** Domains kept in the cache (default 10,000; the oldest go first). */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; code: string };

const settle = <T>(p: Promise<T>): Promise<Outcome<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, code: String((err as { code?: unknown })?.code ?? 'UNKNOWN') }),
  );

/** "The name has no such record" and "the name does not exist": answers, not failures. */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND']);

/** The DNS layer: does the domain have somewhere to deliver mail? One in-flight lookup per domain, cached. */
export class MailHostChecker {
  private readonly servers: readonly string[] | null;
  private readonly timeoutMs: number;
  private readonly cacheTtlMs: number;
  private readonly unavailableTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly cache = new Map<string, { status: Promise<MailHostStatus>; expiresAt: number }>();

  constructor(options: MailHostOptions = {}) {
    const servers = (options.servers ?? []).map((s) => s.trim()).filter(Boolean);
    this.servers = servers.length > 0 ? servers : null;
    // Refuses a malformed server at start-up rather than on the first check.
    if (this.servers) new Resolver().setServers(this.servers);
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.cacheTtlMs = options.cacheTtlMs ?? 300_000;
    this.unavailableTtlMs = options.unavailableTtlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  check(domain: string): Promise<MailHostStatus> {
    const now = this.now();
    const cached = this.cache.get(domain);
    if (cached && cached.expiresAt > now) return cached.status;
    this.cache.delete(domain);
    while (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    const entry = { status: this.lookup(domain), expiresAt: Number.POSITIVE_INFINITY };
    this.cache.set(domain, entry);
    void entry.status.then((status) => {
      entry.expiresAt = this.now() + (status === 'UNAVAILABLE' ? this.unavailableTtlMs : this.cacheTtlMs);
    });
    return entry.status;
  }

  private async lookup(domain: string): Promise<MailHostStatus> {
    // A resolver per lookup, so the deadline can cancel exactly this lookup's queries.
    const resolver = new Resolver({ timeout: Math.max(50, Math.ceil(this.timeoutMs / 2)), tries: 2 });
    if (this.servers) resolver.setServers(this.servers);
    const deadline = setTimeout(() => resolver.cancel(), this.timeoutMs);
    try {
      const mx = await settle(resolver.resolveMx(domain));
      if (mx.ok && mx.value.length > 0) {
        const nullMx = mx.value.every((r) => r.exchange === '' || r.exchange === '.');
        return nullMx ? 'NULL_MX' : 'MAIL_HOST';
      }
      if (!mx.ok && mx.code === 'ENOTFOUND') return 'DOMAIN_NOT_FOUND';
      if (!mx.ok && mx.code !== 'ENODATA') return 'UNAVAILABLE';
      const addresses = await Promise.all([
        settle(resolver.resolve4(domain)),
        settle(resolver.resolve6(domain)),
      ]);
      if (addresses.some((a) => a.ok && a.value.length > 0)) return 'MAIL_HOST';
      return addresses.every((a) => a.ok || NO_RECORDS.has(a.code)) ? 'NO_MAIL_HOST' : 'UNAVAILABLE';
    } finally {
      clearTimeout(deadline);
    }
  }
}
