import { at, BASE64URL, CHAR, inClass, runEnd } from './chars.js';
import { type Detector, type Finding, RANK } from './types.js';

/** A JOSE segment decoded to a JSON object, or null. */
function decodeObject(segment: string): Record<string, unknown> | null {
  if (segment.length < 4 || segment.length % 4 === 1) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Compact JWS tokens (RFC 7515/7519): `header.payload.signature`, where the header decodes to a JSON object
 * with an `alg` and the payload to a JSON object; the signature may be empty (`alg: none`). Only base64url runs
 * that start with `eyJ` (`{"` encoded) are tried, found by a forward search. A failed candidate resumes after
 * its header run, so each run is read as a header, a payload or a signature at most once each: linear.
 */
export const jwtDetector: Detector = {
  types: ['JWT'],
  scan(text: string, out: Finding[]): void {
    let from = 0;
    for (let p = text.indexOf('eyJ'); p !== -1; p = text.indexOf('eyJ', from)) {
      // Only at the start of a base64url run: `xeyJ…` is inside some other token.
      if (inClass(at(text, p - 1), BASE64URL)) {
        from = p + 1;
        continue;
      }
      const headerEnd = runEnd(text, p, BASE64URL);
      const token = match(text, p, headerEnd);
      if (token) out.push(token);
      from = token ? token.end : headerEnd;
    }
  },
};

function match(text: string, start: number, headerEnd: number): Finding | null {
  if (at(text, headerEnd) !== CHAR.DOT) return null;
  const payloadEnd = runEnd(text, headerEnd + 1, BASE64URL);
  if (payloadEnd === headerEnd + 1 || at(text, payloadEnd) !== CHAR.DOT) return null;
  const signatureEnd = runEnd(text, payloadEnd + 1, BASE64URL);
  const header = decodeObject(text.slice(start, headerEnd));
  if (!header || typeof header.alg !== 'string') return null;
  if (!decodeObject(text.slice(headerEnd + 1, payloadEnd))) return null;
  return { type: 'JWT', start, end: signatureEnd, confidence: 'HIGH', rank: RANK.JWT };
}
