import { AppError, ERRORS, type ErrorCode, problemType } from '../core/errors/catalogue.js';
import type { Convention } from '../core/service/definition.js';
import { validationMessage } from './validation-messages.js';

/** How an error body is shaped on a path (DESIGN.md section 5). RD: a path shared by R and D. */
export type ErrorStyle = 'S' | 'R' | 'D' | 'RD';

export const errorStyleOf = (conventions: readonly Convention[]): ErrorStyle => {
  const set = new Set(conventions);
  if (set.has('R') && set.has('D')) return 'RD';
  if (set.has('R')) return 'R';
  if (set.has('D')) return 'D';
  return 'S';
};

/** Paths no route claims: versioned paths answer like R and D together, everything else like S. */
export const errorStyleOfPath = (path: string): ErrorStyle => (path.startsWith('/api/v1/') ? 'RD' : 'S');

export interface RenderedError {
  readonly status: number;
  readonly contentType: string;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
}

export function renderError(error: AppError, style: ErrorStyle, instance: string): RenderedError {
  const { status } = error;
  const headers: Record<string, string> = {};
  const retry = error.details?.retryAfterSeconds;
  if (typeof retry === 'number') headers['retry-after'] = String(Math.max(1, Math.ceil(retry)));
  if (style === 'S') {
    return {
      status,
      headers,
      contentType: 'application/json; charset=utf-8',
      body: { status: 'ERROR', error: { code: error.code, message: error.message } },
    };
  }
  if (style === 'D') {
    const body: Record<string, unknown> = { error: error.code, message: error.message };
    if (status !== 413) body.status = status;
    return { status, headers, contentType: 'application/json; charset=utf-8', body };
  }
  const problem: Record<string, unknown> = {
    type: problemType(error.code),
    title: ERRORS[error.code].title,
    status,
    detail: error.message,
    instance,
  };
  if (style === 'RD') Object.assign(problem, { error: error.code, message: error.message });
  return { status, headers, contentType: 'application/problem+json; charset=utf-8', body: problem };
}

interface FastifyLikeError {
  readonly statusCode?: number;
  readonly code?: string;
  readonly validation?: readonly { keyword: string; instancePath: string; params: Record<string, unknown> }[];
  readonly validationContext?: string;
  readonly message?: string;
}

/**
 * Everything thrown on a request becomes an AppError of the catalogue. Unknown errors become INTERNAL_ERROR with
 * the default message: driver messages, paths and stacks never reach a response.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = (err ?? {}) as FastifyLikeError;
  if (e.validation) {
    const root = e.validationContext === 'querystring' ? 'query' : e.validationContext;
    return new AppError('VALIDATION_ERROR', validationMessage(e.validation, root));
  }
  const byCode: Record<string, [ErrorCode, string]> = {
    FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'body: exceeds the size limit'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: ['VALIDATION_ERROR', 'Content-Type: must be application/json'],
    FST_ERR_CTP_EMPTY_JSON_BODY: ['VALIDATION_ERROR', 'body: must not be blank'],
    FST_ERR_CTP_INVALID_JSON_BODY: ['VALIDATION_ERROR', 'body: must be valid JSON'],
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['VALIDATION_ERROR', 'Content-Length: does not match the body'],
  };
  const known = e.code ? byCode[e.code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  if (err instanceof SyntaxError || e.statusCode === 400)
    return new AppError('VALIDATION_ERROR', 'body: must be valid JSON');
  if (e.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'body: exceeds the size limit');
  if (e.statusCode === 415) return new AppError('VALIDATION_ERROR', 'Content-Type: is not supported');
  return new AppError('INTERNAL_ERROR');
}
