import { isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  createAddressPolicy,
  describeClass,
  endsInNumber,
  parseIpLiteral,
  parseIpv6,
  parseLegacyIpv4,
} from './address-policy.js';
import { IPV4_SPECIAL_RANGES, IPV6_SPECIAL_RANGES } from './special-ranges.js';

const open = createAddressPolicy([]);
const refused = (address: string) => !open.check(address).allowed;

describe('parseLegacyIpv4: every spelling WHATWG URL and inet_aton accept', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0X7F.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0177.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0x7f.0.00.0x1', '127.0.0.1'],
    ['0000177.0.0.01', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['127.0.0x0.1', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['0x', '0.0.0.0'],
    ['00', '0.0.0.0'],
    ['2852039166', '169.254.169.254'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['0251.0376.0251.0376', '169.254.169.254'],
    ['169.254.43518', '169.254.169.254'],
    ['10.1', '10.0.0.1'],
    ['192.168.257', '192.168.1.1'],
    ['4294967295', '255.255.255.255'],
    ['0xffffffff', '255.255.255.255'],
    ['037777777777', '255.255.255.255'],
    ['1.2.3.4', '1.2.3.4'],
  ])('%s → %s', (text, dotted) => {
    expect(parseLegacyIpv4(text)).toBe(dotted);
  });

  it.each([
    '',
    '.',
    '1.2.3.4.5',
    '256.0.0.1',
    '1.256.0.1',
    '1.2.3.256',
    '1.2.65536',
    '1.16777216',
    '4294967296',
    '0x100000000',
    '040000000000',
    '08.0.0.1',
    '09',
    '0x7g.1',
    '1..2',
    '1.2.3.4..',
    '127.0.0.1 ',
    ' 127.0.0.1',
    '-1',
    '+1',
    '1e3',
    'example.com',
    '1.2.3.a',
    '99999999999999999999999999999999999999999999999999',
  ])('%j is not IPv4', (text) => {
    expect(parseLegacyIpv4(text)).toBeNull();
  });
});

describe('endsInNumber (WHATWG): such hosts must be IPv4 or are invalid', () => {
  it.each([
    ['1.2.3.4.5', true],
    ['example.0x10', true],
    ['example.123', true],
    ['example.123.', true],
    ['0x', true],
    ['example.com', false],
    ['example.0x1g', false],
    ['123.example', false],
    ['', false],
  ])('%j → %s', (host, expected) => {
    expect(endsInNumber(host)).toBe(expected);
  });
});

describe('parseIpLiteral', () => {
  it.each([
    ['::1', 6, '::1'],
    ['[::1]', 6, '::1'],
    ['000:0:0000::01', 6, '::1'],
    ['[000:0:0000::01]', 6, '::1'],
    ['0:0:0:0:0:0:0:1', 6, '::1'],
    ['::ffff:127.0.0.1', 6, '::ffff:7f00:1'],
    ['[::FFFF:7F00:1]', 6, '::ffff:7f00:1'],
    ['2001:DB8:0:0:0:0:0:1', 6, '2001:db8::1'],
    ['fe80::1%eth0', 6, 'fe80::1%eth0'],
    ['0x7f.1', 4, '127.0.0.1'],
    ['017700000001', 4, '127.0.0.1'],
  ])('%s → IPv%d %s', (text, family, address) => {
    expect(parseIpLiteral(text)).toEqual({ family, address });
  });

  it.each([
    'example.com',
    '[127.0.0.1]',
    '[example.com]',
    '1:2:3:4:5:6:7:8:9',
    ':::1',
    '[::1',
    '::g',
    '1.2.3.4.5',
  ])('%j is not an IP literal', (text) => {
    expect(parseIpLiteral(text)).toBeNull();
  });
});

describe('classification: IPv4 boundaries', () => {
  it.each([
    // [address, refused]
    ['0.0.0.0', true],
    ['0.255.255.255', true],
    ['1.0.0.0', false],
    ['9.255.255.255', false],
    ['10.0.0.0', true],
    ['10.255.255.255', true],
    ['11.0.0.0', false],
    ['100.63.255.255', false],
    ['100.64.0.0', true],
    ['100.127.255.255', true],
    ['100.128.0.0', false],
    ['126.255.255.255', false],
    ['127.0.0.0', true],
    ['127.255.255.255', true],
    ['128.0.0.0', false],
    ['169.253.255.255', false],
    ['169.254.0.0', true],
    ['169.254.169.254', true],
    ['169.254.255.255', true],
    ['169.255.0.0', false],
    ['172.15.255.255', false],
    ['172.16.0.0', true],
    ['172.31.255.255', true],
    ['172.32.0.0', false],
    ['191.255.255.255', false],
    ['192.0.0.0', true],
    ['192.0.0.9', true],
    ['192.0.0.255', true],
    ['192.0.1.0', false],
    ['192.0.2.0', true],
    ['192.0.2.255', true],
    ['192.0.3.0', false],
    ['192.31.196.1', true],
    ['192.52.193.1', true],
    ['192.88.98.255', false],
    ['192.88.99.0', true],
    ['192.88.99.255', true],
    ['192.88.100.0', false],
    ['192.167.255.255', false],
    ['192.168.0.0', true],
    ['192.168.255.255', true],
    ['192.169.0.0', false],
    ['192.175.48.1', true],
    ['198.17.255.255', false],
    ['198.18.0.0', true],
    ['198.19.255.255', true],
    ['198.20.0.0', false],
    ['198.51.99.255', false],
    ['198.51.100.0', true],
    ['198.51.100.255', true],
    ['198.51.101.0', false],
    ['203.0.112.255', false],
    ['203.0.113.0', true],
    ['203.0.113.255', true],
    ['203.0.114.0', false],
    ['223.255.255.255', false],
    ['224.0.0.0', true],
    ['233.252.0.1', true],
    ['239.255.255.255', true],
    ['240.0.0.0', true],
    ['255.255.255.254', true],
    ['255.255.255.255', true],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['93.184.216.34', false],
  ])('%s refused: %s', (address, expected) => {
    expect(refused(address)).toBe(expected);
  });
});

describe('classification: IPv6', () => {
  it.each([
    ['::', true],
    ['::1', true],
    ['::2', true],
    ['::8.8.8.8', true],
    ['::ffff:0:808:808', true],
    ['64:ff9b:1::808:808', true],
    ['100::', true],
    ['100::ffff:ffff:ffff:ffff', true],
    ['100:0:0:1::1', true],
    ['100:0:0:2::1', true],
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2000::1', false],
    ['2001::1', true],
    ['2001:1::1', true],
    ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2001:200::1', false],
    ['2001:2::1', true],
    ['2001:3::1', true],
    ['2001:4:112::1', true],
    ['2001:10::1', true],
    ['2001:20::1', true],
    ['2001:30::1', true],
    ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['2001:db8::', true],
    ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2001:db9::', false],
    ['2001:4860:4860::8888', false],
    ['2606:4700:4700::1111', false],
    ['2620:4f:8000::1', true],
    ['3fff::1', true],
    ['3fff:fff:ffff::1', true],
    ['3fff:1000::1', false],
    ['3ffe::1', false],
    ['4000::1', true],
    ['5f00::1', true],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fc00::', true],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fe80::', true],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fec0::1', true],
    ['ff00::', true],
    ['ff02::1', true],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fe80::1%eth0', true],
    ['2001:4860:4860::8888%eth0', true],
  ])('%s refused: %s', (address, expected) => {
    expect(refused(address)).toBe(expected);
  });
});

describe('classification: IPv4 embedded in IPv6 is judged by that IPv4 address', () => {
  it.each([
    // IPv4-mapped: the same host, connected to as IPv4.
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['0:0:0:0:0:ffff:7f00:0001', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:8.8.8.8', false],
    // NAT64 well-known prefix (RFC 6052): reaches the embedded host.
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::c0a8:1', true],
    ['64:ff9b::808:808', false],
    // 6to4: bits 16-47.
    ['2002:7f00:1::', true],
    ['2002:a00:1::1', true],
    ['2002:c0a8:101::', true],
    ['2002:808:808::1', false],
    // Teredo: server in bits 32-63, client bit-inverted in the last 32 bits.
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', true],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', true],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false],
  ])('%s refused: %s', (address, expected) => {
    expect(refused(address)).toBe(expected);
  });

  it('names the embedded address and its range in the reason', () => {
    expect(open.check('2001:0:4136:e378:8000:63bf:80ff:fffe').reason).toBe(
      'Teredo 2001::/32 (RFC 4380, RFC 8190), embeds 127.0.0.1: Loopback 127.0.0.0/8 (RFC 1122)',
    );
    expect(open.check('2002:a9fe:a9fe::').reason).toContain('embeds 169.254.169.254: Link Local');
  });

  it('connects to an IPv4-mapped address as IPv4, and only to that', () => {
    expect(open.check('::ffff:8.8.8.8')).toEqual({
      allowed: true,
      address: '::ffff:808:808',
      connectAddress: '8.8.8.8',
      family: 4,
      reason: 'public',
    });
    expect(open.check('64:ff9b::808:808')).toMatchObject({
      allowed: true,
      connectAddress: '64:ff9b::808:808',
    });
  });
});

describe('classification follows the registry tables exactly', () => {
  /** First and last address of a CIDR, as text. */
  const bounds = (cidr: string): [string, string] => {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    const bytes = network.toByteArray();
    const last = bytes.map((b, i) => {
      const hostBits = Math.min(8, Math.max(0, (i + 1) * 8 - bits));
      return b | ((1 << hostBits) - 1);
    });
    return [network.toString(), ipaddr.fromByteArray(last).toString()];
  };

  it.each(IPV4_SPECIAL_RANGES.map((r) => [r.cidr, r.name] as const))('%s (%s): both ends refused', (cidr) => {
    for (const address of bounds(cidr)) {
      const c = classifyAddress(address);
      expect(c.public, address).toBe(false);
      expect(c.range, address).not.toBeNull();
    }
  });

  it.each(IPV6_SPECIAL_RANGES.filter((r) => !r.embeds).map((r) => [r.cidr, r.name] as const))(
    '%s (%s): both ends refused',
    (cidr) => {
      for (const address of bounds(cidr)) expect(classifyAddress(address).public, address).toBe(false);
    },
  );

  it('reports the most specific range with its RFC', () => {
    expect(describeClass(classifyAddress('169.254.169.254'))).toBe(
      'Link Local (incl. cloud metadata 169.254.169.254) 169.254.0.0/16 (RFC 3927)',
    );
    expect(classifyAddress('192.0.0.9').range?.name).toBe('Port Control Protocol Anycast');
    expect(classifyAddress('::1').range?.name).toBe('Loopback Address');
    expect(classifyAddress('::').range?.name).toBe('Unspecified Address');
    expect(classifyAddress('::2').range?.name).toBe('IPv4-Compatible IPv6 (deprecated)');
    expect(classifyAddress('4000::1').range?.name).toMatch(/^Reserved by IETF/);
    expect(classifyAddress('8.8.8.8')).toEqual({
      address: '8.8.8.8',
      family: 4,
      range: null,
      embedded: [],
      public: true,
    });
  });

  it('refuses to classify what is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow(/not an IP address/);
  });
});

describe('allow-list (OUTBOUND_ALLOW_CIDRS): exactly the listed ranges get through', () => {
  it('a /32 lets one address through and not its neighbours', () => {
    const policy = createAddressPolicy(['127.0.0.100/32']);
    expect(policy.check('127.0.0.100')).toMatchObject({
      allowed: true,
      reason: 'allow-listed by 127.0.0.100/32',
    });
    expect(policy.check('0x7f.0.0.100').allowed).toBe(true);
    expect(policy.check('::ffff:127.0.0.100').allowed).toBe(true);
    for (const other of ['127.0.0.99', '127.0.0.101', '127.0.0.1', '::ffff:127.0.0.101', '::1']) {
      expect(policy.check(other).allowed, other).toBe(false);
    }
  });

  it('a /8 covers its range to the last address and stops there', () => {
    const policy = createAddressPolicy(['10.0.0.0/8']);
    expect(policy.check('10.0.0.0').allowed).toBe(true);
    expect(policy.check('10.255.255.255').allowed).toBe(true);
    expect(policy.check('10.1').allowed).toBe(true);
    expect(policy.check('172.16.0.1').allowed).toBe(false);
    expect(policy.check('192.168.0.1').allowed).toBe(false);
    expect(policy.check('8.8.8.8')).toMatchObject({ allowed: true, reason: 'public' });
  });

  it('IPv6 ranges match IPv6 only; IPv4 ranges IPv4 (and IPv4-mapped) only', () => {
    const v6 = createAddressPolicy(['fd00::/8', '::1/128']);
    expect(v6.check('fd12:3456::1').allowed).toBe(true);
    expect(v6.check('::1').allowed).toBe(true);
    expect(v6.check('fc00::1').allowed).toBe(false);
    expect(v6.check('127.0.0.1').allowed).toBe(false);
    const v4 = createAddressPolicy(['127.0.0.0/8']);
    expect(v4.check('::1').allowed).toBe(false);
    expect(v4.check('::ffff:127.0.0.1').allowed).toBe(true);
  });

  it('an IPv4-mapped range counts as its IPv4 range', () => {
    const policy = createAddressPolicy(['::ffff:127.0.0.0/104']);
    expect(policy.check('127.1.2.3').allowed).toBe(true);
    expect(policy.check('128.0.0.1').allowed).toBe(true);
    expect(policy.check('10.0.0.1').allowed).toBe(false);
  });

  it('a bare address is a host route', () => {
    const policy = createAddressPolicy(['192.168.1.10']);
    expect(policy.check('192.168.1.10').allowed).toBe(true);
    expect(policy.check('192.168.1.11').allowed).toBe(false);
  });

  it('empty by default: nothing special gets through', () => {
    const policy = createAddressPolicy();
    expect(policy.allowCidrs).toEqual([]);
    for (const address of ['127.0.0.1', '10.0.0.1', '::1', '169.254.169.254']) {
      expect(policy.check(address).allowed).toBe(false);
    }
  });

  it.each(['10.0.0.0/33', '::/129', 'example.com/8', '10.0.0.0/8/1', '10.0.0.0/x', 'fe80::%eth0/64', ''])(
    'refuses a bad entry %j',
    (entry) => {
      expect(() => createAddressPolicy([entry])).toThrow(/OUTBOUND_ALLOW_CIDRS/);
    },
  );
});

describe('parseIpv6 agrees with inet_pton (net.isIPv6) and reads dotted tails strictly', () => {
  it.each([
    '::',
    '::1',
    '1::',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1::8',
    '::ffff:1.2.3.4',
    '::1.2.3.4',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5::1.2.3.4',
    'fe80::1%eth0',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:',
    '12345::',
    '::ffff:1.2.3',
    '::ffff:01.2.3.4',
    '::ffff:0x7f.0.0.1',
    '::ffff:256.0.0.1',
    '1:2:3:4:5:6:7:1.2.3.4',
    ':::',
    'g::',
    '::1%',
  ])('%s', (text) => {
    expect(parseIpv6(text) !== null).toBe(isIPv6(text));
  });

  it('keeps IPv4-compatible ::a.b.c.d apart from IPv4-mapped', () => {
    expect(parseIpv6('::8.8.8.8')?.parts).toEqual([0, 0, 0, 0, 0, 0, 0x808, 0x808]);
    expect(parseIpLiteral('::8.8.8.8')?.address).toBe('::808:808');
    expect(parseIpLiteral('1::1.2.3.4')?.address).toBe('1::102:304');
  });
});
