import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchBound, DEFAULT_PLANS, limitsFor, loadPlans, parsePlans } from './plans.js';

const plansFile = (text: string): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'tg-plans-')), 'plans.json');
  writeFileSync(file, text);
  return file;
};
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
};

describe('plans', () => {
  it('holds the table of DESIGN.md section 7, frozen', () => {
    expect(DEFAULT_PLANS).toEqual({
      FREE: { perMinute: 10, perDay: 500, perMonth: 1_000, batchSize: 10 },
      BASIC: { perMinute: 60, perDay: 10_000, perMonth: 100_000, batchSize: 50 },
      PRO: { perMinute: 300, perDay: 100_000, perMonth: 1_000_000, batchSize: 100 },
      ENTERPRISE: { perMinute: 3_000, perDay: 1_000_000, perMonth: 10_000_000, batchSize: 1_000 },
    });
    expect(Object.isFrozen(DEFAULT_PLANS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_PLANS.FREE)).toBe(true);
  });

  it('uses the defaults without a PLANS_FILE', () => {
    expect(loadPlans()).toBe(DEFAULT_PLANS);
    expect(loadPlans('')).toBe(DEFAULT_PLANS);
  });

  it('lets PLANS_FILE override fields of a known plan and add complete new plans', () => {
    const plans = loadPlans(
      plansFile(
        JSON.stringify({
          FREE: { perMonth: 2_000 },
          STARTUP: { perMinute: 120, perDay: 20_000, perMonth: 300_000, batchSize: 75 },
        }),
      ),
    );
    expect(plans.FREE).toEqual({ perMinute: 10, perDay: 500, perMonth: 2_000, batchSize: 10 });
    expect(plans.STARTUP).toEqual({ perMinute: 120, perDay: 20_000, perMonth: 300_000, batchSize: 75 });
    expect(plans.PRO).toEqual(DEFAULT_PLANS.PRO);
    expect(Object.isFrozen(plans)).toBe(true);
    expect(Object.isFrozen(plans.FREE)).toBe(true);
    expect(DEFAULT_PLANS.FREE!.perMonth).toBe(1_000);
  });

  it('names every bad entry in one error', () => {
    const message = errorOf(() =>
      parsePlans({
        gold: { perMinute: 1, perDay: 1, perMonth: 1, batchSize: 1 },
        FREE: { perMinute: 0, perDay: 1.5, perMonht: 3 },
        BASIC: { batchSize: '50' },
        NEW: { perMinute: 5 },
        PRO: [],
      }),
    );
    expect(message).toMatch(/^PLANS_FILE: invalid plan table: /);
    expect(message).toContain('"gold": plan names are upper-case');
    expect(message).toContain('FREE.perMinute: must be a positive integer, got 0');
    expect(message).toContain('FREE.perDay: must be a positive integer, got 1.5');
    expect(message).toContain('FREE.perMonht: unknown field');
    expect(message).toContain('BASIC.batchSize: must be a positive integer, got "50"');
    expect(message).toContain('NEW.perDay: required for a plan not in the default table');
    expect(message).toContain('NEW.batchSize: required');
    expect(message).not.toContain('NEW.perMinute');
    expect(message).toContain('PRO: must be an object');
  });

  it('refuses a file that is missing, not JSON, or not an object', () => {
    expect(errorOf(() => loadPlans('/nonexistent/plans.json'))).toBe(
      'PLANS_FILE /nonexistent/plans.json: cannot be read (ENOENT)',
    );
    const notJson = plansFile('{"FREE": ');
    expect(errorOf(() => loadPlans(notJson))).toBe(`PLANS_FILE ${notJson}: is not valid JSON`);
    const array = plansFile('[]');
    expect(errorOf(() => loadPlans(array))).toMatch(/must be a JSON object of plans/);
    expect(errorOf(() => parsePlans(null))).toMatch(/must be a JSON object of plans/);
  });

  it('merges per-account overrides over any plan', () => {
    const enterprise = limitsFor(DEFAULT_PLANS, 'ENTERPRISE', { perMinute: 10_000, perMonth: 50_000_000 });
    expect(enterprise).toEqual({
      perMinute: 10_000,
      perDay: 1_000_000,
      perMonth: 50_000_000,
      batchSize: 1_000,
    });
    expect(limitsFor(DEFAULT_PLANS, 'BASIC', { batchSize: 80 })).toEqual({
      ...DEFAULT_PLANS.BASIC,
      batchSize: 80,
    });
    expect(limitsFor(DEFAULT_PLANS, 'PRO')).toBe(DEFAULT_PLANS.PRO);
  });

  it('ignores override values that are not positive integers rather than lifting a limit', () => {
    const bad = { perMinute: 0, perDay: -1, perMonth: Number.POSITIVE_INFINITY, batchSize: undefined };
    expect(limitsFor(DEFAULT_PLANS, 'PRO', bad)).toEqual(DEFAULT_PLANS.PRO);
    expect(limitsFor(DEFAULT_PLANS, 'PRO', { perDay: 2.5 } as never)).toEqual(DEFAULT_PLANS.PRO);
  });

  it("gives an unknown plan FREE's limits, inherited object names included", () => {
    expect(limitsFor(DEFAULT_PLANS, 'PLATINUM')).toEqual(DEFAULT_PLANS.FREE);
    expect(limitsFor(DEFAULT_PLANS, 'free')).toEqual(DEFAULT_PLANS.FREE);
    expect(limitsFor(DEFAULT_PLANS, 'constructor')).toEqual(DEFAULT_PLANS.FREE);
    expect(limitsFor(DEFAULT_PLANS, 'PLATINUM', { perMinute: 20 })).toEqual({
      ...DEFAULT_PLANS.FREE,
      perMinute: 20,
    });
    const custom = parsePlans({ FREE: { perMinute: 3 } });
    expect(limitsFor(custom, 'PLATINUM').perMinute).toBe(3);
  });

  it('bounds a batch by the smaller of plan and endpoint', () => {
    expect(batchBound(10, 100)).toBe(10);
    expect(batchBound(1_000, 100)).toBe(100);
    expect(batchBound(100, 100)).toBe(100);
    expect(batchBound(DEFAULT_PLANS.ENTERPRISE!.batchSize, 1_000)).toBe(1_000);
  });
});
