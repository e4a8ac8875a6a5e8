/**
 * The one catalogue of error codes: code → HTTP status → problem type → default message (DESIGN.md section 5).
 * Domain code throws AppError with a code from here; the gateway's one error handler renders it per convention.
 */
export const ERRORS = {
  VALIDATION_ERROR: { status: 400, title: 'Validation error', message: 'The request is invalid' },
  UNAUTHORIZED: { status: 401, title: 'Unauthorized', message: 'Authentication is required' },
  ACCOUNT_NOT_ACTIVATED: {
    status: 401,
    title: 'Account not activated',
    message: 'The account is not activated yet',
  },
  FORBIDDEN: { status: 403, title: 'Forbidden', message: 'This action is not allowed' },
  INSUFFICIENT_SCOPE: {
    status: 403,
    title: 'Insufficient scope',
    message: 'The API key lacks the scope for this service',
  },
  SSRF_BLOCKED: { status: 403, title: 'Target blocked', message: 'The target address is not allowed' },
  HTTPS_REQUIRED: { status: 403, title: 'HTTPS required', message: 'Use HTTPS' },
  TARGET_NOT_VERIFIED: {
    status: 403,
    title: 'Target not verified',
    message: 'The target has not been verified',
  },
  NOT_FOUND: { status: 404, title: 'Not found', message: 'The resource does not exist' },
  PROFILE_NOT_FOUND: { status: 404, title: 'Profile not found', message: 'The profile does not exist' },
  CONFLICT: { status: 409, title: 'Conflict', message: 'The resource conflicts with the current state' },
  INPUT_TOO_LARGE: { status: 413, title: 'Input too large', message: 'The input is too large' },
  PAYLOAD_TOO_LARGE: { status: 413, title: 'Payload too large', message: 'The request body is too large' },
  UNPROCESSABLE: { status: 422, title: 'Unprocessable', message: 'The request cannot be processed' },
  RATE_LIMIT_EXCEEDED: { status: 429, title: 'Rate limit exceeded', message: 'Too many requests' },
  QUOTA_EXCEEDED: { status: 429, title: 'Quota exceeded', message: 'The monthly quota is used up' },
  INTERNAL_ERROR: { status: 500, title: 'Internal error', message: 'Something went wrong on our side' },
  SERVICE_UNAVAILABLE: { status: 503, title: 'Service unavailable', message: 'The service is unavailable' },
} as const satisfies Record<string, { status: number; title: string; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** `/problems/validation-error` for VALIDATION_ERROR. */
export const problemType = (code: ErrorCode): string =>
  `/problems/${code.toLowerCase().replaceAll('_', '-')}`;

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message ?? ERRORS[code].message);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
  }
}
