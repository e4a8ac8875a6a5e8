import Fastify, { type FastifyInstance } from 'fastify';
import type { CallContext, RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { wrapResponse, wrapResponseSchema } from '../../gateway/routes.js';

/**
 * The trivial operation both sides of the gateway benchmark serve: `GET /api/readability/bench-ping` → `{ok: true}`
 * in the S envelope. Declared under the real `readability` slug, so a key scoped to `readability` passes the
 * scope check; API key, metered, like every paid call.
 */
export const PING_PATH = '/api/readability/bench-ping';

const DATA_SCHEMA = {
  type: 'object',
  required: ['ok'],
  additionalProperties: false,
  properties: { ok: { type: 'boolean' } },
} as const;

export const pingRoute: RouteDefinition = {
  convention: 'S',
  method: 'GET',
  path: PING_PATH,
  operationId: 'benchPing',
  summary: 'Benchmark: answers {ok: true}',
  auth: 'apiKey',
  metered: true,
  schemas: { response: { 200: DATA_SCHEMA } },
  handler: async () => ({ ok: true }),
};

export const pingService: ServiceDefinition = {
  slug: 'readability',
  title: 'Benchmark ping',
  description: 'A trivial metered operation for bench/gateway.ts.',
  routes: [pingRoute],
};

const BARE_CTX: CallContext = {
  requestId: 'bare',
  accountId: null,
  keyId: null,
  roles: [],
  plan: null,
  batchLimit: 1,
  ip: '127.0.0.1',
  now: () => new Date(),
};

/**
 * The baseline: bare Fastify (no logger, no hooks, no auth) serving the same handler with the same response
 * schema and envelope, so serialization costs the same on both sides.
 */
export function bareApp(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get(
    PING_PATH,
    { schema: { response: { 200: wrapResponseSchema('S', DATA_SCHEMA, 200) } } },
    async (request) => {
      const data = await pingRoute.handler(
        { params: {}, query: {}, body: undefined, headers: request.headers },
        BARE_CTX,
      );
      return wrapResponse('S', data, 0);
    },
  );
  return app;
}
