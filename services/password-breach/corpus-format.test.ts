import { describe, expect, it } from 'vitest';
import {
  CorpusFormatError,
  decodeHeader,
  encodeHeader,
  HEADER_SIZE,
  INDEX_ENTRIES,
  INDEX_SIZE,
  indexEntry,
  MAX_SOURCE_BYTES,
  PrefixIndex,
  prefixOfHash,
  RECORD_SIZE,
  recordCount,
  recordSuffix,
  writeRecord,
} from './corpus-format.js';

const HASH = '5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8';

describe('corpus file format', () => {
  it('round-trips the header', () => {
    const builtAt = new Date('2025-01-02T03:04:05.678Z');
    const buf = encodeHeader({ entries: 5_000_000_000, builtAt, source: 'pwnedpasswords.txt' });
    expect(buf.length).toBe(HEADER_SIZE);
    expect(buf.toString('latin1', 0, 8)).toBe('TGBREACH');
    expect(decodeHeader(buf)).toEqual({ entries: 5_000_000_000, builtAt, source: 'pwnedpasswords.txt' });
  });

  it('cuts a long source name at a character boundary', () => {
    const source = 'é'.repeat(200);
    const decoded = decodeHeader(encodeHeader({ entries: 0, builtAt: new Date(0), source }));
    expect(Buffer.byteLength(decoded.source)).toBeLessThanOrEqual(MAX_SOURCE_BYTES);
    expect(decoded.source).toBe('é'.repeat(Math.floor(MAX_SOURCE_BYTES / 2)));
  });

  it('refuses what is not a corpus header', () => {
    const good = encodeHeader({ entries: 1, builtAt: new Date(0), source: 'x' });
    const badMagic = Buffer.from(good);
    badMagic.write('NOTMAGIC', 0, 'latin1');
    const badVersion = Buffer.from(good);
    badVersion.writeUInt32BE(2, 8);
    const badRecord = Buffer.from(good);
    badRecord.writeUInt32BE(21, 12);
    expect(() => decodeHeader(badMagic)).toThrow(CorpusFormatError);
    expect(() => decodeHeader(badVersion)).toThrow(/version 2/);
    expect(() => decodeHeader(badRecord)).toThrow(/record size/);
    expect(() => decodeHeader(good.subarray(0, 100))).toThrow(/bad magic/);
  });

  it('indexes where each prefix starts, gaps and the tail included', () => {
    const index = new PrefixIndex();
    index.startPrefix(0, 0); // records 0, 1
    index.startPrefix(5, 2); // record 2; prefixes 1..4 empty
    index.startPrefix(5, 2); // same prefix again: no change
    index.startPrefix(0xfffff, 3); // records 3, 4
    const buf = index.encode(5);
    expect(buf.length).toBe(INDEX_SIZE);
    const at = (p: number) => indexEntry(buf, p);
    expect([at(0), at(1), at(4), at(5), at(6), at(0xffffe), at(0xfffff), at(INDEX_ENTRIES - 1)]).toEqual([
      0, 2, 2, 2, 3, 3, 3, 5,
    ]);
  });

  it('refuses prefixes that go back', () => {
    const index = new PrefixIndex();
    index.startPrefix(10, 0);
    expect(() => index.startPrefix(9, 1)).toThrow(CorpusFormatError);
  });

  it('stores record numbers beyond 32 bits exactly', () => {
    const index = new PrefixIndex();
    index.startPrefix(1, 2 ** 33 + 7);
    const buf = index.encode(2 ** 40 + 3);
    expect(indexEntry(buf, 1)).toBe(2 ** 33 + 7);
    expect(indexEntry(buf, INDEX_ENTRIES - 1)).toBe(2 ** 40 + 3);
  });

  it('packs a hash into 18 bytes plus a count and reads the 35-digit suffix back', () => {
    const hash = Buffer.from(HASH, 'hex');
    expect(prefixOfHash(hash)).toBe(0x5baa6);
    const out = Buffer.alloc(RECORD_SIZE * 2);
    writeRecord(out, RECORD_SIZE, hash, 0xffffffff);
    expect(recordSuffix(out, RECORD_SIZE)).toBe(HASH.slice(5));
    expect(recordCount(out, RECORD_SIZE)).toBe(0xffffffff);
    expect(out.subarray(0, RECORD_SIZE).every((b) => b === 0)).toBe(true);
  });
});
