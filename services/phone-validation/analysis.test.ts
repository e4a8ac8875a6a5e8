import type { CountryCode } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { analyzePhoneNumber, type NumberType, supportedRegion } from './analysis.js';

/**
 * Numbers of many regions with the results libphonenumber gives them. The mobile numbers are the example
 * numbers of Google's metadata (PhoneNumberMetadata.xml, <mobile><exampleNumber>), written as people write
 * them nationally; the national and international forms are each region's formatting rules of the same
 * metadata.
 */
const VALID: readonly [CountryCode | undefined, string, NumberType, string, string, string][] = [
  // region, input, type, E.164, national form, international form
  ['US', '201-555-0123', 'FIXED_LINE_OR_MOBILE', '+12015550123', '(201) 555-0123', '+1 201 555 0123'],
  ['US', '(800) 234-5678', 'TOLL_FREE', '+18002345678', '(800) 234-5678', '+1 800 234 5678'],
  ['US', '900 234 5678', 'PREMIUM_RATE', '+19002345678', '(900) 234-5678', '+1 900 234 5678'],
  ['GB', '07400 123456', 'MOBILE', '+447400123456', '07400 123456', '+44 7400 123456'],
  ['GB', '020 7946 0958', 'FIXED_LINE', '+442079460958', '020 7946 0958', '+44 20 7946 0958'],
  ['GB', '0800 123 4567', 'TOLL_FREE', '+448001234567', '0800 123 4567', '+44 800 123 4567'],
  ['GB', '056 1234 5678', 'VOIP', '+445612345678', '056 1234 5678', '+44 56 1234 5678'],
  ['GB', '0303 123 4567', 'UAN', '+443031234567', '0303 123 4567', '+44 303 123 4567'],
  ['GB', '070 1234 5678', 'PERSONAL_NUMBER', '+447012345678', '070 1234 5678', '+44 70 1234 5678'],
  ['DE', '01512 3456789', 'MOBILE', '+4915123456789', '01512 3456789', '+49 1512 3456789'],
  ['DE', '030 123456', 'FIXED_LINE', '+4930123456', '030 123456', '+49 30 123456'],
  ['DE', '0800 1234567', 'TOLL_FREE', '+498001234567', '0800 1234567', '+49 800 1234567'],
  ['FR', '06 12 34 56 78', 'MOBILE', '+33612345678', '06 12 34 56 78', '+33 6 12 34 56 78'],
  ['FR', '01 23 45 67 89', 'FIXED_LINE', '+33123456789', '01 23 45 67 89', '+33 1 23 45 67 89'],
  ['FR', '0801 23 45 67', 'TOLL_FREE', '+33801234567', '0 801 23 45 67', '+33 801 23 45 67'],
  ['FR', '09 12 34 56 78', 'VOIP', '+33912345678', '09 12 34 56 78', '+33 9 12 34 56 78'],
  ['IN', '081234 56789', 'MOBILE', '+918123456789', '081234 56789', '+91 81234 56789'],
  ['IN', '011 2345 6789', 'FIXED_LINE', '+911123456789', '011 2345 6789', '+91 11 2345 6789'],
  ['IN', '1800 123 4567', 'TOLL_FREE', '+9118001234567', '1800 123 4567', '+91 1800 123 4567'],
  ['BR', '(11) 96123-4567', 'MOBILE', '+5511961234567', '(11) 96123-4567', '+55 11 96123 4567'],
  ['BR', '(11) 2345-6789', 'FIXED_LINE', '+551123456789', '(11) 2345-6789', '+55 11 2345 6789'],
  ['BR', '0800 123 4567', 'TOLL_FREE', '+558001234567', '0800 123 4567', '+55 800 123 4567'],
  ['JP', '090-1234-5678', 'MOBILE', '+819012345678', '090-1234-5678', '+81 90 1234 5678'],
  ['JP', '03-1234-5678', 'FIXED_LINE', '+81312345678', '03-1234-5678', '+81 3 1234 5678'],
  ['JP', '0120-123-456', 'TOLL_FREE', '+81120123456', '0120-123-456', '+81 120 123 456'],
  ['JP', '050-1234-5678', 'VOIP', '+815012345678', '050-1234-5678', '+81 50 1234 5678'],
  ['CN', '131 2345 6789', 'MOBILE', '+8613123456789', '131 2345 6789', '+86 131 2345 6789'],
  ['CN', '010 1234 5678', 'FIXED_LINE', '+861012345678', '010 1234 5678', '+86 10 1234 5678'],
  ['CN', '400 123 4567', 'SHARED_COST', '+864001234567', '400 123 4567', '+86 400 123 4567'],
  ['AU', '0412 345 678', 'MOBILE', '+61412345678', '0412 345 678', '+61 412 345 678'],
  ['AU', '02 1234 5678', 'FIXED_LINE', '+61212345678', '(02) 1234 5678', '+61 2 1234 5678'],
  ['AU', '1800 123 456', 'TOLL_FREE', '+611800123456', '1800 123 456', '+61 1800 123 456'],
  ['AU', '1900 123 456', 'PREMIUM_RATE', '+611900123456', '1900 123 456', '+61 1900 123 456'],
  ['NG', '0802 123 4567', 'MOBILE', '+2348021234567', '0802 123 4567', '+234 802 123 4567'],
  ['ZA', '071 123 4567', 'MOBILE', '+27711234567', '071 123 4567', '+27 71 123 4567'],
  ['ZA', '010 123 4567', 'FIXED_LINE', '+27101234567', '010 123 4567', '+27 10 123 4567'],
  ['ZA', '087 123 4567', 'VOIP', '+27871234567', '087 123 4567', '+27 87 123 4567'],
  ['MX', '222 123 4567', 'FIXED_LINE_OR_MOBILE', '+522221234567', '222 123 4567', '+52 222 123 4567'],
  ['MX', '800 123 4567', 'TOLL_FREE', '+528001234567', '800 123 4567', '+52 800 123 4567'],
  ['RU', '8 (912) 345-67-89', 'MOBILE', '+79123456789', '8 (912) 345-67-89', '+7 912 345 67 89'],
  ['RU', '8 (301) 123-45-67', 'FIXED_LINE', '+73011234567', '8 (301) 123-45-67', '+7 301 123 45 67'],
  ['RU', '8 800 123-45-67', 'TOLL_FREE', '+78001234567', '8 (800) 123-45-67', '+7 800 123 45 67'],
  ['KR', '010-2000-0000', 'MOBILE', '+821020000000', '010-2000-0000', '+82 10 2000 0000'],
  ['KR', '02-2123-4567', 'FIXED_LINE', '+82221234567', '02-2123-4567', '+82 2 2123 4567'],
  ['KR', '080-123-4567', 'TOLL_FREE', '+82801234567', '080-123-4567', '+82 80 123 4567'],
  ['KR', '070-1234-5678', 'VOIP', '+827012345678', '070-1234-5678', '+82 70 1234 5678'],
  ['ES', '612 34 56 78', 'MOBILE', '+34612345678', '612 34 56 78', '+34 612 34 56 78'],
  ['ES', '91 123 45 67', 'FIXED_LINE', '+34911234567', '911 23 45 67', '+34 911 23 45 67'],
  ['ES', '900 12 34 56', 'TOLL_FREE', '+34900123456', '900 123 456', '+34 900 123 456'],
  // Italy keeps the leading 0 of fixed lines in the international form (no national prefix to drop).
  ['IT', '312 345 6789', 'MOBILE', '+393123456789', '312 345 6789', '+39 312 345 6789'],
  ['IT', '02 1234 5678', 'FIXED_LINE', '+390212345678', '02 1234 5678', '+39 02 1234 5678'],
  // Argentina: a mobile dialled as 0 11 15-xxxx-xxxx nationally is +54 9 11 xxxx xxxx internationally.
  ['AR', '011 15-2345-6789', 'MOBILE', '+5491123456789', '011 15-2345-6789', '+54 9 11 2345 6789'],
  ['KE', '0712 123456', 'MOBILE', '+254712123456', '0712 123456', '+254 712 123456'],
  ['SG', '8123 4567', 'MOBILE', '+6581234567', '8123 4567', '+65 8123 4567'],
];

describe('valid numbers of many regions', () => {
  it('cover at least 15 regions and every common type', () => {
    expect(new Set(VALID.map((r) => r[0])).size).toBeGreaterThanOrEqual(15);
    expect(new Set(VALID.map((r) => r[2]))).toEqual(
      new Set([
        'MOBILE',
        'FIXED_LINE',
        'FIXED_LINE_OR_MOBILE',
        'TOLL_FREE',
        'PREMIUM_RATE',
        'SHARED_COST',
        'VOIP',
        'UAN',
        'PERSONAL_NUMBER',
      ]),
    );
  });

  it.each(VALID)('%s %s is a valid %s number: %s', (region, input, type, e164, national, international) => {
    const a = analyzePhoneNumber(input, region);
    expect(a).toEqual({
      originalInput: input,
      sanitizedInput: input.replace(/\D/g, ''),
      extension: null,
      parseStatus: 'SUCCESS',
      issue: null,
      possible: true,
      valid: true,
      countryCode: Number(e164.slice(1, e164.length - a.nationalNumber!.length)),
      regionCode: region,
      nationalNumber: a.nationalNumber,
      numberType: type,
      formats: { e164, national, international, rfc3966: `tel:${e164}` },
    });
  });

  it.each(VALID)(
    '%s %s gives the same result written in E.164, without a default region',
    (region, input) => {
      const national = analyzePhoneNumber(input, region);
      const international = analyzePhoneNumber(national.formats!.e164);
      expect({ ...international, originalInput: '', sanitizedInput: '' }).toEqual({
        ...national,
        originalInput: '',
        sanitizedInput: '',
      });
    },
  );

  it('reads the calling code and national number apart', () => {
    expect(analyzePhoneNumber('+234 802 123 4567')).toMatchObject({
      countryCode: 234,
      nationalNumber: '8021234567',
      regionCode: 'NG',
    });
    expect(analyzePhoneNumber('+39 02 1234 5678')).toMatchObject({
      countryCode: 39,
      nationalNumber: '0212345678',
    });
  });

  it('tells regions sharing a calling code apart: Canada in +1, Guernsey in +44', () => {
    expect(analyzePhoneNumber('+1 604 555 5555')).toMatchObject({ regionCode: 'CA', valid: true });
    expect(analyzePhoneNumber('(604) 555-5555', 'US')).toMatchObject({ regionCode: 'CA', valid: true });
    expect(analyzePhoneNumber('+44 7911 123456')).toMatchObject({ regionCode: 'GG', numberType: 'MOBILE' });
  });

  it('gives non-geographic numbers (+800 international freephone) no region', () => {
    expect(analyzePhoneNumber('+800 1234 5678')).toMatchObject({
      valid: true,
      countryCode: 800,
      regionCode: null,
      numberType: 'TOLL_FREE',
      formats: {
        e164: '+80012345678',
        international: '+800 1234 5678',
        national: '1234 5678',
        rfc3966: 'tel:+80012345678',
      },
    });
  });

  it('dials out of the default region through its international prefix', () => {
    expect(analyzePhoneNumber('011 44 20 7946 0958', 'US')).toMatchObject({
      valid: true,
      countryCode: 44,
      regionCode: 'GB',
      sanitizedInput: '011442079460958',
      formats: { e164: '+442079460958' },
    });
    expect(analyzePhoneNumber('00 49 30 123456', 'FR')).toMatchObject({ regionCode: 'DE', valid: true });
  });
});

describe('extensions', () => {
  it.each([
    ['+1 415 555 2671 ext. 123', '123', '+1 415 555 2671 ext. 123', '(415) 555-2671 ext. 123'],
    ['+1 415 555 2671 x123', '123', '+1 415 555 2671 ext. 123', '(415) 555-2671 ext. 123'],
    ['+1 415 555 2671 #123', '123', '+1 415 555 2671 ext. 123', '(415) 555-2671 ext. 123'],
    [
      '+1 415 555 2671 extension 1234567',
      '1234567',
      '+1 415 555 2671 ext. 1234567',
      '(415) 555-2671 ext. 1234567',
    ],
    ['+1 415 555 2671;ext=123', '123', '+1 415 555 2671 ext. 123', '(415) 555-2671 ext. 123'],
    // The UK writes extensions " x" (preferredExtnPrefix of its metadata).
    ['+44 20 7946 0958 ext. 12', '12', '+44 20 7946 0958 x12', '020 7946 0958 x12'],
  ])('%s: extension %s', (input, extension, international, national) => {
    const a = analyzePhoneNumber(input);
    expect(a).toMatchObject({ extension, valid: true, formats: { international, national } });
    expect(a.formats!.e164).not.toContain(extension);
    expect(a.formats!.rfc3966).toBe(`${'tel:'}${a.formats!.e164};ext=${extension}`);
    expect(a.sanitizedInput).toBe(a.formats!.e164);
  });

  it('reads an extension written in Arabic-Indic digits as ASCII', () => {
    expect(analyzePhoneNumber('+1 415 555 2671 ext. ١٢٣')).toMatchObject({
      extension: '123',
      formats: { rfc3966: 'tel:+14155552671;ext=123' },
    });
  });

  it('accepts its own rfc3966 output again', () => {
    const first = analyzePhoneNumber('07400 123456 x12', 'GB');
    const again = analyzePhoneNumber(first.formats!.rfc3966);
    expect(again).toMatchObject({ valid: true, extension: '12', formats: first.formats });
  });
});

describe('numbers that are not valid', () => {
  it('too short: parseStatus TOO_SHORT, not possible, no formats (a length the plan never uses)', () => {
    expect(analyzePhoneNumber('555-0123', 'US')).toMatchObject({
      parseStatus: 'TOO_SHORT',
      issue: 'TOO_SHORT',
      possible: false,
      valid: false,
      countryCode: 1,
      regionCode: 'US',
      numberType: 'UNKNOWN',
      formats: null,
    });
    expect(analyzePhoneNumber('+4930')).toMatchObject({ parseStatus: 'TOO_SHORT', countryCode: 49 });
    expect(analyzePhoneNumber('+1 555 123')).toMatchObject({ parseStatus: 'TOO_SHORT', regionCode: null });
  });

  it('too short to parse at all: one digit after the country code, one digit alone', () => {
    for (const [input, region] of [
      ['+1 2', undefined],
      ['7', 'DE'],
    ] as const) {
      expect(analyzePhoneNumber(input, region)).toEqual({
        originalInput: input,
        sanitizedInput: input.replace(/[^+\d]/g, ''),
        extension: null,
        parseStatus: 'TOO_SHORT',
        issue: 'TOO_SHORT',
        possible: false,
        valid: false,
        countryCode: null,
        regionCode: null,
        nationalNumber: null,
        numberType: 'UNKNOWN',
        formats: null,
      });
    }
  });

  it('too long: a French mobile with one digit too many, and 28 digits', () => {
    expect(analyzePhoneNumber('06 12 34 56 789', 'FR')).toMatchObject({
      parseStatus: 'TOO_LONG',
      possible: false,
      valid: false,
      countryCode: 33,
      regionCode: 'FR',
      formats: null,
    });
    expect(analyzePhoneNumber('+1 415 555 2671 4155552671 415555')).toMatchObject({
      parseStatus: 'TOO_LONG',
      countryCode: null,
    });
  });

  it('a length between the shortest and the longest that the region does not use: INVALID_LENGTH', () => {
    expect(analyzePhoneNumber('+44 20 7946 09')).toMatchObject({
      parseStatus: 'SUCCESS',
      issue: 'INVALID_LENGTH',
      possible: false,
      valid: false,
      countryCode: 44,
      nationalNumber: '20794609',
      formats: null,
    });
  });

  it('a possible length in no range (555 is no US area code): NOT_IN_NUMBERING_PLAN, formatted', () => {
    expect(analyzePhoneNumber('+1 555 555 5555')).toMatchObject({
      parseStatus: 'SUCCESS',
      issue: 'NOT_IN_NUMBERING_PLAN',
      possible: true,
      valid: false,
      countryCode: 1,
      regionCode: null,
      numberType: 'UNKNOWN',
      formats: {
        e164: '+15555555555',
        international: '+1 555 555 5555',
        national: '(555) 555-5555',
        rfc3966: 'tel:+15555555555',
      },
    });
  });

  it.each([
    ['hello', 'hello', ''],
    ['call 555-0123', 'words around digits', '5550123'],
    ['1-800-FLOWERS', 'a vanity number (letters are not converted)', '1800'],
    ['+1 415 555 2671 please', 'a number followed by words', '+14155552671'],
    ['()-./', 'nothing left after sanitising', ''],
    ['+', 'a plus alone', '+'],
    ['++1 415 555 2671', 'two plus signs', '+14155552671'],
  ])('%s (%s) is NOT_A_NUMBER', (input, _why, sanitized) => {
    expect(analyzePhoneNumber(input, 'US')).toEqual({
      originalInput: input,
      sanitizedInput: sanitized,
      extension: null,
      parseStatus: 'NOT_A_NUMBER',
      issue: 'NOT_A_NUMBER',
      possible: false,
      valid: false,
      countryCode: null,
      regionCode: null,
      nationalNumber: null,
      numberType: 'UNKNOWN',
      formats: null,
    });
  });

  it('no country code and no default region, or a calling code nobody uses: INVALID_COUNTRY_CODE', () => {
    for (const input of ['415 555 2671', '+999 1234567', '+0 415 555 2671']) {
      expect(analyzePhoneNumber(input)).toMatchObject({
        parseStatus: 'INVALID_COUNTRY_CODE',
        possible: false,
        valid: false,
        countryCode: null,
      });
    }
    expect(analyzePhoneNumber('415 555 2671', 'US')).toMatchObject({ valid: true });
  });
});

describe('input as people paste it', () => {
  it.each([
    ['  +1 415 555 2671  ', 'surrounding spaces'],
    ['+1 415\n555\t2671', 'a line break and a tab inside'],
    ['+1\u00a0415\u00a0555\u00a02671', 'no-break spaces'],
    ['＋１ ４１５ ５５５ ２６７１', 'full-width plus and digits'],
    ['+١٤١٥٥٥٥٢٦٧١', 'Arabic-Indic digits'],
    ['+۱۴۱۵۵۵۵۲۶۷۱', 'extended Arabic-Indic (Persian) digits'],
    ['+1.415.555.2671', 'dots'],
    ['+1/415/555/2671', 'slashes'],
    ['+1 (415) 555–2671', 'an en dash'],
    ['tel:+1-415-555-2671', 'a tel: URI'],
    ['TEL:+14155552671', 'a tel: URI in capitals'],
  ])('%j (%s) is +14155552671', (input) => {
    const a = analyzePhoneNumber(input);
    expect(a).toMatchObject({
      valid: true,
      sanitizedInput: '+14155552671',
      formats: { e164: '+14155552671' },
    });
    expect(a.originalInput).toBe(input);
  });

  it('keeps a number’s national prefix in what was dialled, not in E.164', () => {
    expect(analyzePhoneNumber('+44 (0) 20 7946 0958')).toMatchObject({
      sanitizedInput: '+4402079460958',
      formats: { e164: '+442079460958' },
    });
  });

  it('refuses more than 250 characters as TOO_LONG (libphonenumber’s cap), counted after trimming', () => {
    expect(analyzePhoneNumber(`+1 415 555 2671${' '.repeat(250)}`)).toMatchObject({ valid: true });
    expect(analyzePhoneNumber(`+1 415 555 2671${'-'.repeat(240)}`)).toMatchObject({
      parseStatus: 'TOO_LONG',
    });
  });
});

describe('supportedRegion', () => {
  it('upper-cases the codes libphonenumber has metadata for, and refuses others', () => {
    expect(supportedRegion('us')).toBe('US');
    expect(supportedRegion('GB')).toBe('GB');
    expect(supportedRegion('XK')).toBe('XK');
    for (const code of ['UK', 'XX', 'ZZ', 'EU', '001', '']) expect(supportedRegion(code)).toBeNull();
  });
});
