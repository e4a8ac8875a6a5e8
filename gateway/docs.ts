import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { buildMcpManifest } from './mcp.js';
import { buildOpenApi } from './openapi.js';
import type { RouteGroup } from './routes.js';

/** Serves /openapi.json, Swagger UI at /swagger-ui/ and /api/mcp-tools.json, all from the route declarations. */
export function docsPlugin(publicUrl: string, version: string) {
  return async (app: FastifyInstance, groups: readonly RouteGroup[]): Promise<void> => {
    const document = buildOpenApi(groups, {
      title: 'Toolgate API',
      version,
      description:
        'One account, scoped API keys and twenty utility services. Service calls take an API key in `X-API-Key`; ' +
        'portal calls take the `id_token` of `/api/auth/login` as a Bearer token.',
      serverUrl: publicUrl,
    });
    const manifest = buildMcpManifest(groups, publicUrl);
    app.get('/openapi.json', async () => document);
    app.get('/api/mcp-tools.json', async () => manifest);
    await app.register(swagger, { mode: 'static', specification: { document: document as never } });
    await app.register(swaggerUi, {
      routePrefix: '/swagger-ui',
      uiConfig: { persistAuthorization: true, tryItOutEnabled: true },
    });
  };
}
