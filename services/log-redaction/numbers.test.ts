import { describe, expect, it } from 'vitest';
import { numbersDetector } from './numbers.js';
import type { Finding } from './types.js';

const found = (text: string, types?: Finding['type'][]): string[][] => {
  const out: Finding[] = [];
  numbersDetector.scan(text, out, types ? { types: new Set(types) } : {});
  return out.map((f) => [f.type, text.slice(f.start, f.end), f.confidence]);
};

describe('numbersDetector: card numbers', () => {
  it('finds card numbers plain, spaced and dashed, in every network layout', () => {
    expect(found('card=4111111111111111&x')).toEqual([['CREDIT_CARD', '4111111111111111', 'HIGH']]);
    expect(found('paid with 5500 0000 0000 0004.')).toEqual([['CREDIT_CARD', '5500 0000 0000 0004', 'HIGH']]);
    expect(found('amex 3782-822463-10005 ok')).toEqual([['CREDIT_CARD', '3782-822463-10005', 'HIGH']]);
    expect(found('diners 3056 930902 5904')).toEqual([['CREDIT_CARD', '3056 930902 5904', 'HIGH']]);
    expect(found('"cardNumber":4000000000000002,')).toEqual([['CREDIT_CARD', '4000000000000002', 'HIGH']]);
  });

  it('finds a spaced card number after an unrelated number', () => {
    expect(found('order 1234 4111 1111 1111 1111 placed')).toEqual([
      ['CREDIT_CARD', '4111 1111 1111 1111', 'HIGH'],
    ]);
  });

  it('refuses Luhn failures, unknown issuers, glued tokens and over-long runs', () => {
    expect(found('4111111111111112')).toEqual([]);
    expect(found('epoch 1709630068250 ns 1709630068250123456')).toEqual([]);
    expect(found('a4111111111111111 4111111111111111b id-4111111111111111')).toEqual([]);
    expect(found('41111111111111110000')).toEqual([]);
    expect(found('1234-4111-1111-1111-1111')).toEqual([]);
    expect(found('4111.1111.1111.1111')).toEqual([]);
    expect(found('4111 1111-1111 1111')).toEqual([]);
  });
});

describe('numbersDetector: SSNs and phone numbers', () => {
  it('finds dashed SSNs of issued ranges (MEDIUM: the shape alone)', () => {
    expect(found('ssn 078-05-1120 ok')).toEqual([['SSN', '078-05-1120', 'MEDIUM']]);
    expect(found('000-12-3456 666-12-3456 912-34-5678 123-00-4567')).toEqual([]);
  });

  it('finds dashed and dotted North American numbers, with or without the leading 1', () => {
    expect(found('call 415-555-2671 or 212.555.0199 or 1-800-555-0100')).toEqual([
      ['PHONE', '415-555-2671', 'MEDIUM'],
      ['PHONE', '212.555.0199', 'MEDIUM'],
      ['PHONE', '1-800-555-0100', 'MEDIUM'],
    ]);
    expect(found('115-555-2671 415-055-2671 415 555 2671')).toEqual([]);
  });

  it('leaves dates, times, versions, UUIDs and counters alone', () => {
    expect(found('2024-01-15 10:30:00.123 2023/10/10 13:55:36 1.2.3 v2.14.3 10.4.0.2')).toEqual([]);
    expect(found('550e8400-e29b-41d4-a716-446655440000 00000000-0000-0000-0000-000000000000')).toEqual([]);
    expect(found('200 2326 512 1534 10485760 978-3-16-148410-0')).toEqual([]);
  });

  it('reports only the wanted types', () => {
    const text = '4111111111111111 078-05-1120 415-555-2671';
    expect(found(text, ['SSN']).map((f) => f[0])).toEqual(['SSN']);
    expect(found(text, ['PHONE', 'CREDIT_CARD']).map((f) => f[0])).toEqual(['CREDIT_CARD', 'PHONE']);
  });
});
