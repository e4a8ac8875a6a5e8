import { describe, expect, it } from 'vitest';
import { isLocalhostName, parseHost } from './host.js';

describe('parseHost: a host as a URL parser reads it', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['１２７。０。０。１', '127.0.0.1'],
    ['%31%32%37.0.0.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['[000:0:0000::01]', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
  ])('%j is the IP %s', (host, address) => {
    expect(parseHost(host)).toEqual({ kind: 'ip', literal: expect.objectContaining({ address }) });
  });

  it.each([
    ['example.com', 'example.com'],
    ['Example.COM.', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['a-b.example', 'a-b.example'],
    ['123.example', '123.example'],
    ['localhost', 'localhost'],
  ])('%j is the name %s', (host, name) => {
    expect(parseHost(host)).toEqual({ kind: 'name', name });
  });

  it.each([
    '',
    '1.2.3.4.5',
    'example.0x10',
    'a b',
    'a..b',
    '-',
    'exa mple.com',
    'user@example.com',
    'example.com:80',
    '[example.com]',
    '[127.0.0.1]',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(130)}com`,
    'example.com/path',
  ])('%j is not a host', (host) => {
    expect(parseHost(host)).toBeNull();
  });
});

describe('isLocalhostName (RFC 6761)', () => {
  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['a.b.localhost', true],
    ['localhost.example.com', false],
    ['notlocalhost', false],
    ['example.com', false],
  ])('%s → %s', (name, expected) => {
    expect(isLocalhostName(name)).toBe(expected);
  });
});
