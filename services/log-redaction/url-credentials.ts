import { CHAR, isSpace } from './chars.js';
import { type Detector, type Finding, RANK } from './types.js';

const MAX_USER = 128;
const MAX_PASSWORD = 256;

/**
 * `scheme://user:password@host` (`redis://:password@host` too): the password is redacted (the user name stays,
 * as `postgres://app:…@db` tells an operator which account failed). The user part stops at `:`, `/`, `@` and white space, the password
 * at `/`, `@` and white space, so the region read from one `://` never contains the next: linear.
 */
export const urlCredentialsDetector: Detector = {
  types: ['PASSWORD'],
  scan(text: string, out: Finding[]): void {
    for (let p = text.indexOf('://'); p !== -1; p = text.indexOf('://', p + 3)) {
      let i = p + 3;
      while (i < text.length && i - p - 3 <= MAX_USER) {
        const c = text.charCodeAt(i);
        if (
          c === CHAR.COLON ||
          c === CHAR.SLASH ||
          c === CHAR.AT ||
          c === CHAR.QUESTION ||
          c === CHAR.HASH ||
          isSpace(c)
        )
          break;
        i++;
      }
      if (text.charCodeAt(i) !== CHAR.COLON) continue;
      const start = i + 1;
      let e = start;
      while (e < text.length && e - start <= MAX_PASSWORD) {
        const c = text.charCodeAt(e);
        if (c === CHAR.SLASH || c === CHAR.AT || c === CHAR.QUESTION || c === CHAR.HASH || isSpace(c)) break;
        e++;
      }
      if (text.charCodeAt(e) !== CHAR.AT || e === start || e - start > MAX_PASSWORD) continue;
      out.push({ type: 'PASSWORD', start, end: e, confidence: 'HIGH', rank: RANK.URL_PASSWORD });
    }
  },
};
