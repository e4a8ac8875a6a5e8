/**
 * What the gateway pipeline needs from the rest of the platform, as narrow structural types: the composition
 * root passes the real adapters (key lookup, accounts read model, JWT service, rate limiter, metering sink).
 */
export interface KeyRecordView {
  readonly keyId: string;
  readonly accountId: string;
  readonly scopes: readonly string[];
  readonly expiresAt: string | null;
  readonly revoked: boolean;
  /** Set on the old hash of a rerolled key: usable until then. */
  readonly validUntil: string | null;
}

export interface LimitsView {
  readonly perMinute: number;
  readonly perDay: number;
  readonly perMonth: number;
  readonly batchSize: number;
}

export interface AccountView {
  readonly accountId: string;
  readonly login: string;
  readonly plan: string;
  readonly planLimits: Partial<LimitsView> | null;
  readonly roles: readonly string[];
  readonly activated: boolean;
}

export interface RateDecisionView {
  readonly allowed: boolean;
  readonly code?: 'RATE_LIMIT_EXCEEDED' | 'QUOTA_EXCEEDED';
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: number;
  readonly retryAfterSeconds?: number;
}

export interface ServiceCallView {
  readonly eventId: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly slug: string;
  readonly operationId: string;
  readonly convention: 'S' | 'R' | 'D';
  readonly status: number;
  readonly latencyMs: number;
  readonly at: string;
}

export interface GatewayPorts {
  readonly keys: { find(keyHash: string): Promise<KeyRecordView | null> };
  readonly accounts: { byId(accountId: string): Promise<AccountView | null> };
  readonly jwt: {
    verify(token: string): Promise<{ accountId: string; login: string; roles: readonly string[] }>;
  };
  readonly limits: (plan: string, overrides: Partial<LimitsView> | null) => LimitsView;
  readonly limiter: {
    consume(req: {
      keyId: string;
      accountId: string;
      limits: LimitsView;
      now: number;
    }): Promise<RateDecisionView>;
    release(accountId: string, now: number): Promise<void>;
  };
  readonly metering: { record(call: ServiceCallView): Promise<void> };
  readonly now?: () => Date;
}
