import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../core/config/config.js';
import type { HealthReport } from '../core/health.js';
import { loggerOptions } from './logger.js';

export interface GatewayDeps {
  readonly config: Config;
  /** Readiness of every component the process depends on. */
  readonly health: () => Promise<HealthReport>;
  /** Overrides the logger (tests pass false). */
  readonly logger?: boolean;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the Fastify app without listening, so tests can `inject()` into it. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions(deps.config.LOG_LEVEL),
    // A caller's request id is kept when it is sane, so one id follows a request across systems.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 64 * 1024,
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });

  app.get('/healthz', async () => ({ status: 'UP' }));

  app.get('/readyz', async (_request, reply) => {
    const report = await deps.health();
    return reply.code(report.status === 'UP' ? 200 : 503).send({ ...report, profile: deps.config.profile });
  });

  return app;
}
