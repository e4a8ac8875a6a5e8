import { describe, expect, it } from 'vitest';
import { normalizeInput, sanitizeInput } from './normalize.js';

describe('normalizeInput', () => {
  it('writes every digit set libphonenumber reads as ASCII, and the full-width plus as +', () => {
    expect(normalizeInput('＋４４ ２０')).toBe('+44 20');
    expect(normalizeInput('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(normalizeInput('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
    expect(normalizeInput('０１２３４５６７８９')).toBe('0123456789');
  });

  it('trims, folds runs of any white space into one space and drops a tel: scheme', () => {
    expect(normalizeInput(' \t+1\u00a0\u00a0415\r\n555\u30002671 ')).toBe('+1 415 555 2671');
    expect(normalizeInput('  Tel:+33612345678;ext=1')).toBe('+33612345678;ext=1');
  });

  it('leaves letters and punctuation for the parser to judge', () => {
    expect(normalizeInput('1-800-FLOWERS')).toBe('1-800-FLOWERS');
    expect(normalizeInput('telephone 1')).toBe('telephone 1');
  });
});

describe('sanitizeInput', () => {
  it('keeps a leading + and the digits, without the extension', () => {
    expect(sanitizeInput('+1 (415) 555-2671 ext. 123', '123')).toBe('+14155552671');
    expect(sanitizeInput('(415) 555-2671', null)).toBe('4155552671');
    expect(sanitizeInput('1+2', null)).toBe('12');
  });

  it('is empty when no digit is left, and keeps digits it cannot attribute to an extension', () => {
    expect(sanitizeInput('()-./', null)).toBe('');
    expect(sanitizeInput('+1 415 555 2679', '9')).toBe('+1415555267');
    expect(sanitizeInput('+1 415 555 2670', '9')).toBe('+14155552670');
  });
});
