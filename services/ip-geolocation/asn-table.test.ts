import { describe, expect, it } from 'vitest';
import { decimalU32, decimalWords, readAsnCsv } from './asn-csv.js';
import { AsnTableBuilder, type Words } from './asn-table.js';

const buf = (s: string) => Buffer.from(s, 'utf8');
const words = (hex: string): Words => {
  const h = hex.padStart(32, '0');
  return [0, 8, 16, 24].map((i) => Number.parseInt(h.slice(i, i + 8), 16)) as unknown as Words;
};
const dec = (n: bigint) => n.toString(10);

describe('decimal fields', () => {
  it('decimalU32: 0 to 2^32 − 1, digits only', () => {
    expect(decimalU32(buf('0'), 0, 1)).toBe(0);
    expect(decimalU32(buf('4294967295'), 0, 10)).toBe(4294967295);
    expect(decimalU32(buf('4294967296'), 0, 10)).toBeNull();
    expect(decimalU32(buf('12a'), 0, 3)).toBeNull();
    expect(decimalU32(buf(''), 0, 0)).toBeNull();
    expect(decimalU32(buf('x16777216,'), 1, 9)).toBe(16777216);
  });

  it('decimalWords: 128-bit values split into four words, exactly as BigInt does', () => {
    const cases = [
      0n,
      1n,
      2n ** 32n - 1n,
      2n ** 32n,
      2n ** 64n + 5n,
      0x20014860480d00000000000000000000n,
      0x2001486048ffffffffffffffffffffffn,
      2n ** 128n - 1n,
    ];
    for (const n of cases) {
      const text = dec(n);
      expect(decimalWords(buf(text), 0, text.length), text).toEqual(words(n.toString(16)));
    }
    const over = dec(2n ** 128n);
    expect(decimalWords(buf(over), 0, over.length)).toBeNull();
    expect(decimalWords(buf('12-3'), 0, 4)).toBeNull();
  });
});

describe('AsnRangeTable', () => {
  const table = () => {
    const b = new AsnTableBuilder();
    b.addV4(0x01000000, 0x010000ff, 13335, 'Cloudflare, Inc.');
    b.addV4(0x08080800, 0x080808ff, 15169, 'Google LLC');
    b.addV4(0x08080400, 0x080804ff, 15169, 'Google LLC');
    b.addV4(0x09090900, 0x090909ff, 0, 'not routed');
    b.addV4(0xfffffff0, 0xffffffff, 64512, '');
    b.addV6(
      words('20014860000000000000000000000000'),
      words('20014860ffffffffffffffffffffffff'),
      15169,
      'Google LLC',
    );
    b.addV6(words('20010db8000000000000000000000000'), words('20010db8000000000000000000000000'), 1, 'one');
    return b.build();
  };

  it('finds the range holding an address, at both ends and inside, in any insertion order', () => {
    const t = table();
    expect(t.lookupV4(0x01000000)).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(t.lookupV4(0x010000ff)).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(t.lookupV4(0x08080808)).toEqual({ asn: 15169, org: 'Google LLC' });
    expect(t.lookupV4(0x08080404)).toEqual({ asn: 15169, org: 'Google LLC' });
    expect(t.lookupV4(0xffffffff)).toEqual({ asn: 64512, org: null });
  });

  it('gaps, addresses before the first range and AS 0 rows are no answer', () => {
    const t = table();
    expect(t.lookupV4(0)).toBeNull();
    expect(t.lookupV4(0x01000100)).toBeNull();
    expect(t.lookupV4(0x08080500)).toBeNull();
    expect(t.lookupV4(0x09090909)).toBeNull();
  });

  it('IPv6 compares all four words', () => {
    const t = table();
    expect(t.lookupV6(words('20014860486000000000000000008888'))).toEqual({ asn: 15169, org: 'Google LLC' });
    expect(t.lookupV6(words('20014860ffffffffffffffffffffffff'))).toEqual({ asn: 15169, org: 'Google LLC' });
    expect(t.lookupV6(words('20014861000000000000000000000000'))).toBeNull();
    expect(t.lookupV6(words('20010db8000000000000000000000000'))).toEqual({ asn: 1, org: 'one' });
    expect(t.lookupV6(words('20010db8000000000000000000000001'))).toBeNull();
    expect(t.lookupV6(words('1'))).toBeNull();
  });

  it('stores each organization once', () => {
    expect(table().size).toEqual({ ipv4: 4, ipv6: 2, organizations: 4 });
  });

  it('an empty table answers nothing', () => {
    const t = new AsnTableBuilder().build();
    expect(t.lookupV4(0x08080808)).toBeNull();
    expect(t.lookupV6(words('2001'))).toBeNull();
  });
});

describe('readAsnCsv', () => {
  it('reads quoted names with "" escapes, UTF-8, CRLF, blank lines and a missing final newline', async () => {
    const b = new AsnTableBuilder();
    const rows = await readAsnCsv(
      buf(
        '16777216,16777471,13335,"Cloudflare, Inc."\r\n' +
          '35309568,35313663,201907,"LLC ""SPUTNIK"""\n' +
          '\n' +
          '652398080,652398591,267578,WILLIAN MENDES DE OLIVEIRA \u00ad ME\n' +
          '3221225984,3221226239,64496,Ex\u00e4mple \u65e5\u672c',
      ),
      4,
      b,
    );
    expect(rows).toBe(4);
    const t = b.build();
    expect(t.lookupV4(16777217)?.org).toBe('Cloudflare, Inc.');
    expect(t.lookupV4(35309568)?.org).toBe('LLC "SPUTNIK"');
    expect(t.lookupV4(652398591)?.org).toBe('WILLIAN MENDES DE OLIVEIRA \u00ad ME');
    expect(t.lookupV4(3221226000)).toEqual({ asn: 64496, org: 'Ex\u00e4mple \u65e5\u672c' });
  });

  it('reads 39-digit IPv6 ranges', async () => {
    const b = new AsnTableBuilder();
    await readAsnCsv(
      buf(
        '42540528726795050063891204319802818560,42540528806023212578155541913346768895,2500,WIDE Project\n' +
          `${dec(2n ** 128n - 2n ** 64n)},${dec(2n ** 128n - 1n)},65000,top\n`,
      ),
      6,
      b,
    );
    const t = b.build();
    expect(t.lookupV6(words('20010200000000000000000000000001'))).toEqual({ asn: 2500, org: 'WIDE Project' });
    expect(t.lookupV6(words('ffffffffffffffff0000000000000000'))?.asn).toBe(65000);
    expect(t.lookupV6(words('fffffffffffffffeffffffffffffffff'))).toBeNull();
  });

  it('sorts rows that come out of order', async () => {
    const b = new AsnTableBuilder();
    await readAsnCsv(buf('300,399,3,c\n100,199,1,a\n200,299,2,b\n'), 4, b);
    const t = b.build();
    expect([150, 250, 350, 50, 400].map((n) => t.lookupV4(n)?.asn ?? null)).toEqual([1, 2, 3, null, null]);
  });

  it('yields to the event loop while reading many rows', async () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `${i * 10},${i * 10 + 9},${i + 1},org ${i % 7}`);
    // Counts event-loop turns taken while reading: a reader that never yielded would finish before the first.
    let done = false;
    let turns = 0;
    const spin = () => {
      if (done) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const b = new AsnTableBuilder();
    await readAsnCsv(buf(lines.join('\n')), 4, b);
    done = true;
    expect(turns).toBeGreaterThanOrEqual(4);
    const t = b.build();
    expect(t.lookupV4(99_995)?.asn).toBe(10_000);
    expect(t.size.organizations).toBe(8);
  });

  it.each([
    ['1,2,3', 'line 1 is not start,end,asn,organization'],
    ['1,2,x,org', 'line 1 is not start,end,asn,organization'],
    ['ok,2,3,org', 'line 1 has a bad IPv4 range'],
    ['1,2,3,a\n5000000000,5000000001,3,org', 'line 2 has a bad IPv4 range'],
  ])('refuses %j: %s', async (text, message) => {
    await expect(readAsnCsv(buf(text), 4, new AsnTableBuilder())).rejects.toThrow(message);
  });

  it('refuses an IPv6 field with more than 39 digits', async () => {
    await expect(readAsnCsv(buf(`${'9'.repeat(40)},1,3,org`), 6, new AsnTableBuilder())).rejects.toThrow(
      'line 1 has a bad IPv6 range',
    );
  });
});
