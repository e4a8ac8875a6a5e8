import { describe, expect, it } from 'vitest';
import {
  callingCode,
  ibanChecksumValid,
  ibanLength,
  isCardNumber,
  knownCardRange,
  luhnValid,
  nanpValid,
  ssnValid,
} from './checksums.js';

describe('luhnValid', () => {
  it('accepts the networks’ published test numbers and rejects a changed digit', () => {
    for (const n of [
      '4111111111111111',
      '5500000000000004',
      '378282246310005',
      '6011111111111117',
      '79927398713',
    ]) {
      expect(luhnValid(n), n).toBe(true);
      const last = Number(n.at(-1));
      expect(luhnValid(n.slice(0, -1) + String((last + 1) % 10)), `${n} with its check digit changed`).toBe(
        false,
      );
    }
  });

  it('rejects anything but digits', () => {
    expect(luhnValid('4111-1111-1111-1111')).toBe(false);
    expect(luhnValid('41111111111111x1')).toBe(false);
  });
});

describe('knownCardRange / isCardNumber', () => {
  it.each([
    ['4111111111111111', 'Visa 16'],
    ['4222222222222', 'Visa 13'],
    ['5555555555554444', 'Mastercard 51–55'],
    ['2223003122003222', 'Mastercard 2-series'],
    ['378282246310005', 'Amex 37'],
    ['371449635398431', 'Amex 37'],
    ['6011111111111117', 'Discover 6011'],
    ['3530111333300000', 'JCB'],
    ['30569309025904', 'Diners 14'],
    ['6200000000000005', 'UnionPay'],
  ])('%s (%s) is a card number', (n) => {
    expect(isCardNumber(n)).toBe(true);
  });

  it('needs an issuer range and that network’s length, not only the Luhn check', () => {
    // Luhn-valid, but no network issues numbers starting with 1, 7, 8 or 9 or of these lengths.
    for (const n of ['1234567812345670', '7992739871300003', '9999999999999995', '411111111111111']) {
      expect(knownCardRange(n), n).toBe(false);
    }
    expect(knownCardRange('37828224631000')).toBe(false); // Amex is 15 digits
    expect(knownCardRange('55000000000000040')).toBe(false); // Mastercard is 16
  });
});

describe('ssnValid', () => {
  it('accepts issued ranges and refuses area 000, 666 and 900–999, group 00, serial 0000', () => {
    expect(ssnValid('078', '05', '1120')).toBe(true);
    expect(ssnValid('899', '99', '9999')).toBe(true);
    expect(ssnValid('000', '12', '3456')).toBe(false);
    expect(ssnValid('666', '12', '3456')).toBe(false);
    expect(ssnValid('900', '12', '3456')).toBe(false);
    expect(ssnValid('123', '00', '3456')).toBe(false);
    expect(ssnValid('123', '45', '0000')).toBe(false);
  });
});

describe('nanpValid', () => {
  it('needs area code and exchange starting 2–9', () => {
    expect(nanpValid('415', '555')).toBe(true);
    expect(nanpValid('115', '555')).toBe(false);
    expect(nanpValid('415', '055')).toBe(false);
    expect(nanpValid('41', '555')).toBe(false);
  });
});

describe('callingCode', () => {
  it('finds the one assigned code a number starts with', () => {
    expect(callingCode('14155552671')).toBe('1');
    expect(callingCode('442079460958')).toBe('44');
    expect(callingCode('4930901820')).toBe('49');
    expect(callingCode('35312345678')).toBe('353');
    expect(callingCode('2348012345678')).toBe('234');
  });

  it('returns null for unassigned codes', () => {
    expect(callingCode('2891234567')).toBeNull();
    expect(callingCode('80912345678')).toBeNull();
    expect(callingCode('0123456789')).toBeNull();
  });
});

describe('IBAN', () => {
  it.each([
    'DE89370400440532013000',
    'GB82WEST12345698765432',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
    'NO9386011117947',
    'MT84MALT011000012345MTLCAST001S',
  ])('%s passes the mod-97 check and has its country’s length', (iban) => {
    expect(ibanChecksumValid(iban)).toBe(true);
    expect(iban.length).toBe(ibanLength(iban.slice(0, 2)));
  });

  it('fails the check when a character changes or two are swapped', () => {
    expect(ibanChecksumValid('DE89370400440532013001')).toBe(false);
    expect(ibanChecksumValid('DE89370400440532010300')).toBe(false);
    expect(ibanChecksumValid('de89370400440532013000')).toBe(false);
  });

  it('knows no length for a country without IBANs', () => {
    expect(ibanLength('US')).toBeUndefined();
  });
});
