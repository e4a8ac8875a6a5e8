import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from '../core/config/config.js';
import { AppError } from '../core/errors/catalogue.js';
import type { HealthReport } from '../core/health.js';
import { newId } from '../core/ids.js';
import {
  type CallContext,
  isReply,
  type RouteDefinition,
  type ServiceDefinition,
} from '../core/service/definition.js';
import { ANONYMOUS, Authenticator, type Caller, checkScope } from './authenticate.js';
import { type ErrorStyle, errorStyleOf, errorStyleOfPath, renderError, toAppError } from './errors.js';
import { loggerOptions } from './logger.js';
import { MULTIPART_LIMITS, readMultipart, registerMultipart } from './multipart.js';
import type { GatewayPorts, RateDecisionView } from './ports.js';
import { fastifyPath, groupRoutes, type RouteGroup, wrapResponse, wrapResponseSchema } from './routes.js';
import { validationMessage } from './validation-messages.js';

export interface GatewayDeps {
  readonly config: Config;
  /** Readiness of every component the process depends on. */
  readonly health: () => Promise<HealthReport>;
  readonly services?: readonly ServiceDefinition[];
  /** Needed as soon as a route is not public. */
  readonly ports?: GatewayPorts;
  /** Overrides the logger (tests pass false). */
  readonly logger?: boolean;
  /** Extra documents served beside the API (OpenAPI, Swagger UI, MCP manifest), registered by their builders. */
  readonly plugins?: readonly ((app: FastifyInstance, groups: readonly RouteGroup[]) => Promise<void>)[];
}

interface CallState {
  readonly group: RouteGroup;
  readonly startedAt: number;
  caller: Caller;
  def?: RouteDefinition;
  decision?: RateDecisionView;
}

declare module 'fastify' {
  interface FastifyRequest {
    tg: CallState | null;
  }
  interface FastifyContextConfig {
    errorStyle?: ErrorStyle;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const DEFAULT_BODY_LIMIT = 64 * 1024;
const UNGUARDED = new Set(['/healthz', '/readyz']);
/** Path parameters that may carry slashes (webhook hook paths). */
const WILDCARD_PARAMS = ['hookPath'];

/** Builds the Fastify app without listening, so tests can `inject()` into it. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger === false ? false : loggerOptions(config.LOG_LEVEL),
    // A caller's request id is kept when it is sane, so one id follows a request across systems.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: config.TRUST_PROXY.length > 0 ? [...config.TRUST_PROXY] : false,
    ...(config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? { https: { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) } }
      : {}),
  });
  app.decorateRequest('tg', null);

  const groups = groupRoutes(deps.services ?? []);
  const auth = deps.ports ? new Authenticator(deps.ports) : null;
  // Bodies are validated strictly (a number is not a string); query and path values arrive as text and are coerced.
  const ajv = new Ajv({ allErrors: false, removeAdditional: false, useDefaults: true, coerceTypes: false });
  const coercing = new Ajv({
    allErrors: false,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: 'array',
  });
  addFormats.default(ajv);
  addFormats.default(coercing);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? ajv : coercing).compile(schema));
  const sharedValidators = new Map<RouteDefinition, ValidateFunction>();
  const now = () => deps.ports?.now?.() ?? new Date();

  app.setErrorHandler((err, request, reply) => {
    const error = toAppError(err);
    if (error.code === 'INTERNAL_ERROR') {
      // Name and first line only: stacks, SQL and paths stay out of logs as well as responses.
      const e = err as Error;
      request.log.error(
        { err: { name: e?.name, message: String(e?.message ?? '').split('\n')[0] } },
        'request failed',
      );
    }
    const style = request.routeOptions.config.errorStyle ?? errorStyleOfPath(request.url);
    return sendError(reply, error, style, request.url.split('?')[0] ?? request.url);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      new AppError('NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`),
      errorStyleOfPath(request.url),
      request.url.split('?')[0] ?? '',
    ),
  );

  app.addHook('onRequest', async (request) => {
    if (config.requireHttps && request.protocol !== 'https' && !UNGUARDED.has(request.url)) {
      throw new AppError('HTTPS_REQUIRED', 'use HTTPS');
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    const call = request.tg;
    if (!call?.decision) return payload;
    const d = call.decision;
    reply.header('X-RateLimit-Limit', d.limit);
    reply.header('X-RateLimit-Remaining', d.remaining);
    reply.header('X-RateLimit-Reset', d.resetAt);
    if (!d.allowed || !deps.ports || !call.caller.accountId || !call.caller.keyId) return payload;
    const status = reply.statusCode;
    const ports = deps.ports;
    try {
      if (status < 200 || status >= 300) await ports.limiter.release(call.caller.accountId, now().getTime());
      // The call is durable before its answer leaves: usage can never miss an acknowledged call.
      await ports.metering.record({
        eventId: newId(),
        accountId: call.caller.accountId,
        keyId: call.caller.keyId,
        slug: call.def ? call.group.slugOf.get(call.def)! : call.group.slug,
        operationId: call.def?.operationId ?? call.group.defs[0]!.operationId,
        convention: (call.def?.convention ?? call.group.defs[0]!.convention) as 'S' | 'R' | 'D',
        status,
        latencyMs: Math.round(performance.now() - call.startedAt),
        at: now().toISOString(),
      });
      return payload;
    } catch (err) {
      request.log.error(
        { err: { name: (err as Error).name, message: (err as Error).message } },
        'metering failed',
      );
      const rendered = renderError(
        new AppError('SERVICE_UNAVAILABLE', 'the call could not be recorded for metering; retry later'),
        request.routeOptions.config.errorStyle ?? 'S',
        request.url.split('?')[0] ?? '',
      );
      reply.code(503).type(rendered.contentType);
      return JSON.stringify(rendered.body);
    }
  });

  app.get('/healthz', async () => ({ status: 'UP' }));
  app.get('/readyz', async (_request, reply) => {
    const report = await deps.health();
    return reply.code(report.status === 'UP' ? 200 : 503).send({ ...report, profile: config.profile });
  });

  const isUpload = (group: RouteGroup) => group.defs.some((d) => d.multipart);
  for (const group of groups) if (!isUpload(group)) registerGroup(app, group);
  const uploads = groups.filter(isUpload);
  if (uploads.length > 0) {
    await app.register(async (scope) => {
      await registerMultipart(scope);
      for (const group of uploads) registerGroup(scope, group);
    });
  }
  for (const plugin of deps.plugins ?? []) await plugin(app, groups);
  return app;

  function registerGroup(target: FastifyInstance, group: RouteGroup): void {
    const single = group.defs.length === 1 ? group.defs[0]! : null;
    const first = group.defs[0]!;
    const upload = first.multipart;
    if (upload && (!single || first.schemas.body || upload.maxFileBytes > MULTIPART_LIMITS.fileSize)) {
      throw new Error(
        `${group.method} ${group.path}: an upload has one operation, no body schema, at most 10 MiB`,
      );
    }
    // One service on the path: its scope is checked with the credentials. Several: once the body picked one.
    const slugs = new Set(group.defs.map((d) => group.slugOf.get(d)!));
    const scopeSlug = slugs.size === 1 ? group.slug : null;
    const errorStyle = errorStyleOf(
      group.defs.flatMap((d) => [d.convention, ...(d.alsoConvention ? [d.alsoConvention] : [])]),
    );
    if (first.auth !== 'public' && first.auth !== 'capability' && !auth) {
      throw new Error(`${group.method} ${group.path} needs authentication but the gateway has no ports`);
    }
    if (!single)
      for (const d of group.defs) if (d.schemas.body) sharedValidators.set(d, ajv.compile(d.schemas.body));
    const response: Record<number, unknown> = {};
    if (single) {
      for (const [status, schema] of Object.entries(single.schemas.response)) {
        response[Number(status)] = wrapResponseSchema(single.convention, schema, Number(status));
      }
    }
    target.route({
      method: group.method,
      url: fastifyPath(group.path, WILDCARD_PARAMS),
      bodyLimit: Math.max(...group.defs.map((d) => d.bodyLimit ?? DEFAULT_BODY_LIMIT)),
      config: { errorStyle },
      schema: {
        ...(first.schemas.params && !group.path.includes('{hookPath}')
          ? { params: first.schemas.params }
          : {}),
        ...(first.schemas.query ? { querystring: first.schemas.query } : {}),
        ...(single?.schemas.body ? { body: single.schemas.body } : {}),
        ...(single ? { response } : {}),
      },
      onRequest: async (request) => {
        const call: CallState = { group, startedAt: performance.now(), caller: ANONYMOUS };
        request.tg = call;
        if (!auth) return;
        call.caller = await auth.authenticate(first.auth, scopeSlug, request.headers);
        if (first.metered && call.caller.limits && call.caller.keyId && call.caller.accountId) {
          const decision = await deps.ports!.limiter.consume({
            keyId: call.caller.keyId,
            accountId: call.caller.accountId,
            limits: call.caller.limits,
            now: now().getTime(),
          });
          call.decision = decision;
          if (!decision.allowed) {
            throw new AppError(
              decision.code ?? 'RATE_LIMIT_EXCEEDED',
              decision.code === 'QUOTA_EXCEEDED'
                ? 'the monthly quota of the plan is used up'
                : 'too many requests for this API key; slow down',
              { retryAfterSeconds: decision.retryAfterSeconds ?? 1 },
            );
          }
        }
      },
      handler: async (request, reply) => handle(group, single, request, reply),
    });
  }

  async function handle(
    group: RouteGroup,
    single: RouteDefinition | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<unknown> {
    const call = request.tg!;
    const caller = call.caller;
    const def = single ?? pick(group, request.body, request.headers, caller);
    call.def = def;
    const batchLimit = Math.min(
      def.batch?.max ?? Number.POSITIVE_INFINITY,
      caller.limits?.batchSize ?? Number.POSITIVE_INFINITY,
    );
    if (def.batch) {
      const items = (request.body as Record<string, unknown> | undefined)?.[def.batch.field];
      if (Array.isArray(items) && items.length > batchLimit) {
        throw new AppError(
          'VALIDATION_ERROR',
          `${def.batch.field}: must contain at most ${batchLimit} items`,
        );
      }
    }
    const params = { ...((request.params ?? {}) as Record<string, string>) };
    if ('*' in params) {
      params[WILDCARD_PARAMS[0]!] = params['*']!;
      delete params['*'];
    }
    const ctx: CallContext = {
      requestId: request.id,
      accountId: caller.accountId,
      keyId: caller.keyId,
      roles: caller.roles,
      plan: caller.plan,
      batchLimit: Number.isFinite(batchLimit) ? batchLimit : 1000,
      ip: request.ip,
      now,
    };
    const result = await def.handler(
      {
        params,
        query: (request.query ?? {}) as Record<string, unknown>,
        body: def.multipart ? await readMultipart(request, def.multipart.maxFileBytes) : request.body,
        headers: request.headers,
      },
      ctx,
    );
    if (isReply(result)) {
      reply.code(result.status).headers(result.headers);
      if (result.body === null || result.body === undefined) return reply.send();
      if (Buffer.isBuffer(result.body) || typeof result.body === 'string') return reply.send(result.body);
      return reply.send(wrapResponse(def.convention, result.body, call.startedAt));
    }
    reply.code(def.status ?? 200);
    return wrapResponse(def.convention, result, call.startedAt);
  }

  /** Shared paths: the body's shape picks the operation, then that operation's schema validates it. */
  function pick(
    group: RouteGroup,
    body: unknown,
    headers: FastifyRequest['headers'],
    caller: Caller,
  ): RouteDefinition {
    const def = group.defs.find((d) => d.match?.(body, headers));
    if (!def) {
      throw new AppError('VALIDATION_ERROR', `body: must match one of the operations on ${group.path}`);
    }
    // A path spanning services: the key's scope is checked for the operation the body picked, before its schema.
    if (def.auth === 'apiKey' && new Set(group.defs.map((d) => group.slugOf.get(d))).size > 1) {
      checkScope(caller, group.slugOf.get(def)!);
    }
    const validate = sharedValidators.get(def);
    if (validate && !validate(body)) {
      throw new AppError('VALIDATION_ERROR', validationMessage(validate.errors ?? []));
    }
    return def;
  }
}

function sendError(reply: FastifyReply, error: AppError, style: ErrorStyle, instance: string): FastifyReply {
  const rendered = renderError(error, style, instance);
  return reply
    .code(rendered.status)
    .headers(rendered.headers)
    .type(rendered.contentType)
    .send(JSON.stringify(rendered.body));
}
