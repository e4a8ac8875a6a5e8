import { CHAR, isAlnum, isSpace } from './chars.js';
import { type Detector, type Finding, RANK } from './types.js';

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';
const MAX_LABEL = 40;

/**
 * Characters of a PEM body: base64, line breaks, the `Proc-Type:`/`DEK-Info:` headers of encrypted keys, and
 * `\` for the `\n` escapes of a key logged inside a JSON string.
 */
const isBody = (c: number): boolean =>
  isAlnum(c) ||
  isSpace(c) ||
  c === CHAR.PLUS ||
  c === CHAR.SLASH ||
  c === CHAR.EQ ||
  c === CHAR.BACKSLASH ||
  c === CHAR.DASH ||
  c === CHAR.COLON ||
  c === CHAR.COMMA;

/** The label of a `-----BEGIN <label>-----` / `-----END <label>-----` marker at `at`: a bounded look. */
function marker(text: string, at: number, prefix: string): { label: string; end: number } | null {
  const from = at + prefix.length;
  const close = text.slice(from, from + MAX_LABEL + DASHES.length).indexOf(DASHES);
  if (close <= 0) return null;
  return { label: text.slice(from, from + close), end: from + close + DASHES.length };
}

/**
 * PEM private keys (PKCS#1, PKCS#8, encrypted, EC, OpenSSH, PGP): from the BEGIN marker through the body to
 * the matching END marker, or to where the body stops when the log cut the key short. Certificates and public
 * keys are public and stay. The body is read forward once and the next BEGIN is looked for after it: linear.
 */
export const privateKeyDetector: Detector = {
  types: ['PRIVATE_KEY'],
  scan(text: string, out: Finding[]): void {
    let p = text.indexOf(BEGIN);
    while (p !== -1) {
      const begin = marker(text, p, BEGIN);
      if (!begin?.label.includes('PRIVATE KEY')) {
        p = text.indexOf(BEGIN, p + BEGIN.length);
        continue;
      }
      let stop = begin.end;
      while (stop < text.length && isBody(text.charCodeAt(stop))) {
        if (text.charCodeAt(stop) === CHAR.DASH && text.startsWith(DASHES, stop)) break;
        stop++;
      }
      const end = text.startsWith(END, stop) ? marker(text, stop, END) : null;
      if (end && end.label === begin.label) {
        stop = end.end;
      } else {
        while (
          stop > begin.end &&
          (isSpace(text.charCodeAt(stop - 1)) || text.charCodeAt(stop - 1) === CHAR.BACKSLASH)
        )
          stop--;
      }
      out.push({ type: 'PRIVATE_KEY', start: p, end: stop, confidence: 'HIGH', rank: RANK.PRIVATE_KEY });
      p = text.indexOf(BEGIN, Math.max(stop, p + 1));
    }
  },
};
