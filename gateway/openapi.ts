import { ERRORS, type ErrorCode, problemType } from '../core/errors/catalogue.js';
import type { AuthKind, JsonSchema, RouteDefinition } from '../core/service/definition.js';
import { type ErrorStyle, errorStyleOf } from './errors.js';
import { type RouteGroup, wrapResponseSchema } from './routes.js';

const ERROR_SCHEMAS: Record<ErrorStyle, JsonSchema> = {
  S: {
    type: 'object',
    required: ['status', 'error'],
    properties: {
      status: { type: 'string', enum: ['ERROR'] },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
  D: {
    type: 'object',
    required: ['error', 'message'],
    properties: { error: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
  },
  R: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'instance'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string' },
    },
  },
  RD: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'instance', 'error', 'message'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      instance: { type: 'string' },
      error: { type: 'string' },
      message: { type: 'string' },
    },
  },
};

const SECURITY: Record<AuthKind, Record<string, string[]>[]> = {
  public: [],
  capability: [],
  apiKey: [{ apiKey: [] }],
  jwt: [{ bearer: [] }],
  admin: [{ bearer: [], apiKey: [] }],
};

/** Error codes each kind of route can answer with, beyond VALIDATION_ERROR and INTERNAL_ERROR. */
const ERRORS_BY_AUTH: Record<AuthKind, ErrorCode[]> = {
  public: [],
  capability: ['NOT_FOUND'],
  apiKey: ['UNAUTHORIZED', 'INSUFFICIENT_SCOPE'],
  jwt: ['UNAUTHORIZED'],
  admin: ['UNAUTHORIZED', 'FORBIDDEN'],
};

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description: string;
  readonly serverUrl: string;
}

/** The OpenAPI 3.1 document, generated from the route declarations (never written by hand). */
export function buildOpenApi(groups: readonly RouteGroup[], info: OpenApiInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const group of groups) {
    paths[group.path] = { ...paths[group.path], [group.method.toLowerCase()]: operation(group) };
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    tags: [...new Set(groups.map((g) => g.slug))].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'An API key from the portal (tg_…)',
        },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'id_token from /api/auth/login',
        },
      },
    },
  };
}

function operation(group: RouteGroup): Record<string, unknown> {
  const defs = group.defs;
  const first = defs[0]!;
  const conventions = defs.flatMap((d) => [d.convention, ...(d.alsoConvention ? [d.alsoConvention] : [])]);
  const style = errorStyleOf(conventions);
  const responses: Record<string, unknown> = {};
  for (const def of defs) {
    for (const [status, schema] of Object.entries(def.schemas.response)) {
      const wrapped = wrapResponseSchema(def.convention, schema, Number(status));
      const existing = responses[status] as
        | { content?: { 'application/json': { schema: JsonSchema } } }
        | undefined;
      if (Number(status) === 204) {
        responses[status] = { description: 'No content' };
      } else if (existing?.content) {
        const prior = existing.content['application/json'].schema;
        const anyOf = (prior.anyOf as JsonSchema[] | undefined) ?? [prior];
        existing.content['application/json'].schema = { anyOf: [...anyOf, wrapped] };
      } else {
        responses[status] = { description: 'Success', content: { 'application/json': { schema: wrapped } } };
      }
    }
  }
  const codes = new Set<ErrorCode>(['VALIDATION_ERROR', ...ERRORS_BY_AUTH[first.auth], 'INTERNAL_ERROR']);
  const upload = defs.find((d) => d.multipart)?.multipart;
  if (upload) codes.add('PAYLOAD_TOO_LARGE');
  if (first.metered) {
    codes.add('RATE_LIMIT_EXCEEDED');
    codes.add('QUOTA_EXCEEDED');
  }
  const errorContent = style === 'S' || style === 'D' ? 'application/json' : 'application/problem+json';
  for (const code of codes) {
    const status = String(ERRORS[code].status);
    responses[status] ??= { description: '', content: { [errorContent]: { schema: ERROR_SCHEMAS[style] } } };
    const entry = responses[status] as { description: string };
    entry.description = [entry.description, `${code} (${problemType(code)})`].filter(Boolean).join('; ');
  }
  const parameters = [
    ...schemaParameters(first.schemas.params, 'path'),
    ...schemaParameters(first.schemas.query, 'query'),
  ];
  const bodies = defs.map((d) => d.schemas.body).filter((b): b is JsonSchema => b !== undefined);
  return {
    operationId: defs.length === 1 ? first.operationId : defs.map((d) => d.operationId).join('Or'),
    summary: defs.map((d) => d.summary).join(' / '),
    description: describe(defs),
    tags: [group.slug],
    security: SECURITY[first.auth],
    ...(parameters.length ? { parameters } : {}),
    ...(upload
      ? {
          requestBody: { required: true, content: { 'multipart/form-data': { schema: uploadForm(upload) } } },
        }
      : {}),
    ...(bodies.length
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodies.length === 1 ? bodies[0] : { oneOf: bodies } } },
          },
        }
      : {}),
    responses,
    'x-convention': [...new Set(conventions)].join(','),
    'x-metered': first.metered,
  };
}

/** The form of an upload route: the one binary `file` part the gateway reads. */
function uploadForm(upload: { readonly maxFileBytes: number }): JsonSchema {
  return {
    type: 'object',
    required: ['file'],
    properties: {
      file: {
        type: 'string',
        format: 'binary',
        contentMediaType: 'application/octet-stream',
        description: `The file, at most ${upload.maxFileBytes} bytes.`,
      },
    },
  };
}

function describe(defs: readonly RouteDefinition[]): string {
  const lines = defs.map((d) => [d.description ?? d.summary, `Convention ${d.convention}.`].join(' '));
  if (defs.length > 1) lines.unshift('A shared path: the shape of the request body selects the operation.');
  const batch = defs.find((d) => d.batch);
  if (batch?.batch)
    lines.push(
      `At most ${batch.batch.max} items in \`${batch.batch.field}\`, and no more than the plan's batch size.`,
    );
  return lines.join('\n\n');
}

function schemaParameters(
  schema: JsonSchema | undefined,
  location: 'path' | 'query',
): Record<string, unknown>[] {
  if (!schema) return [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
    schema: s,
  }));
}
