import { describe, expect, it } from 'vitest';
import { normalizeDomain, parentDomains, parseEmail } from './email-address.js';

describe('parseEmail', () => {
  it.each([
    ['jane.doe@example.com', 'jane.doe', 'example.com'],
    ['Jane.Doe@Example.COM', 'Jane.Doe', 'example.com'],
    ['user+tag@gmail.com', 'user+tag', 'gmail.com'],
    ["o'brien@example.ie", "o'brien", 'example.ie'],
    ['a@b.co', 'a', 'b.co'],
    ['x@mail.sub.example.co.uk', 'x', 'mail.sub.example.co.uk'],
    ['!#$%&*+/=?^_`{|}~-@example.org', '!#$%&*+/=?^_`{|}~-', 'example.org'],
    ['jürgen@bücher.de', 'jürgen', 'xn--bcher-kva.de'],
    ['用户@例子.测试', '用户', 'xn--fsqu00a.xn--0zwm56d'],
    ['user@xn--bcher-kva.de', 'user', 'xn--bcher-kva.de'],
    ['123456789@qq.com', '123456789', 'qq.com'],
  ])('%s → local %s, domain %s', (input, local, domain) => {
    expect(parseEmail(input)).toEqual({ input, localPart: local, domain });
  });

  it.each([
    '',
    'plainaddress',
    '@example.com',
    'user@',
    'user@@example.com',
    'a@b@example.com',
    'user@localhost',
    'user@example',
    'user@example.com.',
    'user@-example.com',
    'user@example-.com',
    'user@exa_mple.com',
    'user@example..com',
    'user@127.0.0.1',
    'user@[192.0.2.1]',
    'user@[IPv6:2001:db8::1]',
    'user@example.c',
    'user@example.123',
    '.user@example.com',
    'user.@example.com',
    'us..er@example.com',
    '"quoted"@example.com',
    'us er@example.com',
    ' user@example.com',
    'user@example.com ',
    'user\t@example.com',
    'user@exam ple.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(64)}.com`,
    `a@${Array.from({ length: 60 }, () => 'abcd').join('.')}.com`,
  ])('refuses %j', (input) => {
    expect(parseEmail(input)).toBeNull();
  });

  it('takes a local part of exactly 64 octets and an address of exactly 254 characters', () => {
    expect(parseEmail(`${'a'.repeat(64)}@example.com`)).not.toBeNull();
    // 3 multi-byte characters = 6 octets: 60 + 6 = 66 octets is too long even though it is 63 characters.
    expect(parseEmail(`${'a'.repeat(60)}äöü@example.com`)).toBeNull();
    const domain = `${Array.from({ length: 3 }, () => 'd'.repeat(63)).join('.')}.${'e'.repeat(59)}`;
    expect(domain.length).toBe(251);
    expect(parseEmail(`ab@${domain}`)).not.toBeNull();
    expect(parseEmail(`abc@${domain}`)).toBeNull();
  });
});

describe('normalizeDomain', () => {
  it('lower-cases, maps internationalized names to punycode, takes a final dot only when told', () => {
    expect(normalizeDomain('MailInator.COM')).toBe('mailinator.com');
    expect(normalizeDomain('Bücher.de')).toBe('xn--bcher-kva.de');
    expect(normalizeDomain('example.com.')).toBeNull();
    expect(normalizeDomain('example.com.', { trailingDot: true })).toBe('example.com');
  });

  it.each(['com', '1.2.3.4', 'a..b.com', '-a.com', 'a-.com', 'a_b.com', '', '.', 'exa mple.com', 'x.y.1'])(
    'refuses %j',
    (input) => {
      expect(normalizeDomain(input, { trailingDot: true })).toBeNull();
    },
  );
});

describe('parentDomains', () => {
  it('lists the parents that are still domains, nearest first', () => {
    expect(parentDomains('a.b.example.com')).toEqual(['b.example.com', 'example.com']);
    expect(parentDomains('example.com')).toEqual([]);
  });
});
