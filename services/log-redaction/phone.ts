import { at, CHAR, isDigit, isWord } from './chars.js';
import { callingCode, nanpValid } from './checksums.js';
import { type Detector, type Finding, RANK } from './types.js';

/** Longest international number as written (`+999 (999) 999-999-999-999`), separators included. */
const MAX_SPAN = 26;

const isJoiner = (c: number): boolean => c === CHAR.SPACE || c === CHAR.DASH || c === CHAR.DOT;

/**
 * `+<country code> <number>`: 8 to 15 digits (E.164) with single spaces, hyphens, dots or a parenthesised
 * group between them; the code must be an assigned country calling code, and +1 numbers must fit the North
 * American plan. The read stops at any other character, so it never passes the next `+`: anchors' regions are
 * disjoint and bounded.
 */
function internationalAt(text: string, plus: number): Finding | null {
  if (isWord(at(text, plus - 1)) || at(text, plus - 1) === CHAR.PLUS || !isDigit(at(text, plus + 1)))
    return null;
  let digits = '';
  let i = plus + 1;
  let end = i;
  let open = false;
  while (i < text.length && i - plus <= MAX_SPAN) {
    const c = text.charCodeAt(i);
    const next = at(text, i + 1);
    if (isDigit(c)) {
      digits += text[i];
      i++;
      end = i;
    } else if (
      isJoiner(c) &&
      (isDigit(next) || (next === CHAR.LPAREN && !open)) &&
      isDigit(at(text, i - 1))
    ) {
      i++;
    } else if (c === CHAR.LPAREN && !open && isDigit(next)) {
      open = true;
      i++;
    } else if (c === CHAR.RPAREN && open && isDigit(at(text, i - 1))) {
      open = false;
      i++;
      if (at(text, i) === CHAR.SPACE && isDigit(at(text, i + 1))) i++;
    } else {
      break;
    }
  }
  if (open || isDigit(at(text, end)) || isWord(at(text, end))) return null;
  if (digits.length < 8 || digits.length > 15) return null;
  const code = callingCode(digits);
  if (!code) return null;
  if (code === '1' && (digits.length !== 11 || !nanpValid(digits.slice(1, 4), digits.slice(4, 7))))
    return null;
  return { type: 'PHONE', start: plus, end, confidence: 'HIGH', rank: RANK.PHONE };
}

function digitsAt(text: string, i: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!isDigit(at(text, i + k))) return false;
  return true;
}

/** `(415) 555-2671`, `(415)555-2671`, `(415) 555 2671`, `(415) 555.2671`: fixed offsets, constant work. */
function parenthesised(text: string, open: number): Finding | null {
  if (isWord(at(text, open - 1)) || !digitsAt(text, open + 1, 3)) return null;
  const d = (i: number, n: number) => digitsAt(text, i, n);
  if (!d(open + 1, 3) || at(text, open + 4) !== CHAR.RPAREN) return null;
  let i = open + 5;
  if (at(text, i) === CHAR.SPACE) i++;
  if (!d(i, 3)) return null;
  const exchange = i;
  i += 3;
  if (isJoiner(at(text, i))) i++;
  if (!d(i, 4)) return null;
  const end = i + 4;
  if (
    isWord(at(text, end)) ||
    ((at(text, end) === CHAR.DASH || at(text, end) === CHAR.DOT) && isDigit(at(text, end + 1)))
  )
    return null;
  if (!nanpValid(text.slice(open + 1, open + 4), text.slice(exchange, exchange + 3))) return null;
  return { type: 'PHONE', start: open, end, confidence: 'MEDIUM', rank: RANK.PHONE };
}

/** Phone numbers written with `+` or a parenthesised area code; dashed and dotted ones are in numbers.ts. */
export const phoneDetector: Detector = {
  types: ['PHONE'],
  scan(text: string, out: Finding[]): void {
    const international: Finding[] = [];
    for (let p = text.indexOf('+'); p !== -1; p = text.indexOf('+', p + 1)) {
      const found = internationalAt(text, p);
      if (found) {
        international.push(found);
        p = found.end - 1;
      }
    }
    // A `(415)` inside `+1 (415) 555-2671` is part of that number, not another one.
    let k = 0;
    for (let p = text.indexOf('('); p !== -1; p = text.indexOf('(', p + 1)) {
      while (k < international.length && international[k]!.end <= p) k++;
      if (k < international.length && international[k]!.start < p) continue;
      const found = parenthesised(text, p);
      if (found) out.push(found);
    }
    out.push(...international);
  },
};
