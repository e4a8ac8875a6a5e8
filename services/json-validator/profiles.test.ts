import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { profileNames, profileSchema } from './profiles.js';
import { SchemaCompiler } from './schema-compiler.js';

const compiler = new SchemaCompiler();

/** `[path, message]` of every issue of `doc` against the profile. */
async function check(profile: string, doc: unknown): Promise<[string, string][]> {
  const compiled = await compiler.compile(profileSchema(profile));
  if (!compiled.ok) throw new Error(compiled.problems[0]?.message);
  return compiled.validate(doc).map((i) => [i.path, i.message]);
}

const repoFile = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8')) as unknown;

describe('profiles', () => {
  it('are the schema files shipped in profiles/, each valid in its own draft', async () => {
    expect(profileNames()).toEqual(['geojson', 'openapi-3.1', 'package.json', 'tsconfig.json']);
    const drafts: Record<string, string> = {};
    for (const name of profileNames()) {
      const compiled = await compiler.compile(profileSchema(name));
      if (!compiled.ok) throw new Error(`${name}: ${compiled.problems[0]?.message}`);
      drafts[name] = compiled.draft;
      expect((profileSchema(name) as { description?: string }).description?.length, name).toBeGreaterThan(
        100,
      );
    }
    expect(drafts).toEqual({
      geojson: 'draft-07',
      'openapi-3.1': '2020-12',
      'package.json': 'draft-07',
      'tsconfig.json': 'draft-04',
    });
    expect(profileSchema('TSCONFIG.JSON')).toBe(profileSchema('tsconfig.json'));
    expect(profileSchema('nope')).toBeNull();
  });

  it("package.json: accepts this repository's manifest and explains mistakes", async () => {
    expect(await check('package.json', repoFile('package.json'))).toEqual([]);
    const bad = {
      name: 'My Package',
      version: '1.0',
      type: 'esm',
      private: 'yes',
      author: { email: 'a@b.co' },
      dependencies: { ajv: 8 },
      bin: { tool: 1 },
      packageManager: 'npm@latest',
    };
    expect((await check('package.json', bad)).map(([p]) => p).sort()).toEqual([
      '/author/name',
      '/bin/tool',
      '/dependencies/ajv',
      '/name',
      '/packageManager',
      '/private',
      '/type',
      '/version',
    ]);
    expect(await check('package.json', { name: '@scope/pkg-1.x', version: '2.0.0-rc.1+build.5' })).toEqual(
      [],
    );
  });

  it("tsconfig.json: accepts this repository's project file and case-insensitive values", async () => {
    expect(await check('tsconfig.json', repoFile('tsconfig.json'))).toEqual([]);
    expect(
      await check('tsconfig.json', {
        compilerOptions: { target: 'es2022', module: 'nodenext', jsx: 'React-JSX' },
      }),
    ).toEqual([]);
    expect(
      await check('tsconfig.json', {
        extends: ['./a.json', 1],
        compilerOptions: { target: 'ES1999', strict: 'true', paths: { '@/*': 'src/*' } },
        references: [{}],
      }),
    ).toEqual([
      ['/extends/1', '/extends/1 must be a string, not an integer'],
      ['/references/0/path', '/references/0/path is required'],
      [
        '/compilerOptions/target',
        '/compilerOptions/target must be one of: "ES3", "ES5", "ES6", "ES2015", "ES2016", "ES2017", ' +
          '"ES2018", "ES2019", "ES2020", "ES2021", "ES2022", "ES2023" (or 2 more), or must match the ' +
          'pattern "^[Ee][Ss]([356]|20(1[5-9]|2[0-4])|[Nn][Ee][Xx][Tt])$"',
      ],
      ['/compilerOptions/paths/@~1*', '/compilerOptions/paths/@~1* must be an array, not a string'],
      ['/compilerOptions/strict', '/compilerOptions/strict must be a boolean, not a string'],
    ]);
  });

  it('geojson: accepts RFC 7946 objects and names what is wrong by geometry type', async () => {
    const point = { type: 'Point', coordinates: [102.0, 0.5] };
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [100, 0],
          [101, 0],
          [101, 1],
          [100, 0],
        ],
      ],
    };
    const collection = {
      type: 'FeatureCollection',
      bbox: [100, 0, 105, 1],
      features: [
        { type: 'Feature', id: 1, geometry: point, properties: { prop0: 'value0' } },
        { type: 'Feature', geometry: polygon, properties: null },
        { type: 'Feature', geometry: null, properties: null },
        {
          type: 'Feature',
          geometry: { type: 'GeometryCollection', geometries: [point, polygon] },
          properties: {},
        },
      ],
    };
    expect(await check('geojson', collection)).toEqual([]);
    expect(await check('geojson', { type: 'LineString', coordinates: [[1, 2]] })).toEqual([
      ['/coordinates', '/coordinates must have at least 2 items'],
    ]);
    expect(
      await check('geojson', { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[0, 0]]] } }),
    ).toEqual([
      ['/properties', '/properties is required'],
      ['/geometry/coordinates/0', '/geometry/coordinates/0 must have at least 4 items'],
    ]);
    expect(await check('geojson', { type: 'Circle' })).toHaveLength(1);
    expect(await check('geojson', { ...point, bbox: [1, 2, 3, 4, 5] })).toEqual([
      ['/bbox', '/bbox must have at most 4 items, or must have at least 6 items'],
    ]);
    expect(await check('geojson', { ...point, properties: {} })).toEqual([
      ['/properties', '/properties is not allowed (its schema is false)'],
    ]);
  });

  it('openapi-3.1: accepts a 3.1 document and explains structural mistakes', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Pets', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } },
      paths: {
        '/pets/{id}': {
          get: {
            operationId: 'getPet',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: {
              '200': {
                description: 'A pet',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
              '4XX': { $ref: '#/components/responses/Problem' },
            },
          },
        },
      },
      components: {
        schemas: {
          Pet: { type: 'object', required: ['id'], properties: { id: { type: ['string', 'null'] } } },
        },
        responses: { Problem: { description: 'A problem' } },
        securitySchemes: { key: { type: 'apiKey', name: 'X-API-Key', in: 'header' } },
      },
      security: [{ key: [] }],
      'x-audience': 'public',
    };
    expect(await check('openapi-3.1', doc)).toEqual([]);
    const broken = {
      openapi: '3.0.3',
      info: { title: 'Pets' },
      paths: {
        pets: {},
        '/pets': { get: { parameters: [{ name: 'id', in: 'path', schema: {} }], responses: { '200': {} } } },
      },
      components: { securitySchemes: { key: { type: 'apiKey' } }, schemas: { Pet: { type: 'thing' } } },
      extra: true,
    };
    expect((await check('openapi-3.1', broken)).map(([p]) => p).sort()).toEqual([
      '/components/schemas/Pet/type',
      '/components/securitySchemes/key/in',
      '/components/securitySchemes/key/name',
      '/extra',
      '/info/version',
      '/openapi',
      '/paths/pets',
      '/paths/~1pets/get/parameters/0/required',
      '/paths/~1pets/get/responses/200/description',
    ]);
  });
});
