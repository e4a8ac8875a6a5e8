import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAFT, draftOfUri } from './drafts.js';
import { type CompiledSchema, SchemaCompiler } from './schema-compiler.js';

const ok = (c: CompiledSchema) => {
  if (!c.ok) throw new Error(`schema refused: ${c.problems[0]?.message}`);
  return c;
};
const problems = (c: CompiledSchema) => {
  if (c.ok) throw new Error('expected the schema to be refused');
  return c.problems;
};

describe('draft selection', () => {
  it('reads $schema as people write it, and defaults to 2020-12', () => {
    expect(DEFAULT_DRAFT).toBe('2020-12');
    expect(draftOfUri('http://json-schema.org/draft-04/schema#')).toBe('draft-04');
    expect(draftOfUri('https://json-schema.org/draft-06/schema')).toBe('draft-06');
    expect(draftOfUri('http://www.json-schema.org/draft-07/schema#')).toBe('draft-07');
    expect(draftOfUri('https://json-schema.org/draft/2019-09/schema')).toBe('2019-09');
    expect(draftOfUri('https://json-schema.org/draft/2020-12/schema#')).toBe('2020-12');
    expect(draftOfUri('http://json-schema.org/schema#')).toBe('2020-12');
    expect(draftOfUri('https://example.com/draft-07/schema')).toBeNull();
    expect(draftOfUri('http://json-schema.org/draft-03/schema#')).toBeNull();
  });

  it('applies each draft by its own rules', async () => {
    const compiler = new SchemaCompiler();
    // Draft 4: exclusiveMaximum is a boolean modifier; 2020-12: a number.
    const d4 = ok(
      await compiler.compile({
        $schema: 'http://json-schema.org/draft-04/schema#',
        maximum: 5,
        exclusiveMaximum: true,
      }),
    );
    expect(d4.draft).toBe('draft-04');
    expect(d4.validate(5)).toEqual([{ path: '', message: 'The document must be less than 5' }]);
    expect(ok(await compiler.compile({ exclusiveMaximum: 5 })).validate(5)).toHaveLength(1);
    // The same keyword means different things: items as an array is a tuple in draft 7, refused in 2020-12.
    const tuple = { items: [{ type: 'string' }], additionalItems: false };
    const d7 = ok(await compiler.compile({ $schema: 'http://json-schema.org/draft-07/schema#', ...tuple }));
    expect(d7.validate(['a', 'b'])).toEqual([{ path: '', message: 'The document must have at most 1 item' }]);
    expect(problems(await compiler.compile(tuple))[0]!.message).toMatch(
      /^The schema is not valid JSON Schema \(draft 2020-12\): \/items must be/,
    );
    const p = ok(await compiler.compile({ prefixItems: [{ type: 'string' }], items: false }));
    expect(p.validate(['a', 'b'])).toEqual([{ path: '', message: 'The document must have at most 1 item' }]);
    // Draft 6 is accepted ($schema draft-06) and has const; draft 2019-09 has dependentRequired.
    const d6 = ok(await compiler.compile({ $schema: 'http://json-schema.org/draft-06/schema#', const: 1 }));
    expect([d6.draft, d6.validate(2).length]).toEqual(['draft-06', 1]);
    const d19 = ok(
      await compiler.compile({
        $schema: 'https://json-schema.org/draft/2019-09/schema',
        dependentRequired: { a: ['b'] },
      }),
    );
    expect([d19.draft, d19.validate({ a: 1 })]).toEqual([
      '2019-09',
      [{ path: '/b', message: '/b is required when /a is present' }],
    ]);
  });

  it('checks formats in every draft', async () => {
    const compiler = new SchemaCompiler();
    for (const $schema of [
      'http://json-schema.org/draft-04/schema#',
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      const c = ok(await compiler.compile({ $schema, format: 'date-time' }));
      expect(c.validate('2024-02-30T10:00:00Z'), $schema).toHaveLength(1);
      expect(c.validate('2024-02-29T10:00:00Z'), $schema).toEqual([]);
    }
  });

  it('lets the default draft be chosen (the test suite runs drafts 4 to 7 without $schema)', async () => {
    const d4 = new SchemaCompiler({ defaultDraft: 'draft-04' });
    expect(ok(await d4.compile({ minimum: 1 })).draft).toBe('draft-04');
    expect(problems(await d4.compile(true))[0]!.message).toMatch(/Draft 4 has no boolean schemas/);
  });
});

describe('schemas that cannot be used', () => {
  const compiler = new SchemaCompiler();

  it('never fetches a remote $ref: it explains why instead', async () => {
    expect(problems(await compiler.compile({ $ref: 'https://example.com/person.json' }))).toEqual([
      {
        path: '',
        message:
          'The schema refers to "https://example.com/person.json", a document this service does not have: ' +
          'remote references are never fetched. Put the referenced schema under "$defs" and refer to it ' +
          'locally ("#/$defs/…")',
      },
    ]);
    // A relative reference under a remote base URI is remote too.
    const relative = await compiler.compile({ $id: 'https://example.com/a/root.json', $ref: 'address.json' });
    expect(problems(relative)[0]!.message).toContain('"https://example.com/a/address.json"');
  });

  it('resolves documents it was given, and local references across $id scopes', async () => {
    const known = new Map([['urn:example:positive', { type: 'number', exclusiveMinimum: 0 }]]);
    const withKnown = new SchemaCompiler({ knownDocuments: known });
    expect(ok(await withKnown.compile({ $ref: 'urn:example:positive' })).validate(-1)).toHaveLength(1);
    const scoped = {
      $id: 'https://example.com/root.json',
      $defs: { a: { $id: 'a.json', type: 'string' } },
      properties: { x: { $ref: 'a.json' } },
    };
    expect(ok(await compiler.compile(scoped)).validate({ x: 1 })).toHaveLength(1);
  });

  it('explains missing local references, invalid patterns, invalid schemas and unknown $schema', async () => {
    expect(problems(await compiler.compile({ $ref: '#/$defs/none' }))[0]!.message).toBe(
      'The schema refers to "#/$defs/none", which does not exist in the schema (check "$ref" and "$defs")',
    );
    expect(problems(await compiler.compile({ pattern: '(' }))[0]!.message).toMatch(
      /^The schema contains a pattern that is not a valid regular expression: .*Unterminated group/,
    );
    const invalid = problems(await compiler.compile({ type: 'text', minimum: 'x' })).map((p) => p.message);
    expect(invalid.sort()).toEqual([
      'The schema is not valid JSON Schema (draft 2020-12): /minimum must be a number, not a string',
      'The schema is not valid JSON Schema (draft 2020-12): /type must be one of: "array", "boolean", ' +
        '"integer", "null", "number", "object", "string", or must be an array',
    ]);
    expect(problems(await compiler.compile({ $schema: 'https://example.com/mine' }))[0]!.message).toBe(
      'The schema\'s "$schema" "https://example.com/mine" names no draft this service supports (draft 4, ' +
        '6, 7, 2019-09 or 2020-12); remove it to read the schema as draft 2020-12',
    );
    expect(problems(await compiler.compile([1]))[0]!.message).toBe(
      'The schema must be a JSON object or a boolean',
    );
  });

  it('reports a schema whose references loop without end instead of crashing', async () => {
    expect(ok(await compiler.compile({ $ref: '#' })).validate(1)).toEqual([
      {
        path: '',
        message:
          'The schema cannot be applied: its references loop without ever reaching a keyword that checks ' +
          'the document',
      },
    ]);
  });

  it('ignores unknown keywords and unknown formats, as the drafts require', async () => {
    const c = ok(await compiler.compile({ type: 'string', 'x-note': 1, format: 'no-such-format' }));
    expect(c.validate('anything')).toEqual([]);
  });

  it('does not let inherited members satisfy required or properties', async () => {
    const c = ok(
      await compiler.compile({ required: ['constructor'], properties: { toString: { type: 'number' } } }),
    );
    expect(c.validate({})).toEqual([{ path: '/constructor', message: '/constructor is required' }]);
  });
});

describe('the compile cache', () => {
  it('compiles a schema once, whatever the order of its keys', async () => {
    const compiler = new SchemaCompiler();
    const a = compiler.compile({ type: 'string', minLength: 1 });
    const b = compiler.compile({ minLength: 1, type: 'string' });
    expect(b).toBe(a);
    expect(compiler.compile({ minLength: 2, type: 'string' })).not.toBe(a);
  });

  it('forgets the least recently used schema beyond its size', async () => {
    const compiler = new SchemaCompiler({ cacheSize: 2 });
    const one = compiler.compile({ minimum: 1 });
    const two = compiler.compile({ minimum: 2 });
    expect(compiler.compile({ minimum: 1 })).toBe(one);
    compiler.compile({ minimum: 3 });
    expect(compiler.compile({ minimum: 1 })).toBe(one);
    expect(compiler.compile({ minimum: 2 })).not.toBe(two);
  });

  it('keeps schemas with the same $id apart (each compiles in its own ajv)', async () => {
    const compiler = new SchemaCompiler();
    const a = ok(await compiler.compile({ $id: 'https://example.com/s.json', type: 'string' }));
    const b = ok(await compiler.compile({ $id: 'https://example.com/s.json', type: 'number' }));
    expect([a.validate('x'), b.validate(1)]).toEqual([[], []]);
  });
});
