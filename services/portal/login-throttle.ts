import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors/catalogue.js';
import type { KvStore } from '../../core/kv/kv.js';

export interface LoginThrottleOptions {
  /** Length of the counting window, from the first failure in it. */
  readonly windowMs?: number;
  /** Failures of one login after which each further attempt for it waits. */
  readonly slowAfter?: number;
  /** First wait; it doubles with each further failure. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Failures of one login, and from one address, after which attempts are refused until the window ends. */
  readonly maxPerLogin?: number;
  readonly maxPerIp?: number;
  /** The waiting itself (tests record instead of sleeping). */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The outcome of one attempt, reported once the credentials were checked. */
export interface LoginAttempt {
  /** The password was right: the login's failures are forgotten and the attempt is not held against the address. */
  succeeded(): Promise<void>;
  /** The password was wrong: the attempt stays counted. */
  failed(): Promise<void>;
}

const DEFAULTS = {
  windowMs: 15 * 60_000,
  slowAfter: 3,
  baseDelayMs: 250,
  maxDelayMs: 2_000,
  maxPerLogin: 10,
  maxPerIp: 50,
};

/**
 * Slows and then refuses repeated failed logins (DESIGN.md section 7, Login), per login and per client address,
 * in fixed windows that start at the first failure (KvStore counters with a TTL, so the limits hold across
 * gateways when the store is Redis).
 *
 * Each attempt is counted as a failure *before* the password is checked and forgiven on success. Checking first
 * and counting after would let a burst of parallel guesses all pass the check before any of them is counted.
 */
export class LoginThrottle {
  private readonly o: Required<Omit<LoginThrottleOptions, 'sleep'>>;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly kv: KvStore,
    options: LoginThrottleOptions = {},
  ) {
    const { sleep, ...rest } = options;
    this.o = { ...DEFAULTS, ...rest };
    this.sleep = sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /**
   * Registers an attempt for `login` from `ip`: throws RATE_LIMIT_EXCEEDED (`details.retryAfterSeconds`) when the
   * login or the address is over its limit, otherwise waits the slow-down due and returns the attempt to report.
   */
  async begin(login: string, ip: string): Promise<LoginAttempt> {
    const loginKey = this.loginKey(login);
    const ipKey = `login-throttle:ip:${ip}`;

    const fromIp = await this.kv.increment(ipKey, 1, this.o.windowMs);
    if (fromIp > this.o.maxPerIp) throw await this.refusal(ipKey);

    const forLogin = await this.kv.increment(loginKey, 1, this.o.windowMs);
    if (forLogin > this.o.maxPerLogin) {
      // Refused by the login's limit: not an attempt the address should pay for.
      await this.forgive(ipKey);
      throw await this.refusal(loginKey);
    }

    const delay = this.delayAfter(forLogin - 1);
    if (delay > 0) await this.sleep(delay);

    let settled = false;
    return {
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.kv.delete(loginKey);
        await this.forgive(ipKey);
      },
      failed: async () => {
        settled = true;
      },
    };
  }

  /** Forgets a login's failures (after a password reset, say). */
  async clear(login: string): Promise<void> {
    await this.kv.delete(this.loginKey(login));
  }

  /** The wait before an attempt that follows `failures` failures: none up to slowAfter, then doubling. */
  delayAfter(failures: number): number {
    if (failures < this.o.slowAfter) return 0;
    return Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** (failures - this.o.slowAfter));
  }

  /** Logins are case-insensitive; hashed so that key names hold no personal data and have a fixed length. */
  private loginKey(login: string): string {
    const digest = createHash('sha256').update(login.trim().toLowerCase()).digest('hex').slice(0, 32);
    return `login-throttle:login:${digest}`;
  }

  /** Takes one attempt back, unless the window it was counted in is already over. */
  private async forgive(key: string): Promise<void> {
    if ((await this.kv.get(key)) !== null) await this.kv.increment(key, -1);
  }

  private async refusal(key: string): Promise<AppError> {
    const ttl = await this.kv.ttl(key);
    const retryAfterSeconds = Math.max(1, Math.ceil((ttl ?? this.o.windowMs) / 1000));
    return new AppError('RATE_LIMIT_EXCEEDED', 'Too many failed login attempts; try again later', {
      retryAfterSeconds,
    });
  }
}
