import type { LoggerOptions } from 'pino';

/** Paths pino blanks in every log line: credentials must never reach a log, whatever logs them. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.id_token',
  '*.apiKey',
  '*.secret',
  '*.activationKey',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { service: 'toolgate' },
  };
}
