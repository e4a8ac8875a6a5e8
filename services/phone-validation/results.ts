import type { Issue, NumberType, ParseStatus, PhoneAnalysis } from './analysis.js';
import type { OverallDecision, ResultCode, Verdict, WarningCode } from './verdict.js';

/** One number, judged, with its carrier: what every convention's answer is made from. */
export interface PhoneCheck {
  readonly analysis: PhoneAnalysis;
  readonly verdict: Verdict;
  readonly carrier: string | null;
}

/** D's phone result (SPEC.md 4.3) without `processingTimeMs`, which the gateway adds. */
export interface DetailedResult {
  readonly requestId: string;
  readonly originalInput: string;
  readonly sanitizedInput: string;
  readonly extension: string | null;
  readonly parseStatus: ParseStatus;
  readonly possible: boolean;
  readonly valid: boolean;
  readonly overallDecision: OverallDecision;
  readonly resultCode: ResultCode;
  readonly resultMessage: string;
  readonly countryCode: number | null;
  readonly regionCode: string | null;
  readonly numberType: NumberType;
  readonly carrier: string | null;
  readonly e164: string | null;
  readonly internationalFormat: string | null;
  readonly nationalFormat: string | null;
  readonly rfc3966: string | null;
  readonly warnings: readonly WarningCode[];
  readonly errors: readonly Issue[];
  readonly metadataVersion: string;
}

export function detailedResult(
  check: PhoneCheck,
  requestId: string,
  metadataVersion: string,
): DetailedResult {
  const { analysis: a, verdict: v } = check;
  return {
    requestId,
    originalInput: a.originalInput,
    sanitizedInput: a.sanitizedInput,
    extension: a.extension,
    parseStatus: a.parseStatus,
    possible: a.possible,
    valid: a.valid,
    overallDecision: v.overallDecision,
    resultCode: v.resultCode,
    resultMessage: v.resultMessage,
    countryCode: a.countryCode,
    regionCode: a.regionCode,
    numberType: a.numberType,
    carrier: check.carrier,
    e164: a.formats?.e164 ?? null,
    internationalFormat: a.formats?.international ?? null,
    nationalFormat: a.formats?.national ?? null,
    rfc3966: a.formats?.rfc3966 ?? null,
    warnings: v.warnings,
    errors: v.errors,
    metadataVersion,
  };
}

/** S `data` (SPEC.md 4.2, DESIGN.md section 7: region as countryCode, D's numberType as lineType). */
export interface ServicePathResult {
  readonly valid: boolean;
  readonly number: string;
  readonly countryCode: string | null;
  readonly carrier: string | null;
  readonly lineType: NumberType;
  readonly nationalFormat: string | null;
}

/** `number`: E.164 when the number has a possible length, else the input as received. */
export function servicePathResult(check: PhoneCheck): ServicePathResult {
  const a = check.analysis;
  return {
    valid: a.valid,
    number: a.formats?.e164 ?? a.originalInput,
    countryCode: a.regionCode,
    carrier: check.carrier,
    lineType: a.numberType,
    nationalFormat: a.formats?.national ?? null,
  };
}

/** R's resource (SPEC.md 4.4); `countryCode` is the region, like the request's `defaultCountry`. */
export interface ShortResult {
  readonly valid: boolean;
  readonly e164: string | null;
  readonly countryCode: string | null;
  readonly type: NumberType;
  readonly carrier: string | null;
}

export function shortResult(check: PhoneCheck): ShortResult {
  const a = check.analysis;
  return {
    valid: a.valid,
    e164: a.formats?.e164 ?? null,
    countryCode: a.regionCode,
    type: a.numberType,
    carrier: check.carrier,
  };
}
