import { describe, expect, it } from 'vitest';
import {
  fieldValue,
  isPhoneField,
  MAX_TEXT_CHARS,
  MAX_TOKENS,
  normalizeText,
  prepareField,
  textOf,
  tokensOf,
} from './normalize.js';

describe('normalizeText', () => {
  it('folds case, diacritics, compatibility forms and letters that do not decompose', () => {
    expect(normalizeText('José MÜLLER')).toBe('jose muller');
    expect(normalizeText('Straße')).toBe('strasse');
    expect(normalizeText('Søren Ærø Łódź')).toBe('soren aero lodz');
    expect(normalizeText('ﬁne ＡＢＣ １２３')).toBe('fine abc 123');
    expect(normalizeText('İstanbul')).toBe('istanbul');
  });

  it('turns every run of punctuation, symbols and white space into one space', () => {
    expect(normalizeText('  Smith,\tJohn  (Jr.) ')).toBe('smith john jr');
    expect(normalizeText('O’Brien & Sons — Ltd.')).toBe('o brien sons ltd');
    expect(normalizeText('!!! ...')).toBe('');
  });

  it('keeps letters of other scripts', () => {
    expect(normalizeText('東京 タワー')).toBe('東京 タワー');
    expect(normalizeText('Москва')).toBe('москва');
  });

  it(`caps the text at ${MAX_TEXT_CHARS} characters`, () => {
    expect(normalizeText('ab '.repeat(100)).length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
  });
});

describe('tokensOf', () => {
  it(`keeps the first ${MAX_TOKENS} distinct tokens, sorted`, () => {
    expect(tokensOf('smith john smith')).toEqual(['john', 'smith']);
    expect(tokensOf('')).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => `t${String(i).padStart(2, '0')}`).join(' ');
    expect(tokensOf(many)).toEqual(
      Array.from({ length: MAX_TOKENS }, (_, i) => `t${String(i).padStart(2, '0')}`),
    );
  });
});

describe('fieldValue', () => {
  const record = {
    name: 'A',
    'address.city': 'flat key',
    address: { city: 'Paris', geo: { lat: 1 } },
    list: [1],
  };

  it('reads an own property of that exact name first, then a dotted path', () => {
    expect(fieldValue(record, 'name')).toBe('A');
    expect(fieldValue(record, 'address.city')).toBe('flat key');
    expect(fieldValue({ address: { city: 'Paris' } }, 'address.city')).toBe('Paris');
    expect(fieldValue(record, 'address.geo.lat')).toBe(1);
  });

  it('finds nothing through arrays, primitives or inherited properties', () => {
    expect(fieldValue(record, 'list.0')).toBeUndefined();
    expect(fieldValue(record, 'name.length')).toBeUndefined();
    expect(fieldValue(record, 'toString')).toBeUndefined();
    expect(fieldValue(record, 'address.constructor')).toBeUndefined();
    expect(fieldValue(record, 'missing')).toBeUndefined();
  });
});

describe('textOf', () => {
  it('reads strings, numbers, booleans and arrays of them; objects and null are no value', () => {
    expect(textOf('x')).toBe('x');
    expect(textOf(42)).toBe('42');
    expect(textOf(false)).toBe('false');
    expect(textOf(['a', 1, null, { b: 2 }, ['c']])).toBe('a 1');
    expect(textOf([])).toBeNull();
    expect(textOf({ a: 1 })).toBeNull();
    expect(textOf(null)).toBeNull();
    expect(textOf(undefined)).toBeNull();
  });
});

describe('isPhoneField', () => {
  it('reads the words of the name, in camelCase, snake_case or dotted form', () => {
    for (const name of ['phone', 'Phone', 'mobilePhone', 'phone_number', 'contact.tel', 'FAX', 'cellPhone'])
      expect(isPhoneField(name), name).toBe(true);
    for (const name of ['hotel', 'title', 'cancellation', 'telemetry', 'name', 'faxed'])
      expect(isPhoneField(name), name).toBe(false);
  });
});

describe('prepareField', () => {
  it('is null for absent, null, object and blank values', () => {
    for (const v of [undefined, null, { a: 1 }, '', '  ', '---'])
      expect(prepareField({ f: v }, 'f'), String(v)).toBeNull();
  });

  it('takes the digits of phone fields, without leading zeros (trunk prefix)', () => {
    expect(prepareField({ phone: '020 7946 0958' }, 'phone')?.digits).toBe('2079460958');
    expect(prepareField({ phone: '+1 (415) 555-0100' }, 'phone')?.digits).toBe('14155550100');
    expect(prepareField({ phone: 'n/a' }, 'phone')?.digits).toBeNull();
  });

  it('takes the digits of international numbers in any field, and of no other numbers', () => {
    expect(prepareField({ contact: '+44 20 7946 0958' }, 'contact')?.digits).toBe('442079460958');
    expect(prepareField({ id: 1234567 }, 'id')?.digits).toBeNull();
    expect(prepareField({ id: '555-0100-22' }, 'id')?.digits).toBeNull();
  });

  it('splits e-mail addresses into a local part without dots and +tags, and the domain', () => {
    expect(prepareField({ e: ' John.Smith+news@Example.COM ' }, 'e')?.email).toEqual({
      local: 'johnsmith',
      domain: 'example.com',
    });
    expect(prepareField({ e: 'not an address' }, 'e')?.email).toBeNull();
  });

  it('keeps normalised text, sorted tokens and their joined form', () => {
    expect(prepareField({ n: 'Smith, John' }, 'n')).toMatchObject({
      text: 'smith john',
      tokens: ['john', 'smith'],
      tokenText: 'john smith',
    });
  });
});
