import {
  type CountryCode,
  isSupportedCountry,
  ParseError,
  type PhoneNumber,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from 'libphonenumber-js/max';
import { normalizeInput, sanitizeInput } from './normalize.js';

/**
 * Whether the input could be read as a number of a plausible length (SPEC.md 4.3, plus Google's country
 * case).
 */
export const PARSE_STATUSES = [
  'SUCCESS',
  'NOT_A_NUMBER',
  'INVALID_COUNTRY_CODE',
  'TOO_SHORT',
  'TOO_LONG',
] as const;
export type ParseStatus = (typeof PARSE_STATUSES)[number];

/** libphonenumber's number types; UNKNOWN when the number is not valid (the library then names no type). */
export const NUMBER_TYPES = [
  'MOBILE',
  'FIXED_LINE',
  'FIXED_LINE_OR_MOBILE',
  'VOIP',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'SHARED_COST',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
  'UNKNOWN',
] as const;
export type NumberType = (typeof NUMBER_TYPES)[number];

/**
 * Why a number is not valid, most basic first. INVALID_LENGTH: neither too short nor too long, but a length
 * the region does not use. NOT_IN_NUMBERING_PLAN: a possible length, but no range of the region's plan
 * matches.
 */
export type Issue = Exclude<ParseStatus, 'SUCCESS'> | 'INVALID_LENGTH' | 'NOT_IN_NUMBERING_PLAN';

export interface PhoneFormats {
  readonly e164: string;
  readonly international: string;
  readonly national: string;
  readonly rfc3966: string;
}

/** Everything libphonenumber-js says about one input; no carrier (that needs data files: carriers.ts). */
export interface PhoneAnalysis {
  readonly originalInput: string;
  readonly sanitizedInput: string;
  readonly extension: string | null;
  readonly parseStatus: ParseStatus;
  readonly issue: Issue | null;
  readonly possible: boolean;
  readonly valid: boolean;
  /** The country calling code (1, 44, 800…); null when none was found. */
  readonly countryCode: number | null;
  /** ISO 3166-1 alpha-2; null when unknown, and for non-geographic numbers (+800, +882…). */
  readonly regionCode: string | null;
  /** National significant number (no national prefix); null when nothing was parsed. */
  readonly nationalNumber: string | null;
  readonly numberType: NumberType;
  /**
   * null when the number is rejected (not even of a possible length): formatting it would look trustworthy.
   */
  readonly formats: PhoneFormats | null;
}

/** Upper-cased region when libphonenumber-js has metadata for it; otherwise null. */
export function supportedRegion(region: string): CountryCode | null {
  const upper = region.toUpperCase();
  return isSupportedCountry(upper) ? upper : null;
}

const PARSE_ERRORS: Readonly<Record<string, Exclude<ParseStatus, 'SUCCESS'>>> = {
  NOT_A_NUMBER: 'NOT_A_NUMBER',
  INVALID_COUNTRY: 'INVALID_COUNTRY_CODE',
  TOO_SHORT: 'TOO_SHORT',
  TOO_LONG: 'TOO_LONG',
};

/**
 * Reads one input as libphonenumber-js (full metadata) does in its strict mode: the whole input must be a
 * phone number (an extension such as `ext. 123`, `x123`, `#123` or `;ext=123` may follow); letters elsewhere
 * make it NOT_A_NUMBER. `defaultRegion` (already checked with supportedRegion) applies when the input has no
 * country code.
 */
export function analyzePhoneNumber(rawInput: string, defaultRegion?: CountryCode): PhoneAnalysis {
  const text = normalizeInput(rawInput);
  const options = { defaultCountry: defaultRegion, extract: false };
  let parsed: PhoneNumber;
  try {
    parsed = parsePhoneNumberWithError(text, options);
  } catch (error) {
    const status = error instanceof ParseError ? PARSE_ERRORS[error.message] : undefined;
    if (!status) throw error;
    return failure(rawInput, text, status);
  }

  const extension = parsed.ext ?? null;
  const possible = parsed.isPossible();
  const valid = parsed.isValid();
  // Why the length is wrong: a valid number's length is right, so only the others pay for a second parse.
  const length = valid ? undefined : validatePhoneNumberLength(text, { defaultCountry: defaultRegion });
  const issue: Issue | null = valid
    ? null
    : length === 'TOO_SHORT' || length === 'TOO_LONG'
      ? length
      : possible
        ? 'NOT_IN_NUMBERING_PLAN'
        : 'INVALID_LENGTH';
  return {
    originalInput: rawInput,
    sanitizedInput: sanitizeInput(text, extension),
    extension,
    parseStatus: issue === 'TOO_SHORT' || issue === 'TOO_LONG' ? issue : 'SUCCESS',
    issue,
    possible,
    valid,
    countryCode: Number(parsed.countryCallingCode),
    regionCode: parsed.country ?? null,
    nationalNumber: parsed.nationalNumber,
    numberType: (valid ? parsed.getType() : undefined) ?? 'UNKNOWN',
    formats: possible
      ? {
          e164: parsed.number,
          international: parsed.formatInternational(),
          national: parsed.formatNational(),
          rfc3966: parsed.getURI(),
        }
      : null,
  };
}

function failure(rawInput: string, text: string, status: Exclude<ParseStatus, 'SUCCESS'>): PhoneAnalysis {
  return {
    originalInput: rawInput,
    sanitizedInput: sanitizeInput(text, null),
    extension: null,
    parseStatus: status,
    issue: status,
    possible: false,
    valid: false,
    countryCode: null,
    regionCode: null,
    nationalNumber: null,
    numberType: 'UNKNOWN',
    formats: null,
  };
}
