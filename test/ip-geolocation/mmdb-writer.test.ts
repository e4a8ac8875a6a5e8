/**
 * The test MMDB writer against the real reader (maxmind/mmdb-lib), so databases the other tests make are what
 * a MaxMind file would give.
 */
import { Reader } from 'maxmind';
import { describe, expect, it } from 'vitest';
import { encode, uint64, writeMmdb } from './mmdb-writer.js';

describe('writeMmdb', () => {
  it('IPv6 database: IPv4 under ::/96, the most specific network wins, gaps are empty', () => {
    const reader = new Reader(
      writeMmdb(
        [
          { cidr: '8.8.8.0/24', data: { name: 'google' } },
          { cidr: '8.0.0.0/8', data: { name: 'eight' } },
          { cidr: '2001:db8::/32', data: { name: 'doc', list: [1, 2.5, 'x', true, false] } },
          { cidr: '2001:db8:1::/48', data: { name: 'doc-1' } },
        ],
        { databaseType: 'Test-DB', buildEpoch: new Date('2025-03-04T05:06:07Z') },
      ),
    );
    expect(reader.metadata).toMatchObject({
      databaseType: 'Test-DB',
      ipVersion: 6,
      recordSize: 24,
      binaryFormatMajorVersion: 2,
      buildEpoch: new Date('2025-03-04T05:06:07Z'),
    });
    expect(reader.getWithPrefixLength('8.8.8.8')).toEqual([{ name: 'google' }, 24]);
    expect(reader.get('8.9.9.9')).toEqual({ name: 'eight' });
    expect(reader.get('9.9.9.9')).toBeNull();
    expect(reader.get('2001:db8::1')).toEqual({ name: 'doc', list: [1, 2.5, 'x', true, false] });
    expect(reader.get('2001:db8:1::1')).toEqual({ name: 'doc-1' });
    expect(reader.get('2001:db9::1')).toBeNull();
  });

  it('IPv4 database', () => {
    const reader = new Reader(
      writeMmdb([{ cidr: '1.1.1.0/24', data: { n: 13335 } }], { databaseType: 'Four', ipVersion: 4 }),
    );
    expect(reader.metadata.ipVersion).toBe(4);
    expect(reader.get('1.1.1.1')).toEqual({ n: 13335 });
    expect(reader.get('1.1.2.1')).toBeNull();
    expect(() => writeMmdb([{ cidr: '::/1', data: 'x' }], { databaseType: 'Four', ipVersion: 4 })).toThrow();
  });

  it('encodes long strings, big maps, unicode, uint64 and negative doubles as the reader reads them', () => {
    const long = 'é'.repeat(200);
    const longer = 'a'.repeat(70_000);
    const map = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    const data = { long, longer, map, big: uint64(2n ** 40n), neg: -12.25, zero: 0, max: 2 ** 32 - 1 };
    const reader = new Reader(writeMmdb([{ cidr: '10.0.0.0/8', data }], { databaseType: 'X' }));
    expect(reader.get('10.1.2.3')).toEqual({ ...data, big: 2n ** 40n });
    expect(encode(true)).toEqual(Buffer.from([0x01, 0x07]));
    expect(encode('')).toEqual(Buffer.from([0x40]));
  });
});
