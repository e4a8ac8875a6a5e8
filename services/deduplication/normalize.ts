/**
 * What fuzzy matching compares: each match field of each record reduced once to normalised text and tokens,
 * plus digits for phone numbers and local part and domain for e-mail addresses.
 */

/** Normalised text beyond this many characters takes no part in scoring (keeps one comparison bounded). */
export const MAX_TEXT_CHARS = 128;
/** Distinct tokens kept per value (the first ones). */
export const MAX_TOKENS = 16;
/** Digits kept of a phone number (E.164 has at most 15; the rest is an extension or noise). */
const MAX_DIGITS = 20;

/** Letters NFKD does not decompose into a base letter and a mark. */
const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'gu');
const MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/**
 * Lower case, compatibility decomposition without diacritics (é → e, ﬁ → fi, full-width → ASCII), the few
 * letters that do not decompose folded (ß → ss, ø → o), and every run of punctuation, symbols and white space
 * made one space. Capped at MAX_TEXT_CHARS.
 */
export function normalizeText(value: string): string {
  const text = value
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(FOLDABLE, (c) => FOLDS[c] ?? c)
    .replace(NOT_WORD, ' ')
    .trim();
  return text.length <= MAX_TEXT_CHARS ? text : text.slice(0, MAX_TEXT_CHARS).trimEnd();
}

/** Distinct tokens of normalised text: the first MAX_TOKENS, sorted (the token-set ratio wants them so). */
export function tokensOf(text: string): string[] {
  if (text === '') return [];
  return [...new Set(text.split(' '))].slice(0, MAX_TOKENS).sort();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Words in a field's name that make its values phone numbers (`phone`, `mobilePhone`, `fax_number`, `tel`). */
const PHONE_WORDS = new Set([
  'phone',
  'phonenumber',
  'telephone',
  'tel',
  'mobile',
  'cell',
  'cellphone',
  'fax',
  'msisdn',
  'whatsapp',
]);
/** Values that are phone numbers whatever the field is called: international format, `+` first. */
const PHONE_VALUE = /^\+\s*\d[\d\s().\-/]{5,}$/;

export interface Email {
  /** Lower case, without a `+tag` and without `.`, `_`, `-` (john.smith+news → johnsmith). */
  readonly local: string;
  readonly domain: string;
}

/** One match field of one record, ready to compare. */
export interface FieldValue {
  readonly text: string;
  /** Distinct, ascending. */
  readonly tokens: readonly string[];
  /** The tokens joined by spaces: its length bounds the token-set ratio cheaply. */
  readonly tokenText: string;
  /** Phone numbers: the digits without leading zeros (trunk prefix); null for other values. */
  readonly digits: string | null;
  readonly email: Email | null;
}

/** The value at `field`: an own property of that exact name, else a dotted path into nested objects. */
export function fieldValue(record: Readonly<Record<string, unknown>>, field: string): unknown {
  if (Object.hasOwn(record, field)) return record[field];
  if (!field.includes('.')) return undefined;
  let current: unknown = record;
  for (const part of field.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Strings, numbers and booleans as text; arrays of them joined by spaces; anything else is no value. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.map((v) => (Array.isArray(v) ? null : textOf(v))).filter((v) => v !== null);
    return parts.length > 0 ? parts.join(' ') : null;
  }
  return null;
}

function emailOf(raw: string): Email | null {
  const value = raw.trim().toLowerCase();
  if (!EMAIL.test(value)) return null;
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at).split('+')[0]!.replace(/[._-]/g, '');
  return { local: local.slice(0, MAX_TEXT_CHARS), domain: value.slice(at + 1).slice(0, MAX_TEXT_CHARS) };
}

/** `billing.mobilePhone` → billing, mobile, phone; `fax_no` → fax, no. */
const wordsOfName = (field: string): string[] =>
  field
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Whether a field's name says it holds phone numbers. */
export const isPhoneField = (field: string): boolean => wordsOfName(field).some((w) => PHONE_WORDS.has(w));

function digitsOf(raw: string, phoneField: boolean): string | null {
  if (!phoneField && !PHONE_VALUE.test(raw.trim())) return null;
  const digits = raw.replace(/\D+/g, '').replace(/^0+/, '');
  return digits.length >= 5 ? digits.slice(0, MAX_DIGITS) : null;
}

/** The comparable form of one field of one record, or null when it has no value (absent, null, blank). */
export function prepareField(
  record: Readonly<Record<string, unknown>>,
  field: string,
  phoneField = isPhoneField(field),
): FieldValue | null {
  const raw = textOf(fieldValue(record, field));
  if (raw === null) return null;
  const text = normalizeText(raw);
  if (text === '') return null;
  const tokens = tokensOf(text);
  return {
    text,
    tokens,
    tokenText: tokens.join(' '),
    digits: digitsOf(raw, phoneField),
    email: emailOf(raw),
  };
}
