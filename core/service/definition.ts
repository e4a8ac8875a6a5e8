/**
 * The service contract (DESIGN.md section 4). A service exports one ServiceDefinition; every route is declared
 * once here, and the gateway derives routing, validation, serialization, OpenAPI, Swagger UI and the MCP
 * manifest from that declaration. Handlers never see HTTP: they get validated input and a CallContext, and
 * return data (or a `reply(...)`) or throw an AppError.
 */

/** S: `/api/<slug>/<op>`, `{status, data}` envelope. R: `/api/v1/…`, bare resource, RFC 7807 errors.
 *  D: `/api/v1/…`, bare object plus `processingTimeMs`, `{error, message, status}` errors.
 *  portal: account paths; S-style errors, bodies exactly as the handler returns them (no envelope added). */
export type Convention = 'S' | 'R' | 'D' | 'portal';

/** public: no credentials. apiKey: `X-API-Key`. jwt: `Authorization: Bearer`. admin: JWT with ROLE_ADMIN
 *  plus an API key. capability: the unguessable id in the path is the credential (captures, images). */
export type AuthKind = 'public' | 'apiKey' | 'jwt' | 'admin' | 'capability';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type JsonSchema = Readonly<Record<string, unknown>>;

export interface RouteSchemas {
  readonly params?: JsonSchema;
  readonly query?: JsonSchema;
  readonly body?: JsonSchema;
  /** Success status → schema of what the handler returns (S: the `data` object; the gateway adds the envelope). */
  readonly response: Readonly<Record<number, JsonSchema>>;
}

export interface CallContext {
  readonly requestId: string;
  /** The caller's account; null on public routes. */
  readonly accountId: string | null;
  /** The API key used; null when the route is not key-authenticated. */
  readonly keyId: string | null;
  readonly roles: readonly string[];
  readonly plan: string | null;
  /** Items a batch may carry on this call: the smaller of the plan's batch size and the route's maximum. */
  readonly batchLimit: number;
  /** Caller's address (after trusted-proxy handling). */
  readonly ip: string;
  readonly now: () => Date;
}

export interface RouteInput {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

const REPLY = Symbol('toolgate.reply');

/** A handler result that sets status, headers or a non-JSON body. */
export interface Reply {
  readonly [REPLY]: true;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON value, or a Buffer/string sent as is with the given content type. */
  readonly body: unknown;
}

export function reply(
  body: unknown,
  options: { status?: number; headers?: Record<string, string> } = {},
): Reply {
  return { [REPLY]: true, status: options.status ?? 200, headers: options.headers ?? {}, body };
}

export const isReply = (v: unknown): v is Reply => typeof v === 'object' && v !== null && REPLY in v;

/** The file of a `multipart` route's request, read whole by the gateway. */
export interface UploadedFile {
  /** The part's file name as the client sent it, directories removed ('' when it sent none). */
  readonly filename: string;
  /** The part's Content-Type as the client declared it (`text/plain` when the part has none: RFC 7578 4.4). */
  readonly mimeType: string;
  readonly bytes: Buffer;
}

/** `input.body` of a `multipart` route, in place of a JSON body. */
export interface MultipartBody {
  readonly file: UploadedFile;
  /** The form's text fields by name; a repeated name keeps its last value. */
  readonly fields: Readonly<Record<string, string>>;
}

export interface RouteDefinition {
  readonly convention: Convention;
  readonly method: HttpMethod;
  /** OpenAPI style, exactly as SPEC.md lists it: `/api/v1/monitors/{id}/status`. */
  readonly path: string;
  /** Unique across the platform; the MCP tool name. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly auth: AuthKind;
  /** Counted against rate limits and quota, and recorded as ServiceCalled. */
  readonly metered: boolean;
  readonly schemas: RouteSchemas;
  /** Success status when the handler returns plain data (default 200). */
  readonly status?: number;
  /** A batch route: the body array `field` may carry at most min(plan batch, max) items. */
  readonly batch?: { readonly field: string; readonly max: number };
  /** Body size limit in bytes (default 64 KiB). */
  readonly bodyLimit?: number;
  /**
   * An upload: the body is multipart/form-data with one file in the part named `file`, not JSON. The gateway
   * reads that file whole, at most `maxFileBytes` (10 MiB at most; a larger file is 413 PAYLOAD_TOO_LARGE), and
   * hands the handler a MultipartBody as `input.body`; no file is 400 `file: must not be blank`. Such a route
   * declares no `schemas.body` and shares its path with no other operation.
   */
  readonly multipart?: { readonly maxFileBytes: number };
  /**
   * Paths shared by several operations (DESIGN.md section 7, e.g. `/api/v1/check`): the gateway picks the first
   * route whose `match` accepts the request: usually by the body's shape, for `/api/v1/ssl/check` by the
   * `X-API-Convention` header (lower-case header names).
   */
  readonly match?: (
    body: unknown,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ) => boolean;
  /**
   * A path one operation serves for two conventions (SPEC lists `/api/v1/domains/{domain}` under R and D): errors
   * then take the shared R/D shape (DESIGN.md section 5) and the documents name both conventions.
   */
  readonly alsoConvention?: Convention;
  handler(input: RouteInput, ctx: CallContext): Promise<unknown>;
}

export interface ServiceDefinition {
  /** A slug of DESIGN.md section 8 (the scope name), or `portal` for the account system. */
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly routes: readonly RouteDefinition[];
}

/** DESIGN.md section 8: the scopes an API key may carry (or `*`). */
export const SERVICE_SLUGS = [
  'disposable-email',
  'phone-validation',
  'ip-reputation',
  'captcha',
  'password-breach',
  'uptime-monitor',
  'dns-checker',
  'ip-geolocation',
  'cron',
  'ssl-checker',
  'url-metadata',
  'screenshot',
  'readability',
  'keyword-extractor',
  'log-redaction',
  'deduplication',
  'json-validator',
  'file-type',
  'webhook-inspector',
  'rate-test',
] as const;

export type ServiceSlug = (typeof SERVICE_SLUGS)[number];
