import { describe, expect, it } from 'vitest';
import {
  IPV4_SPECIAL_RANGES,
  IPV6_RESERVED,
  IPV6_SPECIAL_RANGES,
} from '../../core/outbound/special-ranges.js';
import { parseIpInput } from './address.js';
import { labelledCidrs, reasonFor } from './reasons.js';

const reason = (ip: string) => {
  const t = parseIpInput(ip);
  return t.kind === 'reserved' ? t.reason : t.kind;
};

describe('parseIpInput: what counts as an address', () => {
  it.each([
    ['8.8.8.8', 4, '8.8.8.8'],
    ['223.255.255.254', 4, '223.255.255.254'],
    ['1.0.0.0', 4, '1.0.0.0'],
    ['2001:4860:4860::8888', 6, '2001:4860:4860:0:0:0:0:8888'],
    ['2001:4860:4860:0000:0000:0000:0000:8888', 6, '2001:4860:4860:0:0:0:0:8888'],
    ['2001:4860:4860::8888'.toUpperCase(), 6, '2001:4860:4860:0:0:0:0:8888'],
    ['2a00:1450::', 6, '2a00:1450:0:0:0:0:0:0'],
  ])('%s is a public IPv%i address, looked up as %s', (text, family, address) => {
    expect(parseIpInput(text)).toMatchObject({ kind: 'public', family, address });
  });

  it.each([
    '',
    ' 8.8.8.8',
    '8.8.8.8 ',
    '8.8.8',
    '8.8.8.8.8',
    '256.1.1.1',
    '08.8.8.8',
    '127.1',
    '0x7f.0.0.1',
    '2130706433',
    '[2001:db8::1]',
    'fe80::1%eth0',
    '2001:db8::/32',
    '8.8.8.0/24',
    '2001:db8:::1',
    '1:2:3:4:5:6:7:8:9',
    '::ffff:08.8.8.8',
    'example.com',
    'localhost',
    `${'1'.repeat(46)}`,
    '１.１.１.１',
  ])('%j is not an address', (text) => {
    expect(parseIpInput(text)).toEqual({ kind: 'invalid' });
  });

  it('numbers: IPv4 as one unsigned 32-bit value, IPv6 as four words', () => {
    expect(parseIpInput('223.255.255.254')).toMatchObject({ value: 0xdffffffe });
    expect(parseIpInput('1.2.3.4')).toMatchObject({ value: 0x01020304 });
    expect(parseIpInput('2001:4860:ffff:1::8888')).toMatchObject({
      words: [0x20014860, 0xffff0001, 0, 0x8888],
    });
    expect(parseIpInput('2606:4700::ffff:ffff')).toMatchObject({ words: [0x26064700, 0, 0, 0xffffffff] });
  });
});

describe('parseIpInput: special-purpose addresses are answered, not refused', () => {
  it.each([
    ['10.1.2.3', 'private (RFC 1918)'],
    ['172.31.255.255', 'private (RFC 1918)'],
    ['192.168.0.1', 'private (RFC 1918)'],
    ['127.0.0.1', 'loopback (RFC 1122)'],
    ['169.254.169.254', 'link-local (RFC 3927)'],
    ['100.64.0.1', 'shared address space, carrier-grade NAT (RFC 6598)'],
    ['0.0.0.0', 'this network (RFC 791)'],
    ['192.0.2.1', 'documentation, TEST-NET-1 (RFC 5737)'],
    ['224.0.0.251', 'multicast (RFC 5771)'],
    ['255.255.255.255', 'limited broadcast (RFC 919)'],
    ['240.0.0.1', 'reserved (RFC 1112)'],
    ['::1', 'loopback (RFC 4291)'],
    ['::', 'unspecified (RFC 4291)'],
    ['fe80::1', 'link-local (RFC 4291)'],
    ['fd12:3456:789a::1', 'unique local (RFC 4193)'],
    ['2001:db8::1', 'documentation (RFC 3849)'],
    ['ff02::1', 'multicast (RFC 4291)'],
    ['::8.8.8.8', 'IPv4-compatible IPv6, deprecated (RFC 4291)'],
    ['4000::1', 'reserved by the IETF, outside global unicast (RFC 4291)'],
  ])('%s: %s', (ip, why) => {
    expect(reason(ip)).toBe(why);
  });

  it('IPv6 carrying an IPv4 address is judged and located by that address', () => {
    expect(parseIpInput('::ffff:8.8.8.8')).toMatchObject({ kind: 'public', family: 4, address: '8.8.8.8' });
    expect(parseIpInput('::ffff:808:808')).toMatchObject({ kind: 'public', family: 4, address: '8.8.8.8' });
    expect(parseIpInput('64:ff9b::808:808')).toMatchObject({ kind: 'public', family: 4, address: '8.8.8.8' });
    expect(parseIpInput('2002:808:808::1')).toMatchObject({ kind: 'public', family: 4, address: '8.8.8.8' });
    expect(reason('::ffff:10.0.0.1')).toBe('private (RFC 1918)');
    expect(reason('::ffff:127.0.0.1')).toBe('loopback (RFC 1122)');
    expect(reason('2002:c0a8:0101::1')).toBe('private (RFC 1918)');
  });

  it('Teredo is located by the client (bit-inverted in the last 32 bits), not the relay server', () => {
    // RFC 4380's layout: server 65.54.227.120, client 192.0.2.45 (Wikipedia's example: documentation range).
    expect(reason('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe('documentation, TEST-NET-1 (RFC 5737)');
    // Client 8.8.8.8 → ~0x0808 = 0xf7f7; server 65.54.227.120.
    expect(parseIpInput('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toMatchObject({
      kind: 'public',
      family: 4,
      address: '8.8.8.8',
    });
  });
});

describe('reasons', () => {
  it('every special-purpose range of core/outbound has a worded reason', () => {
    const cidrs = [...IPV4_SPECIAL_RANGES, ...IPV6_SPECIAL_RANGES, IPV6_RESERVED].map((r) => r.cidr);
    expect(cidrs.filter((c) => !labelledCidrs().includes(c))).toEqual([]);
  });

  it('a range added later gets its registry name and first RFC', () => {
    expect(reasonFor({ cidr: '198.18.0.0/31', name: 'Future-Use', rfc: 'RFC 9999, RFC 1' })).toBe(
      'Future-Use (RFC 9999)',
    );
  });
});
