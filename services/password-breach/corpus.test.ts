import { describe, expect, it } from 'vitest';
import { memoryCorpus } from './corpus.js';
import { sha1Hex } from './hashes.js';

const entries = [
  { sha1: sha1Hex('password'), count: 9_659_365 },
  { sha1: '5BAA6000000000000000000000000000000000FF', count: 3 },
  { sha1: '5baa6fffffffffffffffffffffffffffffffffff', count: 0 },
  { sha1: '00000000A8DAE4228F821FB418F59826079BF368', count: 2 },
  { sha1: 'FFFFFFFF0B9D2C1B2B7B1E1D5F1C0D4B1D7E9A11', count: 4_294_967_295 },
];
const corpus = memoryCorpus(entries, { source: 'test', builtAt: new Date('2025-01-01T00:00:00Z') });

describe('memoryCorpus', () => {
  it('returns a prefix’s entries sorted by suffix, for either case of prefix', async () => {
    const expected = [
      { suffix: '000000000000000000000000000000000FF', count: 3 },
      { suffix: '1E4C9B93F3F0682250B6CF8331B7EE68FD8', count: 9_659_365 },
      { suffix: 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF', count: 0 },
    ];
    expect(await corpus.range('5BAA6')).toEqual(expected);
    expect(await corpus.range('5baa6')).toEqual(expected);
  });

  it('serves the first and the last prefix, and nothing for an empty one', async () => {
    expect(await corpus.range('00000')).toEqual([
      { suffix: '000A8DAE4228F821FB418F59826079BF368', count: 2 },
    ]);
    expect(await corpus.range('FFFFF')).toEqual([
      { suffix: 'FFF0B9D2C1B2B7B1E1D5F1C0D4B1D7E9A11', count: 4_294_967_295 },
    ]);
    expect(await corpus.range('5BAA5')).toEqual([]);
    expect(await corpus.range('5BAA7')).toEqual([]);
  });

  it('counts a full hash in either case, 0 when absent', async () => {
    expect(await corpus.count(sha1Hex('password'))).toBe(9_659_365);
    expect(await corpus.count(sha1Hex('password').toLowerCase())).toBe(9_659_365);
    expect(await corpus.count('5BAA6000000000000000000000000000000000FF')).toBe(3);
    expect(await corpus.count('5BAA6000000000000000000000000000000000FE')).toBe(0);
    expect(await corpus.count(sha1Hex('Password'))).toBe(0);
    for (const e of entries) expect(await corpus.count(e.sha1)).toBe(e.count);
  });

  it('describes itself', () => {
    expect(corpus.info()).toEqual({ source: 'test', entries: 5, builtAt: '2025-01-01T00:00:00.000Z' });
  });

  it('refuses malformed prefixes, hashes and counts', async () => {
    await expect(corpus.range('5BAA')).rejects.toThrow(RangeError);
    await expect(corpus.count('5BAA6')).rejects.toThrow(RangeError);
    expect(() => memoryCorpus([{ sha1: 'xyz', count: 1 }], { source: 't' })).toThrow(RangeError);
    expect(() => memoryCorpus([{ sha1: sha1Hex('a'), count: -1 }], { source: 't' })).toThrow(RangeError);
    expect(() => memoryCorpus([{ sha1: sha1Hex('a'), count: 2 ** 32 }], { source: 't' })).toThrow(RangeError);
  });

  it('keeps one entry per hash, and handles an empty corpus', async () => {
    const twice = memoryCorpus(
      [
        { sha1: sha1Hex('a'), count: 1 },
        { sha1: sha1Hex('a').toLowerCase(), count: 1 },
      ],
      { source: 't' },
    );
    expect(twice.info().entries).toBe(1);
    const empty = memoryCorpus([], { source: 'none' });
    expect(await empty.range('00000')).toEqual([]);
    expect(await empty.count(sha1Hex('a'))).toBe(0);
  });
});
