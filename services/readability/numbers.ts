/**
 * Syllables of numerals as they are read aloud. McLaughlin's SMOG instructions (and Flesch's) count a figure
 * by pronouncing it: "1999" is "nineteen ninety-nine" (5), "3.14" is "three point one four" (4).
 */

// zero, one … nineteen.
const ONES = [2, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 3, 1, 2, 2, 2, 2, 3, 2, 2] as const;
// (none), (ten), twenty … ninety.
const TENS = [0, 1, 2, 2, 2, 2, 2, 3, 2, 2] as const;
const HUNDRED = 2;
// thousand, million, billion, trillion: two syllables each.
const SCALE_WORD = 2;
/** Longer figures (account numbers, phone numbers) are read digit by digit. */
const MAX_CARDINAL_DIGITS = 15;

const ones = (n: number): number => ONES[n]!;

/** A number below one hundred; 0 reads as nothing ("three hundred"). */
function belowHundred(n: number): number {
  if (n === 0) return 0;
  if (n < 20) return ones(n);
  const units = n % 10;
  return TENS[Math.floor(n / 10)]! + (units === 0 ? 0 : ones(units));
}

function belowThousand(n: number): number {
  const hundreds = Math.floor(n / 100);
  return (hundreds > 0 ? ones(hundreds) + HUNDRED : 0) + belowHundred(n % 100);
}

const digitByDigit = (digits: string): number => {
  let n = 0;
  for (const d of digits) n += ones(Number(d));
  return n;
};

/**
 * "1999" → nineteen ninety-nine, "1900" → nineteen hundred, "1905" → nineteen oh five, "2024" → twenty
 * twenty-four.
 */
function year(digits: string): number | null {
  if (!/^(?:1[1-9]\d\d|20[1-9]\d)$/.test(digits)) return null;
  const tail = Number(digits.slice(2));
  const head = belowHundred(Number(digits.slice(0, 2)));
  if (tail === 0) return head + HUNDRED;
  if (tail < 10) return head + 1 + ones(tail);
  return head + belowHundred(tail);
}

/** An integer read as a cardinal ("1,250" → one thousand two hundred fifty). */
function cardinal(digits: string): number {
  if (/^0+$/.test(digits)) return ones(0);
  if (digits.startsWith('0') || digits.length > MAX_CARDINAL_DIGITS) return digitByDigit(digits);
  let total = 0;
  let scale = 0;
  for (let end = digits.length; end > 0; end -= 3, scale++) {
    const group = Number(digits.slice(Math.max(0, end - 3), end));
    if (group > 0) total += belowThousand(group) + (scale > 0 ? SCALE_WORD : 0);
  }
  return total;
}

/**
 * Syllables of a numeral: digits with optional thousands commas and an optional decimal part. A plain
 * four-digit number from 1100 to 2099 (except 2000–2009) is read as a year; decimals as "point" and digits.
 */
export function numberSyllables(numeral: string): number {
  const [whole = '', fraction] = numeral.split('.');
  const plain = !whole.includes(',') && fraction === undefined;
  const integer = (plain ? year(whole) : null) ?? cardinal(whole.replaceAll(',', ''));
  return fraction === undefined ? integer : integer + 1 + digitByDigit(fraction);
}

/** "1st", "2nd", "20th": the ordinal reads like the cardinal except "second" (+1) and "-tieth" (+1). */
export function ordinalSyllables(digits: string): number {
  const lastTwo = Number(digits.slice(-2));
  const units = lastTwo % 10;
  const extra = (units === 2 && lastTwo !== 12) || (units === 0 && lastTwo >= 20) ? 1 : 0;
  return cardinal(digits) + extra;
}
