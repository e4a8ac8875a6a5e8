import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../core/blob/blob.js';

export interface BlobFixture {
  store: BlobStore;
  cleanup(): Promise<void>;
  /**
   * Everything the adapter has stored, sorted; for files, every path under a directory that encloses the root,
   * so that a write escaping the root shows up too.
   */
  inventory(): Promise<string[]>;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const INVALID_BLOB_KEYS: readonly string[] = [
  '../x',
  '/abs',
  '/etc/passwd',
  'a//b',
  'a/../b',
  'a/./b',
  'ns/..',
  '..',
  '',
  'x',
  'a/b/c',
  'ns/with space',
  'ns/nul\u0000byte',
  'ns\\win',
  'ns/ünïcode',
  'ns/',
];

/** The BlobStore contract (core/blob/blob.ts), run against every adapter. */
export function describeBlobContract(name: string, factory: () => Promise<BlobFixture>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let fixture: BlobFixture;
    let blobs: BlobStore;

    beforeEach(async () => {
      fixture = await factory();
      blobs = fixture.store;
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    it('round-trips every byte value with its metadata through put, get and head', async () => {
      const body = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
      expect(new Set(body).size).toBe(256);
      const before = Date.now();
      const meta = await blobs.put('shots/abc-123.png', body, 'image/png');
      const after = Date.now();
      expect(meta).toEqual({
        key: 'shots/abc-123.png',
        contentType: 'image/png',
        size: 512,
        createdAt: expect.stringMatching(ISO_UTC),
      });
      const created = Date.parse(meta.createdAt);
      expect(created).toBeGreaterThanOrEqual(before);
      expect(created).toBeLessThanOrEqual(after);

      const got = await blobs.get('shots/abc-123.png');
      expect(got?.meta).toEqual(meta);
      expect(Buffer.isBuffer(got?.body)).toBe(true);
      expect(got?.body.equals(body)).toBe(true);
      expect(await blobs.head('shots/abc-123.png')).toEqual(meta);
    });

    it('stores an empty body and keeps a content type with parameters', async () => {
      const meta = await blobs.put('bodies/empty', Buffer.alloc(0), 'text/plain; charset=utf-8');
      expect(meta.size).toBe(0);
      const got = await blobs.get('bodies/empty');
      expect(got?.body.length).toBe(0);
      expect(got?.meta.contentType).toBe('text/plain; charset=utf-8');
    });

    it('accepts every character the key alphabet allows', async () => {
      const key = 'Name_space-1.v2/.ID_with-dots..and_Z9';
      await blobs.put(key, Buffer.from('ok'), 'text/plain');
      expect((await blobs.get(key))?.body.toString()).toBe('ok');
    });

    it('overwrites a blob with new body and metadata', async () => {
      const first = await blobs.put('bodies/d1', Buffer.from('first version'), 'text/plain');
      const second = await blobs.put('bodies/d1', Buffer.from('{"v":2}'), 'application/json');
      expect(second.size).toBe(7);
      expect(Date.parse(second.createdAt)).toBeGreaterThanOrEqual(Date.parse(first.createdAt));
      const got = await blobs.get('bodies/d1');
      expect(got?.body.toString()).toBe('{"v":2}');
      expect(got?.meta).toEqual(second);
      expect(await blobs.head('bodies/d1')).toEqual(second);
    });

    it('keeps blobs of different keys apart', async () => {
      await blobs.put('a/one', Buffer.from('1'), 'text/plain');
      await blobs.put('b/one', Buffer.from('2'), 'text/plain');
      await blobs.put('a/two', Buffer.from('3'), 'text/plain');
      expect((await blobs.get('a/one'))?.body.toString()).toBe('1');
      expect((await blobs.get('b/one'))?.body.toString()).toBe('2');
      expect((await blobs.get('a/two'))?.body.toString()).toBe('3');
    });

    it('reads an absent blob as null', async () => {
      expect(await blobs.get('shots/missing')).toBeNull();
      expect(await blobs.head('shots/missing')).toBeNull();
      expect(await blobs.get('no-such-namespace/x')).toBeNull();
    });

    it('delete reports whether something was deleted', async () => {
      await blobs.put('bodies/del', Buffer.from('x'), 'text/plain');
      expect(await blobs.delete('bodies/del')).toBe(true);
      expect(await blobs.get('bodies/del')).toBeNull();
      expect(await blobs.head('bodies/del')).toBeNull();
      expect(await blobs.delete('bodies/del')).toBe(false);
      expect(await blobs.delete('nowhere/never')).toBe(false);
    });

    it('refuses invalid keys in every operation and writes nothing', async () => {
      const before = await fixture.inventory();
      for (const key of INVALID_BLOB_KEYS) {
        const body = Buffer.from('escaped');
        await expect(blobs.put(key, body, 'text/plain'), `put ${JSON.stringify(key)}`).rejects.toThrow(
          /invalid blob key/,
        );
        await expect(blobs.get(key), `get ${JSON.stringify(key)}`).rejects.toThrow(/invalid blob key/);
        await expect(blobs.head(key), `head ${JSON.stringify(key)}`).rejects.toThrow(/invalid blob key/);
        await expect(blobs.delete(key), `delete ${JSON.stringify(key)}`).rejects.toThrow(/invalid blob key/);
      }
      expect(await fixture.inventory()).toEqual(before);
      // The inventory does see writes, so the equality above means something.
      await blobs.put('proof/written', Buffer.from('x'), 'text/plain');
      expect(await fixture.inventory()).not.toEqual(before);
    });

    it('refuses content types that are empty, too long or not printable ASCII', async () => {
      for (const contentType of ['', ' text/plain', 'text/plain\r\nX-Evil: 1', 'a\u0000b', 'x'.repeat(256)]) {
        await expect(blobs.put('bodies/ct', Buffer.from('x'), contentType)).rejects.toThrow(/content type/);
      }
      expect(await blobs.head('bodies/ct')).toBeNull();
    });

    it('round-trips a 5 MB blob', async () => {
      const body = randomBytes(5 * 1024 * 1024);
      const meta = await blobs.put('shots/large.bin', body, 'application/octet-stream');
      expect(meta.size).toBe(body.length);
      const got = await blobs.get('shots/large.bin');
      expect(got?.meta.size).toBe(body.length);
      // equals() rather than toEqual: a failure must not print five megabytes.
      expect(got?.body.equals(body)).toBe(true);
    });
  });
}
