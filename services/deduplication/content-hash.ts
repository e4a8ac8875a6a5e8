import { createHash } from 'node:crypto';

/** A lone UTF-16 surrogate: JSON can carry one ("\ud800"), UTF-8 cannot encode it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether the text is well-formed Unicode, so its UTF-8 bytes are defined (no unpaired surrogates). */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

/**
 * SHA-256 of the exact UTF-8 bytes, as 64 lower-case hex digits: nothing is trimmed or normalised, so "a",
 * "a " and "A" all differ (and so do a composed é and e + U+0301). Callers refuse ill-formed text first:
 * Node would encode a lone surrogate as U+FFFD, and two different inputs would share a hash.
 */
export const contentHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
