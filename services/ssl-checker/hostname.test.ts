import { describe, expect, it } from 'vitest';
import { parseHostname } from './hostname.js';

describe('parseHostname', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['example.com.', 'example.com'],
    ['localhost', 'localhost'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['123.example', '123.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('accepts the name %j as %j', (input, host) => {
    expect(parseHostname(input)).toEqual({ host, kind: 'dns' });
  });

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '::1'],
    ['[2001:DB8::1]', '2001:db8::1'],
  ])('accepts the address %j as %j', (input, host) => {
    expect(parseHostname(input)).toEqual({ host, kind: 'ip' });
  });

  it.each([
    '',
    '   ',
    'https://example.com',
    'example.com/path',
    'example.com:443',
    'user@example.com',
    '*.example.com',
    'exa mple.com',
    'ex_ample.com',
    '-example.com',
    'example-.com',
    'example..com',
    '.example.com',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
    'example.123',
    '[example.com]',
    '[::1',
  ])('refuses %j', (input) => {
    expect(parseHostname(input)).toBeNull();
  });

  // Odd IPv4 spellings that URL parsers and resolvers read as addresses become that address, so the outbound
  // guard judges the address (and refuses it with SSRF_BLOCKED).
  it.each([
    ['127.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['134744072', '8.8.8.8'],
  ])('reads %j as the address %s', (input, address) => {
    expect(parseHostname(input)).toEqual({ host: address, kind: 'ip' });
  });
});
