import { describe, expect, it } from 'vitest';
import { escapePointer, render } from './messages.js';
import { SchemaCompiler } from './schema-compiler.js';

const compiler = new SchemaCompiler();

/** The sentences the validator gives for `data` against `schema` (through the real compiler and ajv). */
async function explain(schema: unknown, data: unknown): Promise<[string, string][]> {
  const compiled = await compiler.compile(schema);
  if (!compiled.ok) throw new Error(compiled.problems[0]?.message);
  return compiled.validate(data).map((i) => [i.path, i.message]);
}

describe('issue messages', () => {
  it('name the value by its JSON Pointer and say what it must be', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[A-Z]' },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        score: { exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
        role: { enum: ['admin', 'user'] },
        v: { const: 3 },
        tags: { type: 'array', minItems: 2, maxItems: 3, uniqueItems: true },
        meta: { type: 'object', minProperties: 2, maxProperties: 2 },
        x: { type: ['string', 'null'] },
        w: { not: { type: 'null' } },
        no: false,
      },
    };
    const data = {
      name: 'a',
      email: 'ada.example.com',
      age: -1.5,
      score: 1.1,
      role: 'root',
      v: 4,
      tags: ['a', 'a', 'b', 'c'],
      meta: {},
      x: 5,
      w: null,
      no: 1,
    };
    expect(await explain(schema, data)).toEqual([
      ['/name', '/name must be at least 2 characters long'],
      ['/name', '/name must match the pattern "^[A-Z]"'],
      ['/email', '/email must match the format "email"'],
      ['/age', '/age must be an integer, not a number with a fraction'],
      ['/age', '/age must be at least 0'],
      ['/score', '/score must be less than 1'],
      ['/score', '/score must be a multiple of 0.25'],
      ['/role', '/role must be one of: "admin", "user"'],
      ['/v', '/v must be 3'],
      ['/tags', '/tags must have at most 3 items'],
      ['/tags', '/tags must not contain duplicates (items 0 and 1 are equal)'],
      ['/meta', '/meta must have at least 2 properties'],
      ['/x', '/x must be a string or null, not an integer'],
      ['/w', '/w must not match the schema in "not"'],
      ['/no', '/no is not allowed (its schema is false)'],
    ]);
    expect(await explain({ type: 'object' }, [1])).toEqual([
      ['', 'The document must be an object, not an array'],
    ]);
    expect(await explain({ maxLength: 2, minimum: 3 }, 'abc')).toEqual([
      ['', 'The document must be at most 2 characters long'],
    ]);
  });

  it('point at a missing, forbidden or dependent property itself', async () => {
    const schema = {
      type: 'object',
      required: ['name'],
      properties: { card: {}, a: { type: 'object', additionalProperties: false, properties: { b: {} } } },
      dependentRequired: { card: ['billing'] },
    };
    expect(await explain(schema, { card: 'x', a: { b: 1, 'c/d': 2 } })).toEqual([
      ['/name', '/name is required'],
      ['/a/c~1d', '/a/c~1d is not an allowed property'],
      ['/billing', '/billing is required when /card is present'],
    ]);
    expect(await explain({ unevaluatedProperties: false, properties: { a: {} } }, { a: 1, z: 2 })).toEqual([
      ['/z', '/z is not an allowed property'],
    ]);
    expect(
      await explain(
        { $schema: 'http://json-schema.org/draft-07/schema#', dependencies: { a: ['b'] } },
        { a: 1 },
      ),
    ).toEqual([['/b', '/b is required when /a is present']]);
  });

  it('fold the failed branches of anyOf, oneOf and contains into one sentence', async () => {
    const schema = {
      $defs: { cat: { required: ['meow'] }, dog: { required: ['bark'] } },
      properties: {
        id: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] },
        pet: { oneOf: [{ $ref: '#/$defs/cat' }, { $ref: '#/$defs/dog' }] },
        both: { oneOf: [{ type: 'integer' }, { minimum: 2 }] },
        list: { contains: { type: 'number' }, items: { type: 'string' } },
      },
    };
    expect(await explain(schema, { id: 1.5, pet: {}, both: 3, list: ['a', 1] })).toEqual([
      ['/id', '/id must be a string, or must be an integer'],
      ['/pet', '/pet must match exactly one of the schemas in "oneOf", but matches none'],
      ['/both', '/both must match exactly one of the schemas in "oneOf", but matches 0 and 1'],
      ['/list/1', '/list/1 must be a string, not an integer'],
    ]);
    expect(await explain(schema, { list: ['a'] })).toEqual([
      ['/list', '/list must contain at least 1 item matching the "contains" schema'],
    ]);
  });

  it('report then/else failures without the "if" noise, and bad property names by name', async () => {
    const schema = {
      if: { properties: { kind: { const: 'a' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's "then"; this object is never awaited
      then: { required: ['a'] },
      else: { required: ['b'] },
      properties: { meta: { propertyNames: { pattern: '^[a-z]+$' } } },
    };
    expect(await explain(schema, { kind: 'a', meta: { ok: 1, Bad: 2 } })).toEqual([
      ['/a', '/a is required'],
      ['/meta/Bad', 'The property name "Bad" at /meta must match the pattern "^[a-z]+$"'],
    ]);
    expect(await explain({ propertyNames: { maxLength: 2 } }, { abc: 1 })).toEqual([
      ['/abc', 'The property name "abc" must be at most 2 characters long'],
    ]);
  });

  it('shorten long values and lists', async () => {
    const many = Array.from({ length: 15 }, (_, i) => `v${i}`);
    const [[, message]] = (await explain({ enum: many }, 'x')) as [[string, string]];
    expect(message).toBe(
      'The document must be one of: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", ' +
        '"v11" (or 3 more)',
    );
    expect(render('x'.repeat(100))).toHaveLength(60);
    expect(escapePointer('a/b~c')).toBe('a~1b~0c');
  });
});
