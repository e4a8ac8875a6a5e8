import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, isKeyId, KEY_LENGTH, newKeyId, parseKey, randomBase62 } from './key.js';

describe('API key format', () => {
  it('is tg_<16 base62>_<43 base62>, hashed with SHA-256, with an 11-character start', () => {
    const keyId = newKeyId();
    expect(isKeyId(keyId)).toBe(true);
    const { key, keyHash, start } = generateKey(keyId);
    expect(key).toMatch(/^tg_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    expect(key).toHaveLength(KEY_LENGTH);
    expect(key.startsWith(`tg_${keyId}_`)).toBe(true);
    expect(start).toBe(`tg_${keyId.slice(0, 8)}`);
    expect(keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('draws secrets that do not repeat and use the whole alphabet evenly', () => {
    const keys = new Set(Array.from({ length: 2000 }, () => generateKey('AAAAAAAAAAAAAAAA').key));
    expect(keys.size).toBe(2000);
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 1000 expected per character; a biased `% 62` over bytes would give the first 8 characters ~1.25×.
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
    for (const n of counts.values()) expect(n).toBeLessThan(1200);
  });

  it('parses a well-formed key and refuses everything else', () => {
    const { key } = generateKey('AbCd1234EfGh5678');
    expect(parseKey(key)).toEqual({ keyId: 'AbCd1234EfGh5678', secret: key.slice(20) });
    for (const bad of [
      undefined,
      null,
      42,
      '',
      key.slice(0, -1),
      `${key}x`,
      key.replace('tg_', 'tk_'),
      key.replace('_', '-'),
      `${key.slice(0, -1)}-`,
      `${key.slice(0, 10)}é${key.slice(11)}`,
      'x'.repeat(1_000_000),
    ]) {
      expect(parseKey(bad)).toBeNull();
    }
    expect(() => generateKey('short')).toThrow(/key id/);
  });
});
