/**
 * The one definition of a valid blob key, shared by every adapter so that none accepts what another refuses.
 * A key is exactly `<namespace>/<id>`: two segments of [A-Za-z0-9._-], neither `.` nor `..`. Two segments, not
 * more, so a key never names a directory that another key needs as a file. Segments are capped below the
 * filesystems' 255-byte name limit, leaving room for the file adapter's temporary suffix.
 */
export const MAX_SEGMENT_LENGTH = 200;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

export class InvalidBlobKeyError extends Error {
  override readonly name = 'InvalidBlobKeyError';

  constructor(key: unknown, reason: string) {
    // JSON.stringify escapes control characters (NUL included) so the message stays printable.
    const shown = typeof key === 'string' ? JSON.stringify(key.slice(0, 80)) : typeof key;
    super(`invalid blob key ${shown}: ${reason}`);
  }
}

/** Why `key` is not a valid blob key, or null when it is. */
export function blobKeyProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'must be a string';
  if (key === '') return 'must not be empty';
  if (key.startsWith('/')) return 'must not be an absolute path';
  const segments = key.split('/');
  if (segments.some((s) => s === '')) return 'must not contain empty segments';
  if (segments.some((s) => s === '.' || s === '..')) return "must not contain '.' or '..' segments";
  if (segments.length !== 2) return 'must be <namespace>/<id> (exactly two segments)';
  if (segments.some((s) => !SEGMENT.test(s)))
    return 'segments may contain only A-Z, a-z, 0-9, ".", "_" and "-"';
  if (segments.some((s) => s.length > MAX_SEGMENT_LENGTH)) {
    return `segments must be at most ${MAX_SEGMENT_LENGTH} characters`;
  }
  return null;
}

/** Throws InvalidBlobKeyError unless `key` is valid; returns its namespace and id. */
export function parseBlobKey(key: string): { namespace: string; id: string } {
  const problem = blobKeyProblem(key);
  if (problem !== null) throw new InvalidBlobKeyError(key, problem);
  const [namespace, id] = key.split('/') as [string, string];
  return { namespace, id };
}

const CONTENT_TYPE = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;

/**
 * Content types are printable ASCII (at most 255 characters) because they end up in response headers, and
 * PostgreSQL text cannot hold NUL: every adapter refuses the same values.
 */
export function checkContentType(contentType: string): void {
  if (typeof contentType !== 'string' || !CONTENT_TYPE.test(contentType)) {
    throw new TypeError(`invalid blob content type ${JSON.stringify(String(contentType).slice(0, 80))}`);
  }
}
