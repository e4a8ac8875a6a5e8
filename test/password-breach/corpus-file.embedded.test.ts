/**
 * The importer and the corpus file on a real disk: what goes in comes back out of the file (the same answers
 * as the in-memory corpus), atomic replacement, refusal of damaged files, and how the service picks its
 * corpus.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryCorpus, openCorpusFile } from '../../services/password-breach/corpus.js';
import { RECORD_SIZE, RECORDS_OFFSET } from '../../services/password-breach/corpus-format.js';
import { defaultCorpus } from '../../services/password-breach/default-corpus.js';
import { sha1Hex } from '../../services/password-breach/hashes.js';
import { type ImportProgress, importHashes } from '../../services/password-breach/import.js';
import { importedCorpusPath, openBreachCorpus } from '../../services/password-breach/open-corpus.js';

const root = mkdtempSync(join(tmpdir(), 'tg-pw-corpus-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dir = () => {
  const d = join(root, `case-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

/** 3,000 hashes: SHA-1 of "pw-0" … "pw-2999", counts 1 … 3000, plus "password". */
const ENTRIES = [
  ...Array.from({ length: 3000 }, (_, i) => ({ sha1: sha1Hex(`pw-${i}`), count: i + 1 })),
  { sha1: sha1Hex('password'), count: 9_659_365 },
].sort((a, b) => (a.sha1 < b.sha1 ? -1 : 1));
const DATASET = ENTRIES.map((e) => `${e.sha1}:${e.count}\r\n`).join('');

function writeInput(text: string): string {
  const file = join(dir(), 'input.txt');
  writeFileSync(file, text);
  return file;
}

describe('corpus file', () => {
  it('answers every range and count exactly as the in-memory corpus of the same entries', async () => {
    const output = join(dir(), 'corpus.bin');
    const result = await importHashes({ input: writeInput(DATASET), output });
    expect(result).toMatchObject({
      entries: ENTRIES.length,
      lines: ENTRIES.length,
      bytesRead: DATASET.length,
    });
    expect(statSync(output).size).toBe(RECORDS_OFFSET + ENTRIES.length * RECORD_SIZE);
    const file = await openCorpusFile(output);
    const memory = memoryCorpus(ENTRIES, { source: 'memory' });
    try {
      const prefixes = new Set(ENTRIES.map((e) => e.sha1.slice(0, 5)));
      for (const p of ['00000', 'FFFFF', '5BAA6', ...prefixes])
        expect(await file.range(p)).toEqual(await memory.range(p));
      for (const e of ENTRIES.slice(0, 500)) expect(await file.count(e.sha1)).toBe(e.count);
      expect(await file.count(sha1Hex('pw-3000'))).toBe(0);
      expect(await file.count(sha1Hex('password'))).toBe(9_659_365);
      expect(file.info()).toMatchObject({ source: 'input.txt', entries: ENTRIES.length });
    } finally {
      await file.close();
    }
  });

  it('reads standard input (a stream) and reports progress', async () => {
    const output = join(dir(), 'corpus.bin');
    const seen: ImportProgress[] = [];
    await importHashes({
      input: Readable.from([Buffer.from(DATASET)]),
      totalBytes: DATASET.length,
      output,
      onProgress: (p) => seen.push(p),
    });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({
      bytesRead: DATASET.length,
      totalBytes: DATASET.length,
      entries: ENTRIES.length,
    });
    const corpus = await openCorpusFile(output);
    expect(corpus.info().source).toBe('standard input');
    expect(await corpus.count(sha1Hex('pw-7'))).toBe(8);
    await corpus.close();
  });

  it('replaces a corpus atomically; a refused import leaves it untouched and no temporary file', async () => {
    const d = dir();
    const output = join(d, 'corpus.bin');
    await importHashes({ input: writeInput(DATASET), output });
    const before = readFileSync(output);
    const unsorted = `${DATASET}${ENTRIES[0]!.sha1}:1\r\n`;
    await expect(importHashes({ input: writeInput(unsorted), output })).rejects.toThrow(
      `line ${ENTRIES.length + 1}: hashes are not in ascending order`,
    );
    expect(readFileSync(output).equals(before)).toBe(true);
    expect(readdirSync(d)).toEqual(['corpus.bin']);
    // A corpus reader opened before a new import keeps answering from the file it opened.
    const reader = await openCorpusFile(output);
    await importHashes({ input: writeInput(`${sha1Hex('only')}:1\n`), output });
    expect(await reader.count(sha1Hex('password'))).toBe(9_659_365);
    await reader.close();
    const fresh = await openCorpusFile(output);
    expect([fresh.info().entries, await fresh.count(sha1Hex('password'))]).toEqual([1, 0]);
    await fresh.close();
  });

  it('writes a valid empty corpus from an empty input', async () => {
    const output = join(dir(), 'corpus.bin');
    await importHashes({ input: writeInput(''), output });
    const corpus = await openCorpusFile(output);
    expect(corpus.info().entries).toBe(0);
    expect(await corpus.range('5BAA6')).toEqual([]);
    await corpus.close();
  });

  it('refuses a damaged, truncated or foreign file', async () => {
    const d = dir();
    const output = join(d, 'corpus.bin');
    await importHashes({ input: writeInput(DATASET), output });
    const good = readFileSync(output);
    const cases: [string, Buffer, RegExp][] = [
      ['truncated', good.subarray(0, good.length - 1), /size does not match/],
      ['too short', good.subarray(0, 1000), /too short/],
      ['foreign', Buffer.concat([Buffer.from('PK\x03\x04'), good.subarray(4)]), /bad magic/],
      ['extended', Buffer.concat([good, Buffer.alloc(RECORD_SIZE)]), /size does not match/],
    ];
    for (const [name, bytes, message] of cases) {
      const file = join(d, `${name}.bin`);
      writeFileSync(file, bytes);
      await expect(openCorpusFile(file), name).rejects.toThrow(message);
    }
  });
});

describe('openBreachCorpus', () => {
  it('uses the bundled default when nothing was imported, with rank-derived counts', async () => {
    const corpus = await openBreachCorpus({ dataDir: dir() });
    expect(corpus, 'built once per process').toBe(await defaultCorpus());
    const info = corpus.info();
    expect(info.source).toMatch(/^bundled @zxcvbn-ts\/language-common@\d+\.\d+\.\d+ passwords-common/);
    expect(info.entries).toBeGreaterThan(40_000);
    // The list's first entry ("123456") gets the highest count, the list length; "password" is second.
    expect(await corpus.count(sha1Hex('123456'))).toBe(info.entries);
    expect(await corpus.count(sha1Hex('password'))).toBe(info.entries - 1);
    expect(await corpus.count(sha1Hex('Tg-surely-not-common-9f8e7d'))).toBe(0);
    await corpus.close();
    // Shared by the process: closing it once does not break it for others.
    expect(await (await openBreachCorpus({ dataDir: dir() })).count(sha1Hex('password'))).toBe(
      info.entries - 1,
    );
  });

  it('prefers the imported corpus under DATA_DIR, and an explicit file over both', async () => {
    const dataDir = dir();
    await importHashes({ input: writeInput(DATASET), output: importedCorpusPath(dataDir) });
    expect(importedCorpusPath(dataDir)).toBe(join(dataDir, 'passwords', 'pwned-passwords.bin'));
    const imported = await openBreachCorpus({ dataDir });
    expect(imported.info()).toMatchObject({ source: 'input.txt', entries: ENTRIES.length });
    await imported.close();
    const other = join(dir(), 'other.bin');
    await importHashes({ input: writeInput(`${sha1Hex('x')}:1\n`), output: other, source: 'explicit' });
    const explicit = await openBreachCorpus({ dataDir, file: other });
    expect(explicit.info()).toMatchObject({ source: 'explicit', entries: 1 });
    await explicit.close();
    await expect(openBreachCorpus({ dataDir, file: join(dataDir, 'missing.bin') })).rejects.toThrow(/ENOENT/);
  });

  it('hashes the default list exactly as HIBP hashes passwords', async () => {
    const corpus = await defaultCorpus();
    const hash = createHash('sha1').update('password').digest('hex').toUpperCase();
    expect(await corpus.range(hash.slice(0, 5))).toContainEqual({
      suffix: hash.slice(5),
      count: corpus.info().entries - 1,
    });
  });
});
