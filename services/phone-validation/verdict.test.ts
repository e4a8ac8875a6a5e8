import type { CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { analyzePhoneNumber } from './analysis.js';
import { judge, type Verdict } from './verdict.js';

const verdictOf = (input: string, region?: CountryCode): Verdict =>
  judge(analyzePhoneNumber(input, region), region);

describe('valid numbers', () => {
  it('are ACCEPTED with resultCode VALID and no warning or error', () => {
    expect(verdictOf('07400 123456', 'GB')).toEqual({
      overallDecision: 'ACCEPTED',
      resultCode: 'VALID',
      resultMessage: 'Valid mobile number for GB.',
      warnings: [],
      errors: [],
    });
    expect(verdictOf('+1 201 555 0123').resultMessage).toBe('Valid fixed-line or mobile number for US.');
  });

  it.each([
    ['+44 20 7946 0958 x12', undefined, ['EXTENSION_PRESENT']],
    ['+44 7400 123456', 'DE', ['REGION_MISMATCH']],
    ['(604) 555-5555', 'US', ['REGION_MISMATCH']],
    ['0901 123 4567', 'GB', ['PREMIUM_RATE']],
    ['400 123 4567', 'CN', ['SHARED_COST']],
    ['+800 1234 5678', undefined, ['NON_GEOGRAPHIC']],
    ['+800 1234 5678', 'US', ['NON_GEOGRAPHIC']],
    ['+1 900 234 5678 ext. 9', 'GB', ['REGION_MISMATCH', 'EXTENSION_PRESENT', 'PREMIUM_RATE']],
  ] as const)('%s (default %s) is ACCEPTED_WITH_WARNINGS %j', (input, region, warnings) => {
    expect(verdictOf(input, region)).toMatchObject({
      overallDecision: 'ACCEPTED_WITH_WARNINGS',
      resultCode: 'VALID',
      warnings,
      errors: [],
    });
  });

  it('names the calling code of a non-geographic number', () => {
    expect(verdictOf('+800 1234 5678').resultMessage).toBe('Valid toll-free number (non-geographic, +800).');
  });

  it('does not warn about the default region when the number belongs to it', () => {
    expect(verdictOf('+44 7400 123456', 'GB').warnings).toEqual([]);
  });
});

describe('numbers that are not valid', () => {
  it('unparseable text: REJECTED, PARSE_FAILURE, errors [NOT_A_NUMBER] (SPEC.md 4.3)', () => {
    expect(verdictOf('call me maybe', 'US')).toEqual({
      overallDecision: 'REJECTED',
      resultCode: 'PARSE_FAILURE',
      resultMessage:
        'Not a phone number: a number is digits with an optional leading +, spaces and ( ) - . / between ' +
        'them, and an optional extension such as "ext. 123".',
      warnings: [],
      errors: ['NOT_A_NUMBER'],
    });
  });

  it('too short or too long: REJECTED, named by the region or the calling code', () => {
    expect(verdictOf('555-0123', 'US')).toEqual({
      overallDecision: 'REJECTED',
      resultCode: 'TOO_SHORT',
      resultMessage: 'Too short for a phone number of US.',
      warnings: [],
      errors: ['TOO_SHORT'],
    });
    expect(verdictOf('+1 555 123').resultMessage).toBe('Too short for a phone number of +1.');
    expect(verdictOf('+1 2').resultMessage).toBe('Too short for a phone number of any region.');
    expect(verdictOf('06 12 34 56 789', 'FR')).toMatchObject({
      overallDecision: 'REJECTED',
      resultCode: 'TOO_LONG',
      resultMessage: 'Too long for a phone number of FR.',
      errors: ['TOO_LONG'],
    });
  });

  it('a length the region does not use: REJECTED, INVALID_LENGTH', () => {
    expect(verdictOf('+44 20 7946 09')).toEqual({
      overallDecision: 'REJECTED',
      resultCode: 'INVALID_LENGTH',
      resultMessage: 'Numbers of +44 do not have 8 digits.',
      warnings: [],
      errors: ['INVALID_LENGTH'],
    });
  });

  it('a possible length in no range of the plan: REVIEW, NOT_IN_NUMBERING_PLAN', () => {
    expect(verdictOf('+1 555 555 5555')).toEqual({
      overallDecision: 'REVIEW',
      resultCode: 'NOT_IN_NUMBERING_PLAN',
      resultMessage:
        'A possible length for +1, but in no number range of its numbering plan: made up, or allocated ' +
        'after the metadata was published.',
      warnings: [],
      errors: ['NOT_IN_NUMBERING_PLAN'],
    });
    expect(verdictOf('030 12', 'DE')).toMatchObject({
      overallDecision: 'REVIEW',
      errors: ['NOT_IN_NUMBERING_PLAN'],
    });
  });

  it('says why the country code is missing or unknown', () => {
    const missing = verdictOf('415 555 2671');
    expect(missing).toMatchObject({
      overallDecision: 'REJECTED',
      resultCode: 'INVALID_COUNTRY_CODE',
      errors: ['INVALID_COUNTRY_CODE'],
    });
    expect(missing.resultMessage).toBe(
      'The number has no country code (no leading +) and no default region was given.',
    );
    expect(verdictOf('+999 1234567').resultMessage).toBe(
      'The number does not start with a country calling code in use.',
    );
    expect(verdictOf('011 999 1234567', 'US').resultMessage).toBe(
      'The international prefix is not followed by a country calling code in use.',
    );
  });

  it('still notes an extension on a rejected number, but no type warnings (the type is unknown)', () => {
    expect(verdictOf('+1 555 123 ext. 7')).toMatchObject({
      overallDecision: 'REJECTED',
      warnings: ['EXTENSION_PRESENT'],
      errors: ['TOO_SHORT'],
    });
    expect(verdictOf('+1 555 555 5555', 'GB').warnings).toEqual([]);
  });
});
