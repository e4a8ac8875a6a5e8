import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { runJob } from './jobs.js';
import { SchemaCompiler } from './schema-compiler.js';
import {
  checkSyntax,
  MAX_DEPTH,
  MAX_ISSUES,
  nestsDeeperThan,
  validateText,
  validateValue,
} from './validate.js';

const compiler = new SchemaCompiler();
const person = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
};

const refusal = async (work: () => Promise<unknown>) => {
  try {
    await work();
  } catch (e) {
    if (e instanceof AppError) return `${e.code} ${e.message}`;
    throw e;
  }
  throw new Error('expected an AppError');
};

describe('modes', () => {
  it('SYNTAX parses only: a text that breaks the schema is still valid', async () => {
    const out = await validateText({ json: '{"email": 1}', mode: 'SYNTAX', schema: person }, compiler);
    expect(out).toEqual({ valid: true, issueCount: 0, issues: [] });
  });

  it('SCHEMA and FULL validate against the schema', async () => {
    for (const mode of ['SCHEMA', 'FULL'] as const) {
      const out = await validateText({ json: '{"email": "x"}', mode, schema: person }, compiler);
      expect(out).toEqual({
        valid: false,
        issueCount: 2,
        issues: [
          { severity: 'ERROR', category: 'SCHEMA', path: '/name', message: '/name is required' },
          {
            severity: 'ERROR',
            category: 'SCHEMA',
            path: '/email',
            message: '/email must match the format "email"',
          },
        ],
      });
    }
  });

  it('reports a text that does not parse with line and column, in every mode', async () => {
    for (const mode of ['SYNTAX', 'SCHEMA', 'FULL'] as const) {
      const out = await validateText(
        { json: '{\n  "name": "Ada"\n  "email": "a@b.co"\n}', mode, schema: person },
        compiler,
      );
      expect(out).toEqual({
        valid: false,
        issueCount: 1,
        issues: [
          {
            severity: 'ERROR',
            category: 'SYNTAX',
            path: null,
            message: "Expected ',' or '}' after property value, found '\"' (is a comma missing?)",
            line: 3,
            column: 3,
          },
        ],
      });
    }
  });

  it("is valid only without issues, and reports the schema's own problems as the document's", async () => {
    expect((await validateValue({ name: 'Ada' }, person, compiler)).valid).toBe(true);
    const out = await validateValue({}, { $ref: 'https://example.com/x.json' }, compiler);
    expect(out.valid).toBe(false);
    expect(out.issues[0]).toMatchObject({ category: 'SCHEMA', path: '' });
  });

  it('takes a string document as a JSON string value, not as a text to parse', async () => {
    expect((await validateValue('{"a": 1}', { type: 'object' }, compiler)).issues[0]?.message).toBe(
      'The document must be an object, not a string',
    );
    expect((await validateValue('{', { type: 'string' }, compiler)).valid).toBe(true);
  });
});

describe('limits', () => {
  it('lists at most MAX_ISSUES issues but counts them all', async () => {
    const out = await validateValue(
      Array.from({ length: 150 }, (_, i) => i),
      { items: { type: 'string' } },
      compiler,
    );
    expect([out.valid, out.issueCount, out.issues.length]).toEqual([false, 150, MAX_ISSUES]);
  });

  it('refuses documents and schemas nested deeper than MAX_DEPTH', async () => {
    const nested = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown;
    expect(nestsDeeperThan(nested(MAX_DEPTH), MAX_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_DEPTH + 1), MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(nested(100_000), MAX_DEPTH)).toBe(true);
    expect(checkSyntax(JSON.stringify(nested(MAX_DEPTH))).valid).toBe(true);
    expect(await refusal(async () => checkSyntax('['.repeat(300) + ']'.repeat(300)))).toBe(
      'VALIDATION_ERROR json: must not nest arrays and objects deeper than 256 levels',
    );
    expect(await refusal(() => validateValue(nested(300), {}, compiler))).toBe(
      'VALIDATION_ERROR document: must not nest arrays and objects deeper than 256 levels',
    );
    let schema: unknown = {};
    for (let i = 0; i < 300; i++) schema = { items: schema };
    expect(await refusal(() => validateValue([], schema, compiler))).toBe(
      'VALIDATION_ERROR schema: must not nest arrays and objects deeper than 256 levels',
    );
  });
});

describe('jobs', () => {
  it('carry refusals as data, so they survive a worker boundary', async () => {
    expect(await runJob({ op: 'syntax', json: '['.repeat(300) }, compiler)).toMatchObject({ ok: true });
    expect(await runJob({ op: 'syntax', json: `${'['.repeat(300)}${']'.repeat(300)}` }, compiler)).toEqual({
      ok: false,
      code: 'VALIDATION_ERROR',
      message: 'json: must not nest arrays and objects deeper than 256 levels',
    });
    expect(await runJob({ op: 'value', document: 1, schema: { type: 'string' } }, compiler)).toMatchObject({
      ok: true,
      outcome: { valid: false, issueCount: 1 },
    });
  });
});
