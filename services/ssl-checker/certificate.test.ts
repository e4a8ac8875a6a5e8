import { describe, expect, it } from 'vitest';
import { certificateDate, parseSubjectAltName } from './certificate.js';

describe('parseSubjectAltName (node’s subjectAltName text)', () => {
  it('keeps DNS names and IP addresses in order, drops other name types', () => {
    expect(
      parseSubjectAltName(
        'DNS:Example.com, email:a@example.com, IP Address:10.0.0.1, URI:https://x.example/, DNS:*.example.com',
      ),
    ).toEqual(['example.com', '10.0.0.1', '*.example.com']);
  });

  it('reads JSON-quoted values, which node uses when a value holds a comma or a quote', () => {
    expect(parseSubjectAltName('DNS:a.example, DNS:"we\\u002cird.example", DNS:b.example')).toEqual([
      'a.example',
      'we,ird.example',
      'b.example',
    ]);
  });

  it('prints IPv6 addresses in their canonical short form', () => {
    expect(parseSubjectAltName('IP Address:0:0:0:0:0:0:0:1, IP Address:2001:DB8:0:0:0:0:0:1')).toEqual([
      '::1',
      '2001:db8::1',
    ]);
  });

  it('has nothing to say about a certificate without the extension', () => {
    expect(parseSubjectAltName(undefined)).toEqual([]);
    expect(parseSubjectAltName('')).toEqual([]);
  });
});

describe('certificateDate', () => {
  it('reads node’s validity format as UTC', () => {
    expect(certificateDate('Jan  1 00:00:00 2026 GMT').toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(certificateDate('Dec 31 23:59:59 2049 GMT').toISOString()).toBe('2049-12-31T23:59:59.000Z');
    expect(certificateDate('Mar  5 12:30:00 2051 GMT').toISOString()).toBe('2051-03-05T12:30:00.000Z');
  });

  it('refuses text that is no date', () => {
    expect(() => certificateDate('not a date')).toThrow();
  });
});
