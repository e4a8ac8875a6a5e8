import { readFileSync } from 'node:fs';

/**
 * The plan table (DESIGN.md section 7, SPEC.md section 8) as data. `PLANS_FILE` may override or extend it;
 * per-account overrides (ENTERPRISE's custom values) are merged by limitsFor() at request time.
 */
export interface PlanLimits {
  /** Sliding one-minute window, per API key. */
  readonly perMinute: number;
  /** Sliding 24-hour window, per API key. */
  readonly perDay: number;
  /** Calls answered 2xx per calendar month (UTC), per account. */
  readonly perMonth: number;
  /** Items one batch call may carry (before the endpoint's own bound: batchBound()). */
  readonly batchSize: number;
}

export type Plans = Readonly<Record<string, PlanLimits>>;

const FIELDS = ['perMinute', 'perDay', 'perMonth', 'batchSize'] as const;

/** The DEFAULT_PLAN setting's rule (core/config/settings.ts), so every configured name can be found. */
const PLAN_NAME = /^[A-Z][A-Z0-9_]{0,31}$/;

/** The plan every account gets when nothing else applies, and the fallback for unknown plan names. */
export const FALLBACK_PLAN = 'FREE';

export const DEFAULT_PLANS: Plans = Object.freeze({
  FREE: Object.freeze({ perMinute: 10, perDay: 500, perMonth: 1_000, batchSize: 10 }),
  BASIC: Object.freeze({ perMinute: 60, perDay: 10_000, perMonth: 100_000, batchSize: 50 }),
  PRO: Object.freeze({ perMinute: 300, perDay: 100_000, perMonth: 1_000_000, batchSize: 100 }),
  // Defaults only: ENTERPRISE accounts usually carry their own values (limitsFor's accountOverrides).
  ENTERPRISE: Object.freeze({ perMinute: 3_000, perDay: 1_000_000, perMonth: 10_000_000, batchSize: 1_000 }),
});

const isPositiveInteger = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/**
 * Merges a PLANS_FILE object into the defaults. A plan already in the table may give only the fields it
 * changes; a new plan must give all four. Every problem is collected so one start-up error names all the bad
 * entries.
 */
export function parsePlans(raw: unknown, source = 'PLANS_FILE'): Plans {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error(`${source}: must be a JSON object of plans, e.g. {"FREE": {"perMinute": 10, ...}}`);
  }
  const problems: string[] = [];
  const plans: Record<string, PlanLimits> = { ...DEFAULT_PLANS };
  for (const [name, entry] of Object.entries(raw)) {
    if (!PLAN_NAME.test(name)) {
      problems.push(`${JSON.stringify(name)}: plan names are upper-case (A-Z, 0-9, _), e.g. FREE`);
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${name}: must be an object with ${FIELDS.join(', ')}`);
      continue;
    }
    const base = Object.hasOwn(DEFAULT_PLANS, name) ? DEFAULT_PLANS[name] : undefined;
    const merged: Record<string, number> = { ...base };
    for (const [field, value] of Object.entries(entry)) {
      if (!(FIELDS as readonly string[]).includes(field)) {
        problems.push(`${name}.${field}: unknown field (allowed: ${FIELDS.join(', ')})`);
      } else if (!isPositiveInteger(value)) {
        problems.push(`${name}.${field}: must be a positive integer, got ${JSON.stringify(value)}`);
      } else {
        merged[field] = value;
      }
    }
    if (!base) {
      for (const field of FIELDS) {
        if (!(field in entry))
          problems.push(`${name}.${field}: required for a plan not in the default table`);
      }
    }
    plans[name] = Object.freeze(merged as unknown as PlanLimits);
  }
  if (problems.length > 0) throw new Error(`${source}: invalid plan table: ${problems.join('; ')}`);
  return Object.freeze(plans);
}

/** The plan table: the defaults, overridden and extended by the JSON file at `plansFile` when given. */
export function loadPlans(plansFile?: string): Plans {
  if (!plansFile) return DEFAULT_PLANS;
  let text: string;
  try {
    text = readFileSync(plansFile, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`PLANS_FILE ${plansFile}: cannot be read (${reason})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`PLANS_FILE ${plansFile}: is not valid JSON`);
  }
  return parsePlans(raw, `PLANS_FILE ${plansFile}`);
}

/**
 * The limits that apply to one account: its plan's row with the account's own values on top (any field that
 * is a positive integer; anything else keeps the plan's value, so a bad stored override cannot lift a limit).
 * An unknown plan name (a plan removed from PLANS_FILE, a typo in an admin change) gets FREE's limits:
 * failing closed to the smallest plan keeps the account working without ever granting unlimited or larger
 * access.
 */
export function limitsFor(plans: Plans, plan: string, accountOverrides?: Partial<PlanLimits>): PlanLimits {
  // hasOwn: a name such as "constructor" must not resolve to something inherited from Object.prototype.
  const own = (name: string) => (Object.hasOwn(plans, name) ? plans[name] : undefined);
  const base = own(plan) ?? own(FALLBACK_PLAN) ?? DEFAULT_PLANS[FALLBACK_PLAN]!;
  if (!accountOverrides) return base;
  const merged: Record<string, number> = { ...base };
  for (const field of FIELDS) {
    const value = accountOverrides[field];
    if (isPositiveInteger(value)) merged[field] = value;
  }
  return Object.freeze(merged as unknown as PlanLimits);
}

/** DESIGN.md section 7: the smaller of the plan's batch size and the endpoint's maximum wins. */
export function batchBound(planBatch: number, endpointMax: number): number {
  return Math.min(planBatch, endpointMax);
}
