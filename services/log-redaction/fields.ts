import { at, CHAR, DIGIT, isSpace, runEnd } from './chars.js';
import { ssnValid } from './checksums.js';
import { type Finding, RANK } from './types.js';

/** What a field's name says about its value. */
export type FieldKind = 'PASSWORD' | 'API_KEY' | 'SSN' | 'AUTHORIZATION';

const PASSWORD_SUFFIXES = ['password', 'passwd', 'passphrase', 'pwd'];
/** `PWD`/`OLDPWD` are the shell's working directories in environment dumps. */
const NOT_PASSWORD = new Set(['pwd', 'oldpwd']);
const API_KEY_SUFFIXES = [
  'apikey',
  'apisecret',
  'accesskey',
  'secretkey',
  'secret',
  'token',
  'privatekey',
  'credential',
  'credentials',
  'sessionid',
  'sessionkey',
  'cookie',
];

/** Last letters of every name fieldKind accepts: most `=` and `:` in a log are dismissed by one look-up. */
const ENDINGS = new Set(
  [
    ...PASSWORD_SUFFIXES,
    ...API_KEY_SUFFIXES,
    'authorization',
    'ssn',
    'socialsecuritynumber',
    'pass',
    'pw',
  ].map((name) => name.charCodeAt(name.length - 1)),
);

/** Whether a field name ending in code unit `c` can name a secret. */
export const mayNameSecret = (c: number): boolean => ENDINGS.has(c | 0x20);

/**
 * Classifies a field name, compared case-insensitively without `-`, `_`, `.` or spaces, by its ending: so
 * `db.password`, `DB_PASSWORD`, `X-Api-Key`, `clientSecret`, `refresh_token` and `Set-Cookie` all count.
 */
export function fieldKind(name: string): FieldKind | null {
  if (name.length > 64) return null;
  const k = name.toLowerCase().replace(/[-_. ]/g, '');
  if (k.endsWith('authorization')) return 'AUTHORIZATION';
  if ((PASSWORD_SUFFIXES.some((s) => k.endsWith(s)) || k === 'pass' || k === 'pw') && !NOT_PASSWORD.has(k))
    return 'PASSWORD';
  if (k.endsWith('ssn') || k.endsWith('socialsecuritynumber')) return 'SSN';
  if (API_KEY_SUFFIXES.some((s) => k.endsWith(s))) return 'API_KEY';
  return null;
}

const PLACEHOLDERS = new Set([
  'null',
  'nil',
  'none',
  'undefined',
  'true',
  'false',
  'redacted',
  'filtered',
  'hidden',
  'masked',
  '[redacted]',
  '[filtered]',
  '<redacted>',
]);

/** Values that hide nothing: empty, `null`, `****`, `${DB_PASSWORD}`, or one of our own replacement tokens. */
export function isPlaceholder(text: string, start: number, end: number): boolean {
  if (end <= start) return true;
  const first = text.charCodeAt(start);
  let same = true;
  for (let i = start + 1; same && i < end; i++) same = text.charCodeAt(i) === first;
  if (same) return true;
  if (end - start <= 16 && PLACEHOLDERS.has(text.slice(start, end).toLowerCase())) return true;
  const head = text.slice(start, start + 2);
  if (head === '${' || head === '{{' || head === '%(' || first === CHAR.LT) return true;
  return first === CHAR.LBRACKET && text.slice(start, Math.min(end + 1, text.length)).includes('_REDACTED');
}

const SCHEMES = new Map<string, 'API_KEY' | 'PASSWORD'>([
  ['bearer', 'API_KEY'],
  ['token', 'API_KEY'],
  ['apikey', 'API_KEY'],
  ['bot', 'API_KEY'],
  ['basic', 'PASSWORD'],
]);

const field = (type: Finding['type'], start: number, end: number): Finding => ({
  type,
  start,
  end,
  confidence: 'HIGH',
  rank: RANK.FIELD,
});

/** `123-45-6789`, `123 45 6789` or `123456789` filling the whole value. */
function ssnValue(text: string, start: number, end: number): boolean {
  const digits: string[] = [];
  let i = start;
  for (const len of [3, 2, 4]) {
    const e = runEnd(text, i, DIGIT);
    if (e - i === 9 && len === 3 && e === end) {
      return ssnValid(text.slice(i, i + 3), text.slice(i + 3, i + 5), text.slice(i + 5, e));
    }
    if (e - i !== len) return false;
    digits.push(text.slice(i, e));
    i = e;
    if (len !== 4) {
      const c = at(text, i);
      if (c !== CHAR.DASH && c !== CHAR.SPACE) return false;
      i++;
    }
  }
  return i === end && ssnValid(digits[0]!, digits[1]!, digits[2]!);
}

/**
 * The finding for the value [start, end) of a field of the given kind, if the value hides anything.
 * Authorization values are `<scheme> <credentials>`: only the credentials are redacted (Basic ones are a
 * user name and password).
 */
export function fieldValueFinding(kind: FieldKind, text: string, start: number, end: number): Finding | null {
  if (isPlaceholder(text, start, end)) return null;
  const len = end - start;
  switch (kind) {
    case 'PASSWORD':
      return len >= 3 ? field('PASSWORD', start, end) : null;
    case 'API_KEY':
      return len >= 8 ? field('API_KEY', start, end) : null;
    case 'SSN':
      return ssnValue(text, start, end) ? field('SSN', start, end) : null;
    case 'AUTHORIZATION': {
      let i = start;
      while (i < end && !isSpace(text.charCodeAt(i))) i++;
      const scheme = SCHEMES.get(text.slice(start, i).toLowerCase());
      if (i === end || !scheme) return len >= 8 ? field('API_KEY', start, end) : null;
      while (i < end && isSpace(text.charCodeAt(i))) i++;
      if (isPlaceholder(text, i, end) || end - i < 8) return null;
      return field(scheme, i, end);
    }
  }
}
