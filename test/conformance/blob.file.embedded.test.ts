import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../core/blob/file-blob.js';
import { describeBlobContract } from './blob.contract.js';

/** Every file and directory under `dir`, as sorted relative paths. */
async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

// The root sits one level below a private directory, so a key escaping it (`../x`) would land where
// listTree(base) sees it.
async function fileFixture() {
  const base = await mkdtemp(join(tmpdir(), 'tg-blob-file-'));
  const root = join(base, 'root', 'blobs');
  return { base, root, store: new FileBlobStore(root) };
}

describeBlobContract('file', async () => {
  const { base, store } = await fileFixture();
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(base, { recursive: true, force: true });
    },
    inventory: () => listTree(base),
  };
});

describe('FileBlobStore specifics', () => {
  it('leaves only the published file behind, with no temporary files', async () => {
    const { base, root, store } = await fileFixture();
    try {
      await store.put('shots/one', Buffer.from('first'), 'text/plain');
      await store.put('shots/one', Buffer.from('second'), 'text/plain');
      await store.put('shots/two', Buffer.from('x'), 'text/plain');
      expect(await listTree(root)).toEqual(['shots', 'shots/one', 'shots/two']);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('writes nothing above its root for escaping keys', async () => {
    const { base, store } = await fileFixture();
    try {
      await store.put('ns/ok', Buffer.from('inside'), 'text/plain');
      for (const key of ['../x', '../../x', 'blobs/../../x', '../blobs2/x', 'ns/../../x']) {
        await expect(store.put(key, Buffer.from('escaped'), 'text/plain')).rejects.toThrow(
          /invalid blob key/,
        );
      }
      expect(await listTree(base)).toEqual(['root', 'root/blobs', 'root/blobs/ns', 'root/blobs/ns/ok']);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('is readable by a second store on the same root (the layout is the only state)', async () => {
    const { base, root, store } = await fileFixture();
    try {
      const meta = await store.put('bodies/shared', Buffer.from('hello'), 'text/plain');
      const other = new FileBlobStore(root);
      expect(await other.head('bodies/shared')).toEqual(meta);
      expect((await other.get('bodies/shared'))?.body.toString()).toBe('hello');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
