import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KvStore } from '../../core/kv/kv.js';

export interface KvFixture {
  store: KvStore;
  cleanup(): Promise<void>;
}

/**
 * The KvStore contract (core/kv/kv.ts), run against every adapter. Expiry uses short real TTLs because Redis
 * keeps its own clock; each TTL leaves a wide margin between "still there" and "surely gone".
 */
export function describeKvContract(name: string, factory: () => Promise<KvFixture>): void {
  describe(`KvStore contract: ${name}`, () => {
    let fixture: KvFixture;
    let kv: KvStore;

    beforeEach(async () => {
      fixture = await factory();
      kv = fixture.store;
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    it('reads an absent key as null', async () => {
      expect(await kv.get('never-set')).toBeNull();
    });

    it('returns what was set, and a later set overwrites value and expiry', async () => {
      await kv.set('k', 'one');
      expect(await kv.get('k')).toBe('one');
      await kv.set('k', 'two', 60_000);
      expect(await kv.get('k')).toBe('two');
      expect(await kv.ttl('k')).toBeGreaterThan(0);
      await kv.set('k', 'three');
      expect(await kv.get('k')).toBe('three');
      expect(await kv.ttl('k')).toBeNull();
    });

    it('expires a key after its TTL', async () => {
      await kv.set('short', 'v', 200);
      await kv.set('long', 'v');
      expect(await kv.get('short')).toBe('v');
      await sleep(400);
      expect(await kv.get('short')).toBeNull();
      expect(await kv.ttl('short')).toBeNull();
      expect(await kv.get('long')).toBe('v');
    });

    it('reports the remaining TTL, and null for keys without expiry or absent', async () => {
      await kv.set('timed', 'v', 10_000);
      const ttl = await kv.ttl('timed');
      expect(ttl).toBeGreaterThan(9_000);
      expect(ttl).toBeLessThanOrEqual(10_000);
      await kv.set('forever', 'v');
      expect(await kv.ttl('forever')).toBeNull();
      expect(await kv.ttl('absent')).toBeNull();
    });

    it('setIfAbsent sets once, refuses while present, and sets again after expiry', async () => {
      expect(await kv.setIfAbsent('once', 'first', 200)).toBe(true);
      expect(await kv.setIfAbsent('once', 'second', 200)).toBe(false);
      expect(await kv.get('once')).toBe('first');
      await sleep(400);
      expect(await kv.setIfAbsent('once', 'third')).toBe(true);
      expect(await kv.get('once')).toBe('third');
      expect(await kv.ttl('once')).toBeNull();
    });

    it('setIfAbsent does not replace a key that was set without expiry', async () => {
      await kv.set('plain', 'kept');
      expect(await kv.setIfAbsent('plain', 'lost', 1_000)).toBe(false);
      expect(await kv.get('plain')).toBe('kept');
      expect(await kv.ttl('plain')).toBeNull();
    });

    it('lets exactly one of 50 concurrent setIfAbsent calls win', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => kv.setIfAbsent('race', `caller-${i}`, 60_000)),
      );
      const winners = results.flatMap((won, i) => (won ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(await kv.get('race')).toBe(`caller-${winners[0]}`);
    });

    it('increments from 0 by 1 or by a given amount', async () => {
      expect(await kv.increment('n')).toBe(1);
      expect(await kv.increment('n', 5)).toBe(6);
      expect(await kv.increment('n', -8)).toBe(-2);
      expect(await kv.get('n')).toBe('-2');
      expect(await kv.ttl('n')).toBeNull();
      await kv.set('m', '40');
      expect(await kv.increment('m', 2)).toBe(42);
    });

    it('counts 200 concurrent increments exactly, each caller seeing a distinct value', async () => {
      const values = await Promise.all(Array.from({ length: 200 }, () => kv.increment('hits', 1, 60_000)));
      expect(await kv.get('hits')).toBe('200');
      expect(new Set(values).size).toBe(200);
      expect(Math.min(...values)).toBe(1);
      expect(Math.max(...values)).toBe(200);
    });

    it('keeps the TTL given when the counter was created, ignoring later ones', async () => {
      expect(await kv.increment('window', 1, 600)).toBe(1);
      await sleep(300);
      expect(await kv.increment('window', 1, 60_000)).toBe(2);
      const ttl = await kv.ttl('window');
      expect(ttl).toBeGreaterThan(0);
      // Reset to 600 or extended to 60 s would both be far above what is left of the first 600 ms.
      expect(ttl).toBeLessThanOrEqual(320);
      await sleep(450);
      expect(await kv.get('window')).toBeNull();
      expect(await kv.increment('window', 1, 60_000)).toBe(1);
      expect(await kv.ttl('window')).toBeGreaterThan(59_000);
    });

    it('refuses to increment a value that is not an integer, leaving it unchanged', async () => {
      await kv.set('word', 'abc');
      await expect(kv.increment('word')).rejects.toThrow(/not an integer/);
      expect(await kv.get('word')).toBe('abc');
    });

    it('refuses TTLs and increments that are not positive / safe integers', async () => {
      await expect(kv.set('bad', 'v', 0)).rejects.toThrow(RangeError);
      await expect(kv.set('bad', 'v', -5)).rejects.toThrow(RangeError);
      await expect(kv.setIfAbsent('bad', 'v', 1.5)).rejects.toThrow(RangeError);
      await expect(kv.increment('bad', 0.5)).rejects.toThrow(RangeError);
      await expect(kv.increment('bad', 1, Number.NaN)).rejects.toThrow(RangeError);
      expect(await kv.get('bad')).toBeNull();
    });

    it('delete reports whether a live key was removed', async () => {
      await kv.set('gone', 'v');
      expect(await kv.delete('gone')).toBe(true);
      expect(await kv.get('gone')).toBeNull();
      expect(await kv.delete('gone')).toBe(false);
      expect(await kv.delete('never-set')).toBe(false);
      await kv.set('expired', 'v', 100);
      await sleep(250);
      expect(await kv.delete('expired')).toBe(false);
    });

    it('keeps keys with colons and unicode apart', async () => {
      const keys = ['a', 'a:b', 'a:b:c', ':', 'ключ:🔑', '日本語:キー', 'emoji 🙂 key', 'tab\tkey', 'a:B'];
      for (const [i, key] of keys.entries()) await kv.set(key, `value-${i}-ü`);
      for (const [i, key] of keys.entries()) expect(await kv.get(key)).toBe(`value-${i}-ü`);
      expect(await kv.increment('compteur:été')).toBe(1);
      expect(await kv.delete('a:b')).toBe(true);
      expect(await kv.get('a')).toBe('value-0-ü');
      expect(await kv.get('a:b:c')).toBe('value-2-ü');
    });

    it('round-trips a 1 MB value', async () => {
      const value = `é🙂${randomBytes(786_432).toString('base64').slice(6)}`;
      expect(Buffer.byteLength(value)).toBeGreaterThanOrEqual(1_048_576);
      await kv.set('big', value, 60_000);
      const read = await kv.get('big');
      // Compare without letting a failure print two megabytes.
      expect(read?.length).toBe(value.length);
      expect(read === value).toBe(true);
    });
  });
}
