/**
 * The official JSON-Schema-Test-Suite (../shared/testdata/json-schema-test-suite/, beside the repository) run
 * through the validator's own domain: SchemaCompiler and validateValue, exactly as the routes use them. The
 * suite's remotes (http://localhost:1234/…) are handed over as known documents, so nothing is fetched.
 *
 * A test passes when the verdict matches and the schema was usable (a schema the service refuses does make
 * the document "invalid", but for the wrong reason: that counts as a failure). Each draft must reach its
 * measured floor; every failure must be in KNOWN_FAILURES with its reason, and every entry there must still
 * fail.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Draft } from '../../services/json-validator/drafts.js';
import { SchemaCompiler } from '../../services/json-validator/schema-compiler.js';
import { validateValue } from '../../services/json-validator/validate.js';
import { KNOWN_FAILURES, type KnownFailure } from './known-failures.js';

const SUITE = fileURLToPath(new URL('../../../shared/testdata/json-schema-test-suite/', import.meta.url));

/** Suite directory → the draft its schemas are read in when they have no `$schema`. */
const DRAFT_DIRS: [dir: string, draft: Draft][] = [
  ['draft4', 'draft-04'],
  ['draft6', 'draft-06'],
  ['draft7', 'draft-07'],
  ['draft2019-09', '2019-09'],
  ['draft2020-12', '2020-12'],
];

/** Pass rates (percent) measured with ajv 8.20 and ajv-formats 3.0.1; a drop below fails the build. */
const FLOORS: Record<string, { required: number; optional: number }> = {
  draft4: { required: 99.3, optional: 97 },
  draft6: { required: 99.5, optional: 95 },
  draft7: { required: 99.5, optional: 85 },
  'draft2019-09': { required: 97.9, optional: 87 },
  'draft2020-12': { required: 94.2, optional: 87 },
};

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? filesUnder(p) : p.endsWith('.json') ? [p] : [];
    });

function remotes(): Map<string, unknown> {
  const root = join(SUITE, 'remotes');
  return new Map(
    filesUnder(root).map((f) => [
      `http://localhost:1234/${relative(root, f)}`,
      JSON.parse(readFileSync(f, 'utf8')),
    ]),
  );
}

interface Failure {
  readonly file: string;
  readonly group: string;
  readonly test: string;
  readonly why: string;
}

const matches = (k: KnownFailure, dir: string, f: Failure) =>
  k.dirs.includes(dir) &&
  k.file === f.file &&
  (k.group === undefined || k.group === f.group) &&
  (k.test === undefined || k.test === f.test);

interface DraftResult {
  passed: number;
  total: number;
  failures: Failure[];
}

async function runDraft(dir: string, draft: Draft, optional: boolean): Promise<DraftResult> {
  const compiler = new SchemaCompiler({ knownDocuments: remotes(), defaultDraft: draft, cacheSize: 1_000 });
  const base = join(SUITE, 'tests', dir);
  const result: DraftResult = { passed: 0, total: 0, failures: [] };
  for (const path of filesUnder(base)) {
    const file = relative(base, path);
    if (file.startsWith('optional/') !== optional) continue;
    for (const group of JSON.parse(readFileSync(path, 'utf8')) as SuiteGroup[]) {
      const compiled = await compiler.compile(group.schema);
      for (const t of group.tests) {
        result.total++;
        const outcome = await validateValue(t.data, group.schema, compiler);
        let why = '';
        if (!compiled.ok) why = `schema refused: ${compiled.problems[0]?.message}`;
        else if (outcome.valid !== t.valid) {
          why = t.valid ? `reported invalid: ${outcome.issues[0]?.message}` : 'reported valid';
        }
        if (why) result.failures.push({ file, group: group.description, test: t.description, why });
        else result.passed++;
      }
    }
  }
  return result;
}

const table: Record<string, string>[] = [];
afterAll(() => {
  console.log('\nJSON-Schema-Test-Suite through the json-validator domain (SchemaCompiler + validateValue)');
  console.table(table);
});

const percent = (r: DraftResult) => Math.floor((r.passed / r.total) * 1000) / 10;

describe('JSON-Schema-Test-Suite', () => {
  it('is present beside the repository (it is never fetched)', () => {
    expect(existsSync(join(SUITE, 'tests')), SUITE).toBe(true);
    expect(existsSync(join(SUITE, 'remotes')), SUITE).toBe(true);
  });

  for (const [dir, draft] of DRAFT_DIRS) {
    for (const optional of [false, true]) {
      const part = optional ? 'optional' : 'required';
      it(`${dir} (${part}): at least ${FLOORS[dir]![part]}% pass, every failure known`, async () => {
        const result = await runDraft(dir, draft, optional);
        const known = KNOWN_FAILURES.filter((k) => k.dirs.includes(dir) && k.optional === optional);
        const unknown = result.failures.filter((f) => !known.some((k) => matches(k, dir, f)));
        const stale = known.filter((k) => !result.failures.some((f) => matches(k, dir, f)));
        table.push({
          draft: dir,
          part,
          passed: String(result.passed),
          total: String(result.total),
          'pass rate': `${percent(result)}%`,
          'known failures': String(result.failures.length - unknown.length),
        });
        expect(result.total).toBeGreaterThan(optional ? 300 : 600);
        expect(
          unknown.map((f) => `${f.file} | ${f.group} | ${f.test}: ${f.why}`),
          'failures missing from KNOWN_FAILURES',
        ).toEqual([]);
        expect(
          stale.map((k) => `${k.file} | ${k.group ?? '*'} | ${k.test ?? '*'}`),
          'KNOWN_FAILURES entries that pass now: remove them',
        ).toEqual([]);
        expect(percent(result)).toBeGreaterThanOrEqual(FLOORS[dir]![part]);
      });
    }
  }
});
