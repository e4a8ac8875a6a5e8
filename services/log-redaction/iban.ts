import { at, CHAR, isAlnum, isDigit, isUpper } from './chars.js';
import { ibanLengthOf, mod97Step } from './checksums.js';
import { type Detector, type Finding, RANK } from './types.js';

const isIbanChar = (c: number): boolean => isUpper(c) || isDigit(c);

/**
 * The end of the IBAN of `length` characters at `start`, compact or in the printed groups of four separated by
 * single spaces, if its mod-97 check holds; else -1. The check runs as the characters are read: no copy.
 */
function ibanEnd(text: string, start: number, length: number): number {
  let i = start;
  let count = 0;
  let grouped = -1;
  let rest = 0;
  while (count < length) {
    if (count > 0 && count % 4 === 0) {
      const spaced = at(text, i) === CHAR.SPACE ? 1 : 0;
      if (grouped === -1) grouped = spaced;
      if (spaced !== grouped) return -1;
      i += spaced;
    }
    const c = at(text, i);
    if (!isIbanChar(c)) return -1;
    // The first four characters (country and check digits) count last.
    if (count >= 4) rest = mod97Step(rest, c);
    count++;
    i++;
  }
  for (let k = 0; k < 4; k++) rest = mod97Step(rest, text.charCodeAt(start + k));
  return rest === 1 && !isAlnum(at(text, i)) ? i : -1;
}

/**
 * International Bank Account Numbers: a country code, two check digits, the country's exact length, and the
 * ISO 13616 mod-97 checksum. Anchors are two capitals and two digits at a word start; each reads at most 42
 * characters, so the pass is linear.
 */
export const ibanDetector: Detector = {
  types: ['IBAN'],
  scan(text: string, out: Finding[]): void {
    const n = text.length;
    for (let i = 0; i + 4 < n; i++) {
      if (!isUpper(text.charCodeAt(i)) || !isUpper(text.charCodeAt(i + 1))) continue;
      if (!isDigit(text.charCodeAt(i + 2)) || !isDigit(text.charCodeAt(i + 3)) || isAlnum(at(text, i - 1)))
        continue;
      const length = ibanLengthOf(text.charCodeAt(i), text.charCodeAt(i + 1));
      const end = length ? ibanEnd(text, i, length) : -1;
      if (end === -1) continue;
      out.push({ type: 'IBAN', start: i, end, confidence: 'HIGH', rank: RANK.IBAN });
      i = end - 1;
    }
  },
};
