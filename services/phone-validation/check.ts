import type { CountryCode } from 'libphonenumber-js/max';
import { AppError } from '../../core/errors/catalogue.js';
import { analyzePhoneNumber, supportedRegion } from './analysis.js';
import { CARRIER_TYPES, type CarrierLookup } from './carriers.js';
import type { PhoneCheck } from './results.js';
import { judge } from './verdict.js';

/** Analysis, verdict and carrier of one input; `region` is a checked default region (see regionOption). */
export async function checkPhoneNumber(
  rawInput: string,
  region: CountryCode | undefined,
  carriers: CarrierLookup,
): Promise<PhoneCheck> {
  const analysis = analyzePhoneNumber(rawInput, region);
  const verdict = judge(analysis, region);
  const carrier =
    analysis.valid &&
    analysis.countryCode !== null &&
    analysis.nationalNumber !== null &&
    CARRIER_TYPES.includes(analysis.numberType)
      ? await carriers(analysis.countryCode, analysis.nationalNumber)
      : null;
  return { analysis, verdict, carrier };
}

/** Blank input is a malformed request (400), not a number to reject: it carries nothing to judge. */
export function requireInput(value: string, field: string): string {
  if (value.trim() === '') throw new AppError('VALIDATION_ERROR', `${field}: must not be blank`);
  return value;
}

/**
 * A default region as libphonenumber-js knows it, upper-cased; undefined when none was given. The schema
 * checks the shape (two letters); a code without metadata ("XX", "UK") is refused here.
 */
export function regionOption(value: string | undefined, field: string): CountryCode | undefined {
  if (value === undefined) return undefined;
  const region = supportedRegion(value);
  if (!region) {
    throw new AppError('VALIDATION_ERROR', `${field}: must be a supported ISO 3166-1 alpha-2 region code`);
  }
  return region;
}
