/** Checksums and number plans: pure functions over digit strings. */

/** ISO/IEC 7812 Luhn check over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const MAESTRO = new Set([5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763]);

/** Issuer ranges and lengths of the card networks (so a random Luhn-valid number, 1 in 10, is not enough). */
export function knownCardRange(digits: string): boolean {
  const len = digits.length;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  const between = (v: number, lo: number, hi: number) => v >= lo && v <= hi;
  if (digits[0] === '4') return len === 13 || len === 16 || len === 19; // Visa
  if (between(p2, 51, 55) || between(p4, 2221, 2720)) return len === 16; // Mastercard
  if (p2 === 34 || p2 === 37) return len === 15; // American Express
  if (p4 === 6011 || between(p3, 644, 649) || p2 === 65) return between(len, 16, 19); // Discover
  if (between(p4, 3528, 3589)) return between(len, 16, 19); // JCB
  if (between(p3, 300, 305) || p2 === 36 || p2 === 38 || p2 === 39 || p4 === 3095)
    return between(len, 14, 19);
  if (p2 === 62) return between(len, 16, 19); // UnionPay
  if (between(p4, 2200, 2204)) return between(len, 16, 19); // Mir
  if (MAESTRO.has(p4)) return between(len, 12, 19);
  return false;
}

export const isCardNumber = (digits: string): boolean => knownCardRange(digits) && luhnValid(digits);

/**
 * US Social Security numbers as issued: area 001–899 except 666, group 01–99, serial 0001–9999
 * (SSA, "Social Security Number Randomization").
 */
export function ssnValid(area: string, group: string, serial: string): boolean {
  const a = Number(area);
  return a !== 0 && a !== 666 && a < 900 && Number(group) !== 0 && Number(serial) !== 0;
}

/** North American Numbering Plan: area code and exchange both start with 2–9. */
export const nanpValid = (area: string, exchange: string): boolean =>
  area.length === 3 && exchange.length === 3 && area[0]! >= '2' && exchange[0]! >= '2';

/** ITU-T E.164 country calling codes in use (assigned, plus shared and global services). */
const CALLING_CODES = new Set<string>([
  '1',
  '7',
  ...'20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58'.split(' '),
  ...'60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(' '),
  ...'211 212 213 216 218 260 261 262 263 264 265 266 267 268 269 290 291 297 298 299'.split(' '),
  ...'350 351 352 353 354 355 356 357 358 359 370 371 372 373 374 375 376 377 378 379 380 381 382'.split(' '),
  ...'385 386 387 389 420 421 423 500 501 502 503 504 505 506 507 508 509'.split(' '),
  ...'590 591 592 593 594 595 596 597 598 599 670 672 673 674 675 676 677 678 679 680 681 682 683'.split(' '),
  ...'685 686 687 688 689 690 691 692 800 808 850 852 853 855 856 870 878 880 881 882 883 886 888'.split(' '),
  ...'960 961 962 963 964 965 966 967 968 970 971 972 973 974 975 976 977 979 992 993 994 995 996 997 998'.split(
    ' ',
  ),
  ...Array.from({ length: 39 }, (_, k) => String(220 + k)),
]);

/** The country calling code a run of digits starts with (codes are prefix-free), or null. */
export function callingCode(digits: string): string | null {
  for (let len = 1; len <= 3; len++) {
    const code = digits.slice(0, len);
    if (CALLING_CODES.has(code)) return code;
  }
  return null;
}

/** IBAN lengths by country (SWIFT IBAN Registry). */
/** IBAN lengths by country (SWIFT IBAN Registry), keyed by the country code's two character codes. */
const IBAN_LENGTHS: ReadonlyMap<number, number> = new Map(
  (
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 ' +
    'EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 ' +
    'JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 ' +
    'NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 ' +
    'TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30'
  )
    .split(' ')
    .map((e): [number, number] => [e.charCodeAt(0) * 256 + e.charCodeAt(1), Number(e.slice(2))]),
);

/** The IBAN length of the country whose code is the two code units `a`, `b`. */
export const ibanLengthOf = (a: number, b: number): number | undefined => IBAN_LENGTHS.get(a * 256 + b);

export const ibanLength = (country: string): number | undefined =>
  ibanLengthOf(country.charCodeAt(0), country.charCodeAt(1));

/** One character of the ISO 13616 number (digits as themselves, letters as 10–35) into a running mod 97. */
export function mod97Step(rest: number, c: number): number {
  if (c >= 48 && c <= 57) return (rest * 10 + (c - 48)) % 97;
  if (c >= 65 && c <= 90) return (rest * 100 + (c - 55)) % 97;
  return -1;
}

/** ISO 13616 check: move the first four characters to the end, letters to 10–35, the number mod 97 is 1. */
export function ibanChecksumValid(iban: string): boolean {
  let rest = 0;
  for (let i = 0; i < iban.length; i++) {
    rest = mod97Step(rest, iban.charCodeAt((i + 4) % iban.length));
    if (rest < 0) return false;
  }
  return rest === 1;
}
