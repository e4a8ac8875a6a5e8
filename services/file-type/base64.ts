import { AppError } from '../../core/errors/catalogue.js';

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * Base64 (RFC 4648 section 4) or base64url (section 5), padded or not; line breaks and spaces that MIME encoders
 * insert are ignored. Anything else, including a mix of both alphabets, is refused rather than half-decoded the
 * way Buffer.from would.
 */
export function decodeBase64(text: string, field: string): Buffer {
  const compact = text.replace(/[\t\n\r ]/g, '');
  if (compact === '') throw new AppError('VALIDATION_ERROR', `${field}: must not be blank`);
  const urlSafe = !STANDARD.test(compact);
  const unpadded = compact.replace(/=+$/, '');
  const valid =
    (!urlSafe || URL_SAFE.test(compact)) &&
    unpadded.length % 4 !== 1 &&
    (unpadded.length === compact.length || compact.length % 4 === 0);
  if (!valid) throw new AppError('VALIDATION_ERROR', `${field}: must be valid base64`);
  return Buffer.from(unpadded, urlSafe ? 'base64url' : 'base64');
}
