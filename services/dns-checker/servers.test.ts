import { describe, expect, it } from 'vitest';
import { parseNameServer, parseNameServers } from './servers.js';

describe('parseNameServer', () => {
  it.each([
    ['192.0.2.53', { address: '192.0.2.53', port: 53, label: '192.0.2.53' }],
    ['192.0.2.53:5353', { address: '192.0.2.53', port: 5353, label: '192.0.2.53:5353' }],
    ['192.0.2.53:53', { address: '192.0.2.53', port: 53, label: '192.0.2.53' }],
    [' 127.0.0.1:1053 ', { address: '127.0.0.1', port: 1053, label: '127.0.0.1:1053' }],
    ['2001:db8::53', { address: '2001:db8::53', port: 53, label: '2001:db8::53' }],
    ['::1', { address: '::1', port: 53, label: '::1' }],
    ['[::1]', { address: '::1', port: 53, label: '::1' }],
    ['[2001:db8::53]:5353', { address: '2001:db8::53', port: 5353, label: '[2001:db8::53]:5353' }],
  ])('%s', (spec, expected) => {
    expect(parseNameServer(spec)).toEqual(expected);
  });

  it.each([
    'dns.example.com',
    'dns.example.com:53',
    '192.0.2.300',
    '192.0.2.53:0',
    '192.0.2.53:70000',
    '[192.0.2.53]:53',
    '[::1]:',
    '',
  ])('refuses %s', (spec) => {
    expect(() => parseNameServer(spec)).toThrow(/is not ip, ip:port or \[ipv6\]:port/);
  });
});

describe('parseNameServers', () => {
  it('keeps the order and skips blanks', () => {
    expect(parseNameServers(['192.0.2.1', ' ', '192.0.2.2:5353']).map((s) => s.label)).toEqual([
      '192.0.2.1',
      '192.0.2.2:5353',
    ]);
  });

  it('needs one server at least', () => {
    expect(() => parseNameServers([])).toThrow(/no DNS server/);
  });
});
