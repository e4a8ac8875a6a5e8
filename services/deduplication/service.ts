import { AppError } from '../../core/errors/catalogue.js';
import type { KvStore } from '../../core/kv/kv.js';
import type { CallContext, ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { contentHash, isWellFormed } from './content-hash.js';
import {
  DEFAULT_THRESHOLD,
  type Detection,
  type DuplicateGroup,
  detectDuplicates,
  type Records,
  type Strategy,
} from './detect.js';
import {
  type CheckResult,
  DEFAULT_TTL_HOURS,
  MAX_TTL_HOURS,
  NAMESPACE_PATTERN,
  recordSubmission,
} from './entries.js';
import { fieldValue } from './normalize.js';

export { DEFAULT_THRESHOLD } from './detect.js';
export { DEFAULT_TTL_HOURS, MAX_TTL_HOURS } from './entries.js';

/** Records one detect call may carry. */
export const MAX_RECORDS = 10_000;
/** Body limit of the detect route: 10,000 records of about 500 bytes each. */
export const DETECT_BODY_LIMIT = 5 * 1024 * 1024;

export interface DeduplicationDeps {
  /** Where check entries live: SQLite in the embedded profile, Redis in the cluster. */
  readonly kv: KvStore;
  /** The clock of `firstSeen` and expiry; the gateway's clock (ctx.now) when omitted. */
  readonly now?: () => Date;
}

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface CheckRequest {
  readonly content: string;
  readonly namespace: string;
  readonly ttlHours?: number;
}

interface DetectRequest {
  readonly records: Records;
  readonly strategy?: Strategy;
  readonly matchFields: readonly string[];
  readonly threshold?: number;
}

/** R body: SPEC.md 4.4 (the per-field `scores` breakdown added). */
export interface DetectResult {
  readonly duplicateGroups: readonly DuplicateGroup[];
  readonly totalRecords: number;
  readonly duplicatesFound: number;
}

const NAMESPACE_RULE = "namespace: must be 1 to 100 characters of letters, digits, '.', '_' or '-'";

/** The schema already refuses these; the handler stays correct for any caller. */
function checkRequest(body: CheckRequest): number {
  if (!NAMESPACE_PATTERN.test(body.namespace)) throw new AppError('VALIDATION_ERROR', NAMESPACE_RULE);
  const ttlHours = body.ttlHours ?? DEFAULT_TTL_HOURS;
  if (!Number.isInteger(ttlHours) || ttlHours < 1 || ttlHours > MAX_TTL_HOURS) {
    throw new AppError('VALIDATION_ERROR', `ttlHours: must be an integer from 1 to ${MAX_TTL_HOURS}`);
  }
  if (!isWellFormed(body.content)) {
    throw new AppError('VALIDATION_ERROR', 'content: must be well-formed Unicode (no unpaired surrogates)');
  }
  return ttlHours;
}

/** A field no record has is a typo far more often than intent: say so instead of finding nothing. */
function checkFields(records: Records, fields: readonly string[]): void {
  fields.forEach((field, k) => {
    if (!records.some((r) => fieldValue(r, field) !== undefined)) {
      throw new AppError(
        'VALIDATION_ERROR',
        `matchFields[${k}]: no record has the field ${JSON.stringify(field)}`,
      );
    }
  });
}

const accountOf = (ctx: CallContext): string => {
  if (!ctx.accountId) throw new AppError('UNAUTHORIZED', 'an API key is required');
  return ctx.accountId;
};

const CHECK_RULES =
  'The hash is SHA-256 over the exact UTF-8 bytes of `content`: nothing is trimmed or normalised, so any ' +
  'change, white space and letter case included, gives another hash. Namespaces are private to the account ' +
  'of the API key (another account never sees your hashes) and are case-sensitive. An entry lives `ttlHours` ' +
  `(default ${DEFAULT_TTL_HOURS}, i.e. 30 days; at most ${MAX_TTL_HOURS}) from its first submission; ` +
  'repeats do not extend it, and after expiry the same content is UNIQUE again. Concurrent submissions of ' +
  'the same content are counted exactly: one is UNIQUE, the others get distinct `occurrences`.';

const DETECT_RULES =
  'FUZZY (the default) normalises each match field (letter case, diacritics, punctuation and white space; ' +
  'phone numbers to their digits, e-mail addresses without dots and +tags in the local part) and scores ' +
  'pairs by Jaro–Winkler and token-set ratio per field; a pair whose mean field score reaches `threshold` ' +
  `(default ${DEFAULT_THRESHOLD}) is a duplicate, and duplicates of duplicates join one group. Candidate ` +
  'pairs come from blocking (shared rare tokens by sound, shared values, phone-number tails), so the work ' +
  'grows linearly with the records. EXACT groups records whose match fields hold equal JSON values. ' +
  "Each group gives its records' positions in `records`, its similarity and a per-field score breakdown.";

export function createDeduplicationService(deps: DeduplicationDeps): ServiceDefinition {
  const clock = (ctx: CallContext): Date => (deps.now ?? ctx.now)();
  return {
    slug: 'deduplication',
    title: 'Deduplication',
    description:
      'Exact content deduplication with per-account namespaces and expiry, and duplicate detection in record ' +
      'sets by exact or fuzzy matching of chosen fields.',
    routes: [
      {
        convention: 'S',
        method: 'POST',
        path: '/api/deduplication/check',
        operationId: 'deduplicationCheck',
        summary: 'Check whether content was submitted before in a namespace',
        description:
          'Returns UNIQUE the first time a content is submitted in a namespace and EXACT_DUPLICATE after ' +
          'that, with its SHA-256 hash, when it was first seen, how many times it has been submitted and ' +
          `when the entry expires. ${CHECK_RULES}`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('deduplication/check-request.json'),
          response: { 200: apiSchema('deduplication/check-response.json') },
        },
        async handler({ body }, ctx): Promise<CheckResult> {
          const request = body as CheckRequest;
          const ttlHours = checkRequest(request);
          return recordSubmission(
            deps.kv,
            {
              accountId: accountOf(ctx),
              namespace: request.namespace,
              hash: contentHash(request.content),
              ttlHours,
            },
            clock(ctx),
          );
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/dedup/detect',
        operationId: 'dedupDetect',
        summary: 'Find duplicate records by exact or fuzzy matching of chosen fields',
        description:
          `Takes up to ${MAX_RECORDS.toLocaleString('en')} records (JSON objects, a 5 MiB body) and the ` +
          'fields to match on (a name, or a dotted path into nested objects), and returns groups of ' +
          `duplicates. ${DETECT_RULES}`,
        auth: 'apiKey',
        metered: true,
        bodyLimit: DETECT_BODY_LIMIT,
        schemas: {
          body: apiSchema('deduplication/detect-request.json'),
          response: { 200: apiSchema('deduplication/detect-response.json') },
        },
        async handler({ body }): Promise<DetectResult> {
          const request = body as DetectRequest;
          checkFields(request.records, request.matchFields);
          const detection: Detection = await detectDuplicates(request.records, {
            strategy: request.strategy ?? 'FUZZY',
            matchFields: request.matchFields,
            threshold: request.threshold ?? DEFAULT_THRESHOLD,
          });
          return {
            duplicateGroups: detection.duplicateGroups,
            totalRecords: detection.totalRecords,
            duplicatesFound: detection.duplicatesFound,
          };
        },
      },
    ],
  };
}
