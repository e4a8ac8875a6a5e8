import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonSchema } from './definition.js';

const API_SCHEMA_DIR = new URL('../../schemas/api/', import.meta.url);

/** Loads a request or response schema from schemas/api/ (the one source of every body shape). */
export function apiSchema(relativePath: string): JsonSchema {
  const file = fileURLToPath(new URL(relativePath, API_SCHEMA_DIR));
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  // $schema/$id are for editors; Fastify's Ajv and OpenAPI take the schema body itself.
  const { $schema: _s, $id: _i, ...body } = schema;
  return Object.freeze(body);
}
