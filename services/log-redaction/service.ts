import { AppError } from '../../core/errors/catalogue.js';
import type { RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import {
  applyRedactions,
  type ContentType,
  type Detection,
  detect,
  InvalidJsonContent,
} from './redaction.js';
import type { DetectionType } from './types.js';

/** SPEC.md 8: redaction content up to 1 MB, read as 1 MiB of UTF-8 (what the body actually carries). */
export const MAX_CONTENT_BYTES = 1024 * 1024;
/**
 * The routes' body limit: 1 MiB of content may grow in JSON escaping (every `"` and line break doubles), so
 * the body may be twice that; the content itself is then measured and refused with INPUT_TOO_LARGE.
 */
export const BODY_LIMIT = 2 * MAX_CONTENT_BYTES;
export const BATCH_MAX = 1000;

export interface LogRedactionDeps {
  /** Accepted for the factory convention; redaction reads no clock (results depend on the input only). */
  readonly now?: () => Date;
}

interface ContentRequest {
  readonly content: string;
  readonly contentType?: ContentType;
}

interface TextRequest {
  readonly text: string;
  readonly rules?: readonly DetectionType[];
}

interface BatchRequest {
  readonly items: readonly {
    readonly id?: string;
    readonly text: string;
    readonly rules?: readonly DetectionType[];
  }[];
  readonly rules?: readonly DetectionType[];
}

/** A detection as the redact responses carry it: D's fields and R's (`offset`, `length`) together. */
export interface RedactedDetection {
  readonly type: DetectionType;
  readonly originalValue: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly replacement: string;
  readonly offset: number;
  readonly length: number;
}

/** `/api/v1/redact` is shared by D and R (DESIGN.md section 7): the union of both conventions' fields. */
export interface RedactResult {
  readonly redactedContent: string;
  readonly redacted: string;
  readonly detections: readonly RedactedDetection[];
  readonly totalDetections: number;
}

export interface AnalyzeResult {
  readonly detections: readonly {
    readonly type: DetectionType;
    readonly value: string;
    readonly startIndex: number;
    readonly endIndex: number;
    readonly confidence: Detection['confidence'];
  }[];
  readonly totalDetections: number;
  readonly wouldRedact: boolean;
}

export interface BatchItemResult {
  readonly index: number;
  readonly id: string | null;
  readonly redacted: string | null;
  readonly detections: readonly RedactedDetection[];
  readonly totalDetections: number;
  readonly error: { readonly code: 'VALIDATION_ERROR' | 'INPUT_TOO_LARGE'; readonly message: string } | null;
}

/** Size before blankness: an oversized body is refused without reading it twice. */
function checkInput(field: string, value: string): void {
  if (Buffer.byteLength(value, 'utf8') > MAX_CONTENT_BYTES) {
    throw new AppError('INPUT_TOO_LARGE', `${field}: must be at most 1 MiB (1048576 bytes of UTF-8)`);
  }
  if (value.trim() === '') throw new AppError('VALIDATION_ERROR', `${field}: must not be blank`);
}

function find(field: string, content: string, contentType: ContentType, rules?: readonly DetectionType[]) {
  checkInput(field, content);
  try {
    return detect(content, contentType, rules ? new Set(rules) : undefined);
  } catch (err) {
    if (err instanceof InvalidJsonContent) {
      throw new AppError('VALIDATION_ERROR', `${field}: must be valid JSON (one document, or JSON Lines)`);
    }
    throw err;
  }
}

const toRedacted = (d: Detection): RedactedDetection => ({
  type: d.type,
  originalValue: d.value,
  startIndex: d.start,
  endIndex: d.end,
  replacement: d.replacement,
  offset: d.start,
  length: d.end - d.start,
});

function redactResult(content: string, detections: readonly Detection[]): RedactResult {
  const redacted = applyRedactions(content, detections);
  return {
    redactedContent: redacted,
    redacted,
    detections: detections.map(toRedacted),
    totalDetections: detections.length,
  };
}

function batchItem(index: number, item: BatchRequest['items'][number], rules?: readonly DetectionType[]) {
  const id = item.id ?? null;
  try {
    const detections = find(`items[${index}].text`, item.text, 'TEXT', item.rules ?? rules);
    const { redacted, detections: out, totalDetections } = redactResult(item.text, detections);
    return { index, id, redacted, detections: out, totalDetections, error: null } satisfies BatchItemResult;
  } catch (err) {
    if (!(err instanceof AppError) || (err.code !== 'VALIDATION_ERROR' && err.code !== 'INPUT_TOO_LARGE'))
      throw err;
    const error = { code: err.code, message: err.message };
    return { index, id, redacted: null, detections: [], totalDetections: 0, error } satisfies BatchItemResult;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** `{text}` is convention R's request; anything else is D's, whose schema then names what is missing. */
const isTextRequest = (body: unknown): boolean => isObject(body) && 'text' in body && !('content' in body);

const DETECTS =
  'Detects e-mail addresses, US Social Security numbers, card numbers (Luhn and issuer ranges), phone ' +
  'numbers (international with +, North American), API keys (AWS, GitHub, Stripe, Slack, Google, OpenAI, ' +
  'GitLab, npm, Toolgate tg_ keys and others by prefix; random-looking tokens by entropy), IPv4 and IPv6 ' +
  'addresses (validated), JWTs (decoded), IBANs (mod-97 checksum), MAC addresses, passwords (in ' +
  '`password=`-like fields and URL credentials) and PEM private keys; values of fields named like secrets ' +
  '(password, token, apiKey, secret, authorization, ssn) are redacted whatever they look like. UUIDs, ' +
  'timestamps, hashes and version strings are left alone. Offsets are UTF-16 code units (JavaScript ' +
  'string indices) of the submitted content. Work is linear in the content.';

export function createLogRedactionService(_deps: LogRedactionDeps = {}): ServiceDefinition {
  const redactContent: RouteDefinition = {
    convention: 'D',
    method: 'POST',
    path: '/api/v1/redact',
    operationId: 'logRedactionRedact',
    summary: 'Redact sensitive values from log content (TEXT or JSON)',
    description:
      'Replaces each sensitive value with a token such as [EMAIL_REDACTED] and lists what was replaced. ' +
      'JSON content (a document, or JSON Lines) keeps its structure: string values are redacted, field names ' +
      'never; offsets then point into the JSON source. Content over 1 MiB of UTF-8: 413 INPUT_TOO_LARGE. ' +
      'The same path takes convention R bodies ({text, rules}); both answer with the fields of both. ' +
      DETECTS,
    auth: 'apiKey',
    metered: true,
    bodyLimit: BODY_LIMIT,
    match: (body) => !isTextRequest(body),
    schemas: {
      body: apiSchema('log-redaction/content-request.json'),
      response: { 200: apiSchema('log-redaction/redact-response.json') },
    },
    async handler({ body }): Promise<RedactResult> {
      const { content, contentType = 'TEXT' } = body as ContentRequest;
      return redactResult(content, find('content', content, contentType));
    },
  };

  const redactText: RouteDefinition = {
    convention: 'R',
    method: 'POST',
    path: '/api/v1/redact',
    operationId: 'logRedactionRedactText',
    summary: 'Redact sensitive values from text, by rule',
    description:
      'Convention R on the shared path: `rules` picks the types to redact (all when omitted). Answers with ' +
      "R's fields (redacted, detections with offset and length) and D's. " +
      DETECTS,
    auth: 'apiKey',
    metered: true,
    bodyLimit: BODY_LIMIT,
    match: isTextRequest,
    schemas: {
      body: apiSchema('log-redaction/text-request.json'),
      response: { 200: apiSchema('log-redaction/redact-response.json') },
    },
    async handler({ body }): Promise<RedactResult> {
      const { text, rules } = body as TextRequest;
      return redactResult(text, find('text', text, 'TEXT', rules));
    },
  };

  const analyze: RouteDefinition = {
    convention: 'D',
    method: 'POST',
    path: '/api/v1/redact/analyze',
    operationId: 'logRedactionAnalyze',
    summary: 'List the sensitive values in log content without redacting it',
    description:
      'Finds what POST /api/v1/redact would redact, with a confidence per value; the content is returned ' +
      'untouched (not at all). ' +
      DETECTS,
    auth: 'apiKey',
    metered: true,
    bodyLimit: BODY_LIMIT,
    schemas: {
      body: apiSchema('log-redaction/content-request.json'),
      response: { 200: apiSchema('log-redaction/analyze-response.json') },
    },
    async handler({ body }): Promise<AnalyzeResult> {
      const { content, contentType = 'TEXT' } = body as ContentRequest;
      const detections = find('content', content, contentType);
      return {
        detections: detections.map((d) => ({
          type: d.type,
          value: d.value,
          startIndex: d.start,
          endIndex: d.end,
          confidence: d.confidence,
        })),
        totalDetections: detections.length,
        wouldRedact: detections.length > 0,
      };
    },
  };

  const batch: RouteDefinition = {
    convention: 'R',
    method: 'POST',
    path: '/api/v1/redact/batch',
    operationId: 'logRedactionRedactBatch',
    summary: 'Redact several texts in one call',
    description:
      'Each item is redacted as POST /api/v1/redact does with {text, rules}; an item without rules uses the ' +
      "request's. A blank or oversized item fails alone, with its error in its result. Items: at most the " +
      "plan's batch size. " +
      DETECTS,
    auth: 'apiKey',
    metered: true,
    bodyLimit: BODY_LIMIT,
    batch: { field: 'items', max: BATCH_MAX },
    schemas: {
      body: apiSchema('log-redaction/batch-request.json'),
      response: { 200: apiSchema('log-redaction/batch-response.json') },
    },
    async handler({ body }): Promise<{ results: BatchItemResult[] }> {
      const { items, rules } = body as BatchRequest;
      return { results: items.map((item, index) => batchItem(index, item, rules)) };
    },
  };

  return {
    slug: 'log-redaction',
    title: 'Log redaction',
    description:
      'Finds and redacts personal data and secrets in log lines and JSON logs: e-mail addresses, SSNs, card ' +
      'numbers, phone numbers, API keys, IP addresses, JWTs, IBANs, MAC addresses, passwords and private keys.',
    routes: [redactContent, redactText, analyze, batch],
  };
}
