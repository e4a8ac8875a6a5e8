import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import type { JobRunner, ValidationJob } from './jobs.js';
import { WorkerPool } from './pool.js';
import { profileNames, profileSchema } from './profiles.js';
import { checkSyntax, type Issue, type Mode, type Outcome } from './validate.js';

export interface JsonValidatorDeps {
  /** Accepted like every service's clock; validation reads no time. */
  readonly now?: () => Date;
  /** Where validations run (default: a pool of two worker threads with a 2 s deadline per validation). */
  readonly runner?: JobRunner;
}

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface TextBody {
  readonly json: string;
  readonly mode: Mode;
  readonly schema?: unknown;
  readonly profileName?: string;
}

interface DocumentBody {
  readonly document: unknown;
  readonly schema?: unknown;
  readonly profileName?: string;
}

const isObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

function notBlank(json: string): void {
  if (json.trim() === '') throw new AppError('VALIDATION_ERROR', 'json: must not be blank');
}

/** The inline schema or the named profile's; `required` when the mode validates against one. */
function chosenSchema(body: { schema?: unknown; profileName?: string }, required: boolean): unknown {
  if (body.schema !== undefined && body.profileName !== undefined) {
    throw new AppError('VALIDATION_ERROR', 'profileName: must not be given together with schema');
  }
  if (body.profileName !== undefined) {
    const schema = profileSchema(body.profileName);
    if (schema === null) {
      throw new AppError(
        'PROFILE_NOT_FOUND',
        `profileName: no profile is named ${JSON.stringify(body.profileName)}; ` +
          'GET /api/v1/validate/profiles lists them',
      );
    }
    return schema;
  }
  if (required && body.schema === undefined) {
    throw new AppError('VALIDATION_ERROR', 'schema: must be given (or name a profile in profileName)');
  }
  return body.schema;
}

async function run(runner: JobRunner, job: ValidationJob): Promise<Outcome> {
  const result = await runner.run(job);
  if (!result.ok) throw new AppError(result.code, result.message);
  return result.outcome;
}

const MODES_TEXT =
  'SYNTAX parses the text only. SCHEMA validates it against `schema` (inline) or `profileName` (a shipped ' +
  'schema); a text that does not parse is reported with its syntax issue, since nothing else can be ' +
  'checked. FULL does both.';

const SCHEMA_TEXT =
  'Schemas may be draft 4, 6, 7, 2019-09 or 2020-12, chosen by their "$schema" (2020-12 without one); ' +
  'formats are checked in every draft. A "$ref" to another document is never fetched: it is reported as an ' +
  'issue, as are schemas that are not valid JSON Schema (those issues have path ""). Syntax issues carry ' +
  'line and column and a null path; schema issues carry the JSON Pointer of the value concerned ("" for ' +
  'the document; for a missing or forbidden property, its pointer) and a sentence naming it. `valid` is ' +
  'true only when no issue is found; `issueCount` counts all, `issues` lists the first 100. Nesting is ' +
  'limited to 256 levels and a validation to 2 seconds (422 beyond).';

/** The factory the composition root calls; tests pass their own runner. */
export function createJsonValidatorService(deps: JsonValidatorDeps = {}): ServiceDefinition {
  let pool: JobRunner | null = deps.runner ?? null;
  // The pool starts its workers on first use; creating the service costs nothing.
  const runner = (): JobRunner => {
    pool ??= new WorkerPool();
    return pool;
  };
  const report = (ctx: CallContext, mode: Mode, outcome: Outcome) => ({
    requestId: ctx.requestId,
    valid: outcome.valid,
    mode,
    issueCount: outcome.issueCount,
    issues: outcome.issues,
  });

  const validateText: RouteDefinition = {
    convention: 'D',
    method: 'POST',
    path: '/api/v1/validate',
    operationId: 'jsonValidatorValidate',
    summary: 'Validate a JSON text: syntax, schema, or both',
    description: [
      'The body {json, mode, schema?, profileName?} selects this operation.',
      MODES_TEXT,
      SCHEMA_TEXT,
    ].join(' '),
    auth: 'apiKey',
    metered: true,
    match: (body) => isObject(body) && 'json' in body,
    schemas: {
      body: apiSchema('json-validator/validate-request.json'),
      response: { 200: apiSchema('json-validator/validate-response.json') },
    },
    async handler({ body }, ctx) {
      const request = body as TextBody;
      notBlank(request.json);
      const schema = chosenSchema(request, request.mode !== 'SYNTAX');
      // Parsing is linear in a bounded body: only schema work needs a worker's deadline.
      const outcome =
        request.mode === 'SYNTAX'
          ? checkSyntax(request.json)
          : await run(runner(), { op: 'text', json: request.json, mode: request.mode, schema });
      return report(ctx, request.mode, outcome);
    },
  };

  const validateDocument: RouteDefinition = {
    convention: 'R',
    method: 'POST',
    path: '/api/v1/validate',
    operationId: 'jsonValidatorValidateDocument',
    summary: 'Validate a JSON value against a schema',
    description: [
      'The body {document, schema} (or {document, profileName}) selects this operation. `document` is the',
      'JSON value itself: a string is a JSON string value, not a text to parse (send texts as {json}). The',
      "answer has R's {valid, issues:[{path, message, severity}]} and, as the path is shared with convention",
      "D, D's fields too (requestId, mode SCHEMA, issueCount, category, processingTimeMs).",
      SCHEMA_TEXT,
    ].join(' '),
    auth: 'apiKey',
    metered: true,
    match: (body) => isObject(body) && 'document' in body,
    schemas: {
      body: apiSchema('json-validator/validate-document-request.json'),
      response: { 200: apiSchema('json-validator/validate-document-response.json') },
    },
    async handler({ body }, ctx) {
      const startedAt = performance.now();
      const request = body as DocumentBody;
      const schema = chosenSchema(request, true);
      const outcome = await run(runner(), { op: 'value', document: request.document, schema });
      // The gateway adds processingTimeMs to D answers only; this R answer carries D's fields (DESIGN.md 7).
      return {
        ...report(ctx, 'SCHEMA', outcome),
        processingTimeMs: Math.round(performance.now() - startedAt),
      };
    },
  };

  return {
    slug: 'json-validator',
    title: 'JSON validator',
    description:
      'Checks JSON texts for syntax errors (with line and column) and JSON values against JSON Schema ' +
      'drafts 4, 6, 7, 2019-09 and 2020-12 or shipped profiles (GeoJSON, OpenAPI 3.1, package.json, ' +
      'tsconfig.json), explaining each issue in a sentence.',
    routes: [
      validateText,
      validateDocument,
      {
        convention: 'D',
        method: 'GET',
        path: '/api/v1/validate/profiles',
        operationId: 'jsonValidatorListProfiles',
        summary: 'List the shipped schemas that profileName may name',
        description:
          'Profiles: "geojson" (RFC 7946 objects), "openapi-3.1" (OpenAPI 3.1 documents), "package.json" ' +
          '(npm manifests) and "tsconfig.json" (TypeScript projects, as plain JSON). Each is a JSON Schema ' +
          'shipped with the service; their rules and limits are in their descriptions.',
        auth: 'apiKey',
        metered: true,
        schemas: { response: { 200: apiSchema('json-validator/profiles-response.json') } },
        async handler() {
          return { profiles: profileNames() };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/validate/syntax',
        operationId: 'jsonValidatorCheckSyntax',
        summary: 'Check that a text is valid JSON',
        description:
          'Parses {json} as RFC 8259 JSON (no comments, trailing commas, single quotes or NaN). A text ' +
          'that does not parse gives valid false and one issue: where parsing stopped (1-based line, ' +
          `column in code points) and why, e.g. "Expected ',' or '}' after property value".`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('json-validator/syntax-request.json'),
          response: { 200: apiSchema('json-validator/syntax-response.json') },
        },
        async handler({ body }) {
          const { json } = body as { json: string };
          notBlank(json);
          const outcome = checkSyntax(json);
          return {
            valid: outcome.valid,
            issues: outcome.issues.map(({ severity, path, message, line, column }: Issue) => ({
              severity,
              path,
              message,
              line,
              column,
            })),
          };
        },
      },
    ],
  };
}
