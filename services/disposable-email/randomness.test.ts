import { describe, expect, it } from 'vitest';
import { looksRandom, randomDomain, randomLocalPart } from './randomness.js';

describe('randomLocalPart', () => {
  it.each([
    'x7kq9z2mvb3p',
    'a8f3k2j9',
    'qwxzvbnm',
    'kdjfhgkdjf',
    'xkq9zmv2p',
    '3f2a9c41d7e8b605',
    '550e8400-e29b-41d4-a716-446655440000',
    'john.x7kq9z2mvb3p',
    'x7kq9z2mvb3p+newsletter',
  ])('flags %s', (local) => {
    expect(randomLocalPart(local)).toBe(true);
  });

  // Real people's and roles' local parts: what must never be flagged.
  it.each([
    'john.smith',
    'jane_doe1985',
    'john2doe85',
    'mike1985',
    'm.mueller',
    'firstname.lastname',
    'info',
    'support+billing',
    'kontakt',
    'noreply',
    'zhangwei88',
    'li.xiaoming',
    'zhangxiaoming',
    '123456789',
    '4915112345678',
    "o'brien",
    'jean-luc.picard',
    'schwarzkopf',
    'schmidt.christoph',
    'szczepanski',
    'brzeczyszczykiewicz',
    'angelina.jolie',
    'user123abc456',
    'b2b4sales',
    'wxm19880101',
    'mohammed.alghamdi',
    'nguyen.van.anh',
    'siobhan.oshaughnessy',
    'bjornstrom',
    'aleksandr.kuznetsov',
    'oluwaseun.adeyemi',
  ])('leaves %s alone', (local) => {
    expect(randomLocalPart(local)).toBe(false);
  });
});

describe('looksRandom', () => {
  it('ignores short tokens and digit runs', () => {
    expect(looksRandom('xkqzv')).toBe(false);
    expect(looksRandom('12345678901234')).toBe(false);
  });
});

describe('randomDomain', () => {
  it.each(['xk7q9zmv2p.com', 'mail.xk7q9zmv2p.co.uk', 'qwxzvbnmkp.net', 'shop-x7kq9z2mvb3p.io'])(
    'flags %s',
    (d) => {
      expect(randomDomain(d)).toBe(true);
    },
  );

  it.each([
    'gmail.com',
    'qq.com',
    '163.com',
    'web.de',
    'mail.ru',
    'yandex.ru',
    'protonmail.com',
    'example.co.uk',
    'tutanota.com',
    't-online.de',
    'rediffmail.com',
    'xn--bcher-kva.de',
    'university.edu.pl',
    'schwarzkopf.de',
  ])('leaves %s alone', (d) => {
    expect(randomDomain(d)).toBe(false);
  });
});
