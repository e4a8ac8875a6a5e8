import { describe, expect, it } from 'vitest';
import { ipDetector, isIpv4, isIpv6, isVersionName } from './ip.js';
import type { Finding } from './types.js';

const found = (text: string, types?: Finding['type'][]): string[][] => {
  const out: Finding[] = [];
  ipDetector.scan(text, out, types ? { types: new Set(types) } : {});
  return out.map((f) => [f.type, text.slice(f.start, f.end)]);
};

describe('isIpv4', () => {
  it('accepts dotted quads of 0–255 without leading zeros', () => {
    for (const a of ['0.0.0.0', '127.0.0.1', '255.255.255.255', '203.0.113.42'])
      expect(isIpv4(a), a).toBe(true);
    for (const a of ['256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1..2.3', '1.2.3.', 'a.b.c.d']) {
      expect(isIpv4(a), a).toBe(false);
    }
  });
});

describe('isIpv6', () => {
  it('accepts the RFC 4291 text forms', () => {
    for (const a of [
      '2001:db8:85a3:0:0:8a2e:370:7334',
      '2001:db8::1',
      '::1',
      'fe80::',
      '::ffff:192.0.2.1',
      '2001:DB8::8A2E:370:7334',
      '1:2:3:4:5:6:7::',
    ]) {
      expect(isIpv6(a), a).toBe(true);
    }
  });

  it('refuses wrong group counts, double compression, long groups and non-hex', () => {
    for (const a of [
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '12345::1',
      'g::1',
      ':1:2',
      '13:55:36',
    ]) {
      expect(isIpv6(a), a).toBe(false);
    }
    expect(isIpv6('1:2:3:4:5:6:7::8')).toBe(false);
  });
});

describe('ipDetector', () => {
  it('finds IPv4 and IPv6 addresses with ports, in brackets and at sentence ends', () => {
    expect(found('client 203.0.113.42:51234 -> [2001:db8::10]:8080.')).toEqual([
      ['IP_ADDRESS', '203.0.113.42'],
      ['IP_ADDRESS', '2001:db8::10'],
    ]);
    expect(found('from 10.0.0.1. Then fe80::1ff:fe23:4567:890a: reset')).toEqual([
      ['IP_ADDRESS', '10.0.0.1'],
      ['IP_ADDRESS', 'fe80::1ff:fe23:4567:890a'],
    ]);
    expect(found('net 10.0.0.0/8')).toEqual([['IP_ADDRESS', '10.0.0.0']]);
  });

  it('leaves timestamps, versions, user agents and code alone', () => {
    expect(found('2023-10-10T13:55:36.123Z [10/Oct/2023:13:55:36 +0000] 13:55:36')).toEqual([]);
    expect(
      found('v1.2.3.4 Version=4.0.0.0 version 1.2.3.4 release: 2.0.0.1 "appVersion":"10.4.0.2"'),
    ).toEqual([]);
    expect(found('Chrome/120.0.0.0 Safari/537.36')).toEqual([]);
    expect(found('std::vector Foo::bar Abc::Def dead::beef (index.js:284:7)')).toEqual([]);
    expect(found('1.0.0.4521 999.1.1.1')).toEqual([]);
    // SSL fingerprints: 20 hex pairs are neither an address nor a MAC.
    expect(found('AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01')).toEqual([]);
  });

  it('finds MAC addresses with colons or hyphens', () => {
    expect(found('dev 3c:22:fb:8a:1e:07 and 00-1A-2B-3C-4D-5E')).toEqual([
      ['MAC_ADDRESS', '3c:22:fb:8a:1e:07'],
      ['MAC_ADDRESS', '00-1A-2B-3C-4D-5E'],
    ]);
    expect(found('550e8400-e29b-41d4-a716-446655440000')).toEqual([]);
  });

  it('reports only the wanted types', () => {
    const text = 'ip 10.1.2.3 mac 3c:22:fb:8a:1e:07';
    expect(found(text, ['MAC_ADDRESS'])).toEqual([['MAC_ADDRESS', '3c:22:fb:8a:1e:07']]);
    expect(found(text, ['IP_ADDRESS'])).toEqual([['IP_ADDRESS', '10.1.2.3']]);
  });
});

describe('isVersionName', () => {
  it('recognises version-naming words and fields', () => {
    for (const w of ['version', 'Version', 'appVersion', 'ver', 'release'])
      expect(isVersionName(w), w).toBe(true);
    for (const w of ['server', 'never', 'client', 'ip']) expect(isVersionName(w), w).toBe(false);
  });
});
