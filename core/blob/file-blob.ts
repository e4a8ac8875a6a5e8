import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { BlobMeta, BlobStore } from './blob.js';
import { checkContentType, parseBlobKey } from './blob-key.js';

/** Enough for any header: keys and content types are short printable ASCII (see blob-key.ts). */
const HEADER_MAX = 4096;
const NEWLINE = 0x0a;

interface Header {
  v: 1;
  contentType: string;
  size: number;
  createdAt: string;
}

/**
 * Embedded blob store: `<root>/<namespace>/<id>`, one file per blob holding a one-line JSON header (the metadata)
 * then the body. Keeping both in one file means one rename publishes them together: a reader never sees a new
 * body with old metadata, and a crash never leaves a half-written blob under its key. Temporary files carry a
 * `~`, which no key can contain, so they can never be read or overwritten as a blob.
 */
export class FileBlobStore implements BlobStore {
  private readonly root: string;

  constructor(rootDir: string) {
    this.root = resolve(rootDir);
  }

  async put(key: string, body: Buffer, contentType: string): Promise<BlobMeta> {
    const file = this.pathOf(key);
    checkContentType(contentType);
    const header: Header = { v: 1, contentType, size: body.length, createdAt: new Date().toISOString() };
    await mkdir(dirname(file), { recursive: true });
    const temp = `${file}~${randomBytes(8).toString('hex')}`;
    try {
      // flush: the data must be on disk before the rename makes it visible, or a crash could publish an empty file.
      await writeFile(temp, [Buffer.from(`${JSON.stringify(header)}\n`), body], { flag: 'wx', flush: true });
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return toMeta(key, header);
  }

  async get(key: string): Promise<{ meta: BlobMeta; body: Buffer } | null> {
    const file = this.pathOf(key);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const end = data.indexOf(NEWLINE);
    const header = parseHeader(key, data, end);
    const body = data.subarray(end + 1);
    if (body.length !== header.size) throw corrupt(key);
    return { meta: toMeta(key, header), body };
  }

  async head(key: string): Promise<BlobMeta | null> {
    const file = this.pathOf(key);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(file, 'r');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    try {
      const buf = Buffer.alloc(HEADER_MAX);
      const { bytesRead } = await handle.read(buf, 0, HEADER_MAX, 0);
      const data = buf.subarray(0, bytesRead);
      const end = data.indexOf(NEWLINE);
      const header = parseHeader(key, data, end);
      if ((await handle.stat()).size !== end + 1 + header.size) throw corrupt(key);
      return toMeta(key, header);
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<boolean> {
    const file = this.pathOf(key);
    try {
      await unlink(file);
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async close(): Promise<void> {
    // Nothing is held open between calls.
  }

  /** Validates the key before any path is built from it: this is what keeps every call inside the root. */
  private pathOf(key: string): string {
    const { namespace, id } = parseBlobKey(key);
    return join(this.root, namespace, id);
  }
}

function parseHeader(key: string, data: Buffer, end: number): Header {
  if (end < 0) throw corrupt(key);
  let header: Header;
  try {
    header = JSON.parse(data.subarray(0, end).toString('utf8')) as Header;
  } catch {
    throw corrupt(key);
  }
  if (header.v !== 1 || typeof header.contentType !== 'string' || !Number.isSafeInteger(header.size)) {
    throw corrupt(key);
  }
  return header;
}

const toMeta = (key: string, h: Header): BlobMeta => ({
  key,
  contentType: h.contentType,
  size: h.size,
  createdAt: h.createdAt,
});

const corrupt = (key: string): Error =>
  new Error(`blob ${JSON.stringify(key)} is corrupt (unreadable header or size)`);

const isMissing = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};
