import type { JsonSchema } from '../core/service/definition.js';
import type { RouteGroup } from './routes.js';

/**
 * The MCP tools manifest: every route as a tool an agent can call. The input schema bundles path parameters,
 * query and body into one object (`params`, `query`, `body`), so a tool call maps onto exactly one HTTP request.
 */
export function buildMcpManifest(groups: readonly RouteGroup[], baseUrl: string): Record<string, unknown> {
  const tools = groups.flatMap((group) =>
    group.defs.map((def) => {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      if (def.schemas.params) {
        properties.params = def.schemas.params;
        required.push('params');
      }
      if (def.schemas.query) properties.query = def.schemas.query;
      if (def.schemas.body) {
        properties.body = def.schemas.body;
        required.push('body');
      }
      return {
        name: def.operationId,
        description: def.description ?? def.summary,
        service: group.slug,
        convention: def.convention,
        method: def.method,
        path: def.path,
        auth: {
          kind: def.auth,
          headers:
            def.auth === 'apiKey'
              ? ['X-API-Key']
              : def.auth === 'jwt'
                ? ['Authorization: Bearer']
                : def.auth === 'admin'
                  ? ['Authorization: Bearer', 'X-API-Key']
                  : [],
        },
        metered: def.metered,
        inputSchema: { type: 'object', properties, required, additionalProperties: false },
      };
    }),
  );
  return { schemaVersion: '1', name: 'toolgate', baseUrl, tools };
}
