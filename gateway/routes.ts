import type {
  Convention,
  JsonSchema,
  RouteDefinition,
  ServiceDefinition,
} from '../core/service/definition.js';

/** A method and path with every operation declared on it (more than one only on the shared R/D paths). */
export interface RouteGroup {
  readonly method: RouteDefinition['method'];
  readonly path: string;
  /** The service of the first operation; `slugOf` names each operation's own (shared paths span services). */
  readonly slug: string;
  readonly defs: readonly RouteDefinition[];
  readonly slugOf: ReadonlyMap<RouteDefinition, string>;
}

/** Groups the declarations and checks what must hold across a shared path. */
export function groupRoutes(services: readonly ServiceDefinition[]): RouteGroup[] {
  const groups = new Map<string, { slug: string; defs: RouteDefinition[] }>();
  const slugOf = new Map<RouteDefinition, string>();
  const operationIds = new Set<string>();
  for (const service of services) {
    for (const def of service.routes) {
      if (operationIds.has(def.operationId)) throw new Error(`operationId ${def.operationId} declared twice`);
      operationIds.add(def.operationId);
      const key = `${def.method} ${def.path}`;
      const group = groups.get(key) ?? { slug: service.slug, defs: [] };
      group.defs.push(def);
      slugOf.set(def, service.slug);
      groups.set(key, group);
      if (group.defs.length > 1) {
        const first = group.defs[0]!;
        if (group.defs.some((d) => !d.match)) throw new Error(`${key} is declared twice without match()`);
        if (first.auth !== def.auth) throw new Error(`${key}: operations on one path must share their auth`);
      }
    }
  }
  return [...groups.entries()].map(([key, g]) => {
    const [method, path] = key.split(' ') as [RouteDefinition['method'], string];
    return { method, path, slug: g.slug, defs: g.defs, slugOf };
  });
}

/** `/a/{id}/b` → `/a/:id/b`; a last parameter named like `{hookPath}` that may hold slashes becomes `*`. */
export function fastifyPath(path: string, wildcardParams: readonly string[] = []): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, name: string) =>
    wildcardParams.includes(name) ? '*' : `:${name}`,
  );
}

/** What the convention adds around the handler's data, as a schema (for serialization and OpenAPI). */
export function wrapResponseSchema(convention: Convention, schema: JsonSchema, status: number): JsonSchema {
  if (status === 204) return schema;
  if (convention === 'S') {
    return {
      type: 'object',
      required: ['status', 'data'],
      properties: { status: { type: 'string', enum: ['OK'] }, data: schema },
    };
  }
  if (convention === 'D' && schema.type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const required = (schema.required ?? []) as string[];
    return {
      ...schema,
      properties: { ...properties, processingTimeMs: { type: 'integer', minimum: 0 } },
      required: [...required, 'processingTimeMs'],
    };
  }
  return schema;
}

/** Applies the convention to a handler's data: the S envelope, D's processingTimeMs. */
export function wrapResponse(convention: Convention, data: unknown, startedAt: number): unknown {
  if (convention === 'S') return { status: 'OK', data };
  if (convention === 'D' && data && typeof data === 'object' && !Array.isArray(data)) {
    return { ...(data as object), processingTimeMs: Math.round(performance.now() - startedAt) };
  }
  return data;
}
