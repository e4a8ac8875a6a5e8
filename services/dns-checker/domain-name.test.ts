import { describe, expect, it } from 'vitest';
import { toQueryName } from './domain-name.js';

const label63 = 'a'.repeat(63);
/** 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters. */
const name253 = `${label63}.${label63}.${label63}.${'b'.repeat(61)}`;

describe('toQueryName accepts domain names', () => {
  it.each([
    ['example.com', 'example.com'],
    ['EXAMPLE.Com', 'example.com'],
    ['example.com.', 'example.com'],
    ['a.b.c.d.example.co.uk', 'a.b.c.d.example.co.uk'],
    ['com', 'com'],
    ['localhost', 'localhost'],
    ['_sip._tcp.example.com', '_sip._tcp.example.com'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['a-b-c.example', 'a-b-c.example'],
    ['123.example.com', '123.example.com'],
    ['0x7f.example', '0x7f.example'],
    [name253, name253],
  ])('%s → %s', (input, expected) => {
    expect(toQueryName(input)).toBe(expected);
  });

  it('internationalized names become A-labels (UTS #46 mapping, punycode)', () => {
    expect(toQueryName('münchen.de')).toBe('xn--mnchen-3ya.de');
    expect(toQueryName('ÄÖÜ.DE')).toBe('xn--4ca0bs.de');
    expect(toQueryName('bücher.example')).toBe('xn--bcher-kva.example');
    expect(toQueryName('例え.テスト')).toBe('xn--r8jz45g.xn--zckzah');
    // Full-width letters and the ideographic full stop are mapped to their ASCII forms.
    expect(toQueryName('ｅｘａｍｐｌｅ．ｃｏｍ')).toBe('example.com');
    expect(toQueryName('example。com')).toBe('example.com');
  });
});

describe('toQueryName refuses what is not a domain name', () => {
  it.each([
    ['empty', ''],
    ['the root alone', '.'],
    ['an empty label', 'a..b'],
    ['two final dots', 'example.com..'],
    ['a leading dot', '.example.com'],
    ['a label starting with a hyphen', '-a.example.com'],
    ['a label ending with a hyphen', 'a-.example.com'],
    ['a space', 'exa mple.com'],
    ['leading white space', ' example.com'],
    ['a tab', 'example.com\t'],
    ['a control character', 'exa\u0000mple.com'],
    ['a URL', 'https://example.com/'],
    ['a path', 'example.com/path'],
    ['a port', 'example.com:80'],
    ['user info', 'user@example.com'],
    ['a percent escape', 'a%41.com'],
    ['a query', 'example.com?x'],
    ['a fragment', 'example.com#x'],
    ['a backslash', 'example\\.com'],
    ['a wildcard', '*.example.com'],
    ['other punctuation', 'exa!mple.com'],
    ['a 64-octet label', `${'a'.repeat(64)}.com`],
    ['254 characters', `${name253}b`],
    ['invalid punycode', 'xn--abc.com'],
  ])('%s', (_what, input) => {
    expect(toQueryName(input)).toBeNull();
  });

  it.each([
    ['IPv4', '127.0.0.1'],
    ['IPv4 with a final dot', '192.0.2.1.'],
    ['short IPv4', '127.1'],
    ['hexadecimal IPv4', '0x7f.1'],
    ['octal IPv4', '0177.0.0.1'],
    ['one integer', '2130706433'],
    ['octal integer', '017700000001'],
    ['hexadecimal integer', '0x7f000001'],
    ['five numbers', '1.2.3.4.5'],
    ['a numeric top-level label', 'example.123'],
    ['IPv6', '::1'],
    ['bracketed IPv6', '[::1]'],
    ['IPv4-mapped IPv6', '::ffff:127.0.0.1'],
    ['full-width digits', '１２７.０.０.１'],
  ])('IP literals and their odd encodings: %s', (_what, input) => {
    expect(toQueryName(input)).toBeNull();
  });

  it('a name of 253 characters passes, one of 254 does not, whatever its labels', () => {
    expect(name253).toHaveLength(253);
    expect(toQueryName(name253)).toBe(name253);
    expect(toQueryName(`${name253}.`)).toBe(name253);
    expect(toQueryName(`x${name253}`)).toBeNull();
  });

  it('very long input is refused without work', () => {
    const start = performance.now();
    expect(toQueryName('a.'.repeat(100_000))).toBeNull();
    expect(toQueryName('ü'.repeat(100_000))).toBeNull();
    expect(performance.now() - start).toBeLessThan(100);
  });
});
