import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatPrefix, HEX_VALUE, parsePrefix, parseSha1, sha1Hex } from './hashes.js';

describe('hashes', () => {
  it('hashes the UTF-8 bytes with SHA-1, upper-case hex, as Have I Been Pwned does', () => {
    // The API documentation's own example: "P@ssw0rd" is under prefix 21BD1.
    expect(sha1Hex('P@ssw0rd')).toBe('21BD12DC183F740EE76F27B78EB39C8AD972A757');
    expect(sha1Hex('password')).toBe('5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8');
    // UTF-8, not UTF-16 or Latin-1: "é" is C3 A9.
    expect(sha1Hex('é')).toBe(
      createHash('sha1')
        .update(Buffer.from([0xc3, 0xa9]))
        .digest('hex')
        .toUpperCase(),
    );
  });

  it('accepts exactly five hex digits in either case as a prefix', () => {
    expect(parsePrefix('5BAA6')).toBe(0x5baa6);
    expect(parsePrefix('5baa6')).toBe(0x5baa6);
    expect(parsePrefix('00000')).toBe(0);
    expect(parsePrefix('FFFFF')).toBe(0xfffff);
    for (const bad of ['', '5BAA', '5BAA61', '5BAG6', ' 5BAA6', '5BAA6 ', '0x5BA', '+5BAA', '５BAA6']) {
      expect(parsePrefix(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('parses a 40-digit hash into 20 bytes and refuses anything else', () => {
    const hash = parseSha1('5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8');
    expect(hash?.toString('hex').toUpperCase()).toBe('5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8');
    expect(parseSha1('5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD')).toBeNull();
    expect(parseSha1('5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8A')).toBeNull();
    expect(parseSha1('ZBAA61E4C9B93F3F0682250B6CF8331B7EE68FD8')).toBeNull();
  });

  it('formats a prefix as five upper-case digits', () => {
    expect(formatPrefix(0)).toBe('00000');
    expect(formatPrefix(0x5baa6)).toBe('5BAA6');
  });

  it('maps exactly the 22 hex characters to their values', () => {
    const hex = [...'0123456789abcdefABCDEF'].map((c) => c.charCodeAt(0));
    for (let b = 0; b < 256; b++) {
      const expected = hex.includes(b) ? Number.parseInt(String.fromCharCode(b), 16) : -1;
      expect(HEX_VALUE[b], `byte ${b}`).toBe(expected);
    }
  });
});
