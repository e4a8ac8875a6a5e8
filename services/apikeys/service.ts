import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, RouteInput, ServiceDefinition } from '../../core/service/definition.js';
import { reply } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import type { ApiKeyCommands } from './commands.js';

/** What the list route needs from the keys read model (projections/apikeys ApiKeysReader satisfies it). */
export interface ApiKeyListing {
  listByAccount(accountId: string): Promise<
    readonly {
      readonly keyId: string;
      readonly name: string;
      readonly start: string;
      readonly scopes: readonly string[];
      readonly createdAt: string;
      readonly expiresAt: string | null;
      readonly lastRotatedAt?: string;
    }[]
  >;
}

export interface ApiKeysServiceDeps {
  readonly commands: ApiKeyCommands;
  readonly reader: ApiKeyListing;
  /**
   * Resolves once the read models reflect `version` of the key's stream (e.g. ApiKeysReader.waitForVersion,
   * and in the cluster also RedisKeyLookup.waitForVersion). Awaited after every write so that the caller's
   * next read (the list, or a call with the new key) shows the write. Without it, reads are eventually
   * consistent.
   */
  readonly waitFor?: (keyId: string, version: number) => Promise<unknown>;
}

const schemas = {
  params: apiSchema('apikeys/key-params.json'),
  createBody: apiSchema('apikeys/create-request.json'),
  created: apiSchema('apikeys/create-response.json'),
  list: apiSchema('apikeys/list-response.json'),
  rerollBody: apiSchema('apikeys/reroll-request.json'),
  rerolled: apiSchema('apikeys/reroll-response.json'),
};

/** JWT routes always carry an account; a missing one is a wiring fault, refused rather than guessed. */
function accountOf(ctx: CallContext): string {
  if (!ctx.accountId) throw new AppError('UNAUTHORIZED', 'Authorization: a Bearer token is required');
  return ctx.accountId;
}

const bodyOf = (input: RouteInput): Record<string, unknown> =>
  input.body && typeof input.body === 'object' ? (input.body as Record<string, unknown>) : {};

const metadataOf = (ctx: CallContext) => ({ requestId: ctx.requestId, actor: accountOf(ctx) });

/**
 * The portal's key management (DESIGN.md section 7, Keys). Portal convention: the handler returns the whole
 * body, `{status: 'OK', data}`, since the gateway adds no envelope there.
 *
 * Read-your-writes: the list comes from an eventually consistent read model, so every write awaits `waitFor`
 * before answering. If the read model is late beyond waitFor's own timeout (or waitFor fails), the write
 * still stands and is reported as done: failing it would invite a retry that creates a second key.
 */
export function createApiKeysService(deps: ApiKeysServiceDeps): ServiceDefinition {
  const settle = async (keyId: string, version: number): Promise<void> => {
    await deps.waitFor?.(keyId, version).catch(() => {});
  };

  return {
    slug: 'portal-keys',
    title: 'API keys',
    description:
      'Create, list, delete and reroll the API keys of the signed-in account. A key is shown in full ' +
      'only when it is created or rerolled; it is stored as a SHA-256 hash only.',
    routes: [
      {
        convention: 'portal',
        method: 'POST',
        path: '/api/portal/api-keys',
        operationId: 'createApiKey',
        summary: 'Create an API key',
        description:
          'Scopes are service slugs (or ["*"] for all); an unknown slug is refused with 400. The ' +
          'response is the only time the full key is shown.',
        auth: 'jwt',
        metered: false,
        status: 201,
        schemas: { body: schemas.createBody, response: { 201: schemas.created } },
        async handler(input, ctx) {
          const body = bodyOf(input);
          const created = await deps.commands.create(
            accountOf(ctx),
            {
              name: body.name as string,
              scopes: body.scopes as string[],
              expiresAt: body.expiresAt as string | undefined,
            },
            metadataOf(ctx),
          );
          await settle(created.keyId, created.version);
          const { version: _v, ...data } = created;
          return { status: 'OK', data };
        },
      },
      {
        convention: 'portal',
        method: 'GET',
        path: '/api/portal/api-keys',
        operationId: 'listApiKeys',
        summary: 'List API keys',
        description: "The account's keys that are not revoked, newest first, without secrets.",
        auth: 'jwt',
        metered: false,
        schemas: { response: { 200: schemas.list } },
        async handler(_input, ctx) {
          return { status: 'OK', data: await deps.reader.listByAccount(accountOf(ctx)) };
        },
      },
      {
        convention: 'portal',
        method: 'DELETE',
        path: '/api/portal/api-keys/{keyId}',
        operationId: 'deleteApiKey',
        summary: 'Revoke an API key',
        description:
          'The key stops working at once. An unknown id, an already revoked key and another ' +
          'account’s key all answer 404.',
        auth: 'jwt',
        metered: false,
        status: 204,
        schemas: {
          params: schemas.params,
          response: { 204: { type: 'null', description: 'Revoked; no content' } },
        },
        async handler(input, ctx) {
          const keyId = input.params.keyId ?? '';
          const { version } = await deps.commands.revoke(accountOf(ctx), keyId, metadataOf(ctx));
          await settle(keyId, version);
          return reply(null, { status: 204 });
        },
      },
      {
        convention: 'portal',
        method: 'POST',
        path: '/api/portal/api-keys/{keyId}/reroll',
        operationId: 'rerollApiKey',
        summary: 'Reroll an API key',
        description:
          'Issues a new secret for the key (same id, name and scopes). The previous secret keeps ' +
          'working for overlapSeconds (default 3600, at most 86400, never past the key’s expiry). ' +
          'A revoked key answers 404, an expired one 409.',
        auth: 'jwt',
        metered: false,
        schemas: { params: schemas.params, body: schemas.rerollBody, response: { 200: schemas.rerolled } },
        async handler(input, ctx) {
          const keyId = input.params.keyId ?? '';
          const overlap = bodyOf(input).overlapSeconds;
          const rerolled = await deps.commands.reroll(
            accountOf(ctx),
            keyId,
            overlap === undefined ? undefined : (overlap as number),
            metadataOf(ctx),
          );
          await settle(keyId, rerolled.version);
          const { version: _v, ...data } = rerolled;
          return { status: 'OK', data };
        },
      },
    ],
  };
}
