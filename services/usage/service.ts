import { AppError } from '../../core/errors/catalogue.js';
import type { ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';

/** What the usage routes read; the composition root passes the profile's read models. */
export interface UsageDeps {
  readonly usage: {
    monthly(accountId: string, period: string): Promise<{ used: number; breakdown: Record<string, number> }>;
    stats(now: Date): Promise<{
      callsToday: number;
      callsThisMonth: number;
      topServices: { slug: string; calls: number }[];
      errorRate: number;
    }>;
  };
  readonly accounts: {
    byId(accountId: string): Promise<{ plan: string; planLimits: { perMonth?: number } | null } | null>;
    count(): Promise<number>;
  };
  readonly activeKeys: () => Promise<number>;
  readonly monthlyLimit: (plan: string, overrides: { perMonth?: number } | null) => number;
}

export const periodOf = (d: Date): string => d.toISOString().slice(0, 7);

export function createUsageService(deps: UsageDeps): ServiceDefinition {
  return {
    slug: 'portal',
    title: 'Usage',
    description: "The signed-in account's usage, and platform statistics for administrators.",
    routes: [
      {
        convention: 'portal',
        method: 'GET',
        path: '/api/portal/usage',
        operationId: 'getUsage',
        summary: 'Usage of the current month',
        description:
          'Calls answered 2xx in the current calendar month (UTC) against the plan limit, with a per-service breakdown.',
        auth: 'jwt',
        metered: false,
        schemas: { response: { 200: apiSchema('usage/usage-response.json') } },
        handler: async (_input, ctx) => {
          const account = await deps.accounts.byId(ctx.accountId!);
          if (!account) throw new AppError('NOT_FOUND', 'account not found');
          const period = periodOf(ctx.now());
          const { used, breakdown } = await deps.usage.monthly(ctx.accountId!, period);
          const limit = deps.monthlyLimit(account.plan, account.planLimits);
          return {
            status: 'OK',
            data: {
              plan: account.plan,
              period,
              used,
              limit,
              remaining: Math.max(0, limit - used),
              breakdown,
            },
          };
        },
      },
      {
        convention: 'R',
        method: 'GET',
        path: '/api/v1/admin/stats',
        operationId: 'getAdminStats',
        summary: 'Platform statistics',
        description:
          'Accounts, active API keys, metered calls today and this month, the busiest services and the error rate. ' +
          'Needs the Bearer token of an account with ROLE_ADMIN together with an API key of that account.',
        auth: 'admin',
        metered: false,
        schemas: { response: { 200: apiSchema('usage/admin-stats-response.json') } },
        handler: async (_input, ctx) => {
          const now = ctx.now();
          const [accounts, activeKeys, stats] = await Promise.all([
            deps.accounts.count(),
            deps.activeKeys(),
            deps.usage.stats(now),
          ]);
          return { accounts, activeKeys, ...stats, generatedAt: now.toISOString() };
        },
      },
    ],
  };
}
