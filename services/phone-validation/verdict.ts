import type { Issue, NumberType, PhoneAnalysis } from './analysis.js';

export const OVERALL_DECISIONS = ['ACCEPTED', 'ACCEPTED_WITH_WARNINGS', 'REJECTED', 'REVIEW'] as const;
export type OverallDecision = (typeof OVERALL_DECISIONS)[number];

/** VALID, or the one reason the number is not valid; PARSE_FAILURE is SPEC's name for NOT_A_NUMBER. */
export const RESULT_CODES = [
  'VALID',
  'PARSE_FAILURE',
  'INVALID_COUNTRY_CODE',
  'TOO_SHORT',
  'TOO_LONG',
  'INVALID_LENGTH',
  'NOT_IN_NUMBERING_PLAN',
] as const;
export type ResultCode = (typeof RESULT_CODES)[number];

/** The codes `errors` may hold: why the number is not valid (one at most today). */
export const ERROR_CODES = [
  'NOT_A_NUMBER',
  'INVALID_COUNTRY_CODE',
  'TOO_SHORT',
  'TOO_LONG',
  'INVALID_LENGTH',
  'NOT_IN_NUMBERING_PLAN',
] as const satisfies readonly Issue[];

/**
 * What is worth knowing about a number that does not make it wrong. REGION_MISMATCH: a defaultRegion was
 * given and the valid number belongs to another region. EXTENSION_PRESENT: `e164` cannot hold the extension.
 * PREMIUM_RATE, SHARED_COST: the caller pays more than for a normal call. NON_GEOGRAPHIC: a global service
 * number (+800, +808, +870, +881, +882, +883, +888, +979) that belongs to no region.
 */
export const WARNING_CODES = [
  'REGION_MISMATCH',
  'EXTENSION_PRESENT',
  'PREMIUM_RATE',
  'SHARED_COST',
  'NON_GEOGRAPHIC',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface Verdict {
  readonly overallDecision: OverallDecision;
  readonly resultCode: ResultCode;
  readonly resultMessage: string;
  readonly warnings: readonly WarningCode[];
  readonly errors: readonly Issue[];
}

const TYPE_LABELS: Readonly<Record<NumberType, string>> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'fixed-line',
  FIXED_LINE_OR_MOBILE: 'fixed-line or mobile',
  VOIP: 'VoIP',
  TOLL_FREE: 'toll-free',
  PREMIUM_RATE: 'premium-rate',
  SHARED_COST: 'shared-cost',
  PERSONAL_NUMBER: 'personal',
  PAGER: 'pager',
  UAN: 'universal access (UAN)',
  VOICEMAIL: 'voicemail',
  UNKNOWN: 'unknown-type',
};

/**
 * ACCEPTED: valid, nothing to note. ACCEPTED_WITH_WARNINGS: valid, with warnings. REVIEW: of a possible
 * length but in no range of the plan (made up, or allocated after the metadata was published: a person may
 * check). REJECTED: everything else (not a number, no or unknown country code, wrong length).
 */
export function judge(a: PhoneAnalysis, defaultRegion?: string): Verdict {
  const warnings = warningsOf(a, defaultRegion);
  if (a.valid) {
    return {
      overallDecision: warnings.length > 0 ? 'ACCEPTED_WITH_WARNINGS' : 'ACCEPTED',
      resultCode: 'VALID',
      resultMessage: `Valid ${TYPE_LABELS[a.numberType]} number ${placeOf(a)}.`,
      warnings,
      errors: [],
    };
  }
  const issue = a.issue ?? 'NOT_IN_NUMBERING_PLAN';
  return {
    overallDecision: issue === 'NOT_IN_NUMBERING_PLAN' ? 'REVIEW' : 'REJECTED',
    resultCode: issue === 'NOT_A_NUMBER' ? 'PARSE_FAILURE' : issue,
    resultMessage: messageOf(issue, a, defaultRegion),
    warnings,
    errors: [issue],
  };
}

function warningsOf(a: PhoneAnalysis, defaultRegion: string | undefined): WarningCode[] {
  const warnings: WarningCode[] = [];
  if (a.valid && defaultRegion && a.regionCode && a.regionCode !== defaultRegion) {
    warnings.push('REGION_MISMATCH');
  }
  if (a.extension !== null) warnings.push('EXTENSION_PRESENT');
  if (a.numberType === 'PREMIUM_RATE') warnings.push('PREMIUM_RATE');
  if (a.numberType === 'SHARED_COST') warnings.push('SHARED_COST');
  if (a.valid && a.regionCode === null) warnings.push('NON_GEOGRAPHIC');
  return warnings;
}

const placeOf = (a: PhoneAnalysis): string =>
  a.regionCode ? `for ${a.regionCode}` : `(non-geographic, +${a.countryCode})`;

const regionOf = (a: PhoneAnalysis): string =>
  a.regionCode ?? (a.countryCode !== null ? `+${a.countryCode}` : 'any region');

function messageOf(issue: Issue, a: PhoneAnalysis, defaultRegion: string | undefined): string {
  switch (issue) {
    case 'NOT_A_NUMBER':
      return (
        'Not a phone number: a number is digits with an optional leading +, spaces and ( ) - . / between ' +
        'them, and an optional extension such as "ext. 123".'
      );
    case 'INVALID_COUNTRY_CODE':
      if (a.sanitizedInput.startsWith('+'))
        return 'The number does not start with a country calling code in use.';
      return defaultRegion
        ? 'The international prefix is not followed by a country calling code in use.'
        : 'The number has no country code (no leading +) and no default region was given.';
    case 'TOO_SHORT':
      return `Too short for a phone number of ${regionOf(a)}.`;
    case 'TOO_LONG':
      return `Too long for a phone number of ${regionOf(a)}.`;
    case 'INVALID_LENGTH':
      return `Numbers of ${regionOf(a)} do not have ${a.nationalNumber?.length ?? 0} digits.`;
    case 'NOT_IN_NUMBERING_PLAN':
      return (
        `A possible length for ${regionOf(a)}, but in no number range of its numbering plan: made up, ` +
        'or allocated after the metadata was published.'
      );
  }
}
