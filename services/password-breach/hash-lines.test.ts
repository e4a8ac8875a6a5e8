import { describe, expect, it } from 'vitest';
import { HashLineError, HashLineParser } from './hash-lines.js';

const A = '000001E4C9B93F3F0682250B6CF8331B7EE68FD8';
const B = '5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8';
const C = 'FFFFF1E4C9B93F3F0682250B6CF8331B7EE68FD8';

/** Parses `text` fed in chunks of `size` bytes. */
function parse(text: string | Buffer, size = Number.POSITIVE_INFINITY): { hash: string; count: number }[] {
  const got: { hash: string; count: number }[] = [];
  const parser = new HashLineParser((hash, count) =>
    got.push({ hash: Buffer.from(hash).toString('hex').toUpperCase(), count }),
  );
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  const step = Math.min(size, Math.max(1, bytes.length));
  for (let at = 0; at < bytes.length; at += step) parser.push(bytes.subarray(at, at + step));
  parser.end();
  expect(parser.entries).toBe(got.length);
  return got;
}

function refusal(text: string): HashLineError {
  try {
    parse(text);
  } catch (err) {
    expect(err).toBeInstanceOf(HashLineError);
    return err as HashLineError;
  }
  throw new Error('expected the input to be refused');
}

describe('HashLineParser', () => {
  const expected = [
    { hash: A, count: 1 },
    { hash: B, count: 9_659_365 },
    { hash: C, count: 4_294_967_295 },
  ];

  it('reads SHA1:COUNT lines, CRLF or LF, either case, the last line with or without a line break', () => {
    const crlf = `${A}:1\r\n${B}:9659365\r\n${C}:4294967295\r\n`;
    expect(parse(crlf)).toEqual(expected);
    expect(parse(crlf.replaceAll('\r\n', '\n'))).toEqual(expected);
    expect(parse(crlf.trimEnd())).toEqual(expected);
    expect(parse(`${A.toLowerCase()}:1\n${B.toLowerCase()}:9659365\n${C}:4294967295`)).toEqual(expected);
  });

  it('gives the same result however the input is split into chunks', () => {
    const text = `\uFEFF${A}:1\r\n\r\n${B}:9659365\n\n${C}:4294967295`;
    const bytes = Buffer.from(text, 'utf8');
    for (const size of [1, 2, 3, 7, 41, 42, 43, 44, 52, 53, 64, 1000]) {
      expect(parse(bytes, size), `chunks of ${size}`).toEqual(expected);
    }
  });

  it('skips blank lines and a leading byte order mark, counting every line', () => {
    const parser = new HashLineParser(() => {});
    parser.push(Buffer.from(`\uFEFF\r\n${A}:1\n\n${B}:2\n`, 'utf8'));
    parser.end();
    expect([parser.lines, parser.entries]).toEqual([4, 2]);
  });

  it('accepts a zero count and refuses counts beyond 32 bits', () => {
    expect(parse(`${A}:0\n`)).toEqual([{ hash: A, count: 0 }]);
    expect(refusal(`${A}:4294967296\n`).message).toBe(
      'line 1: the count must be an integer from 0 to 4294967295',
    );
    expect(refusal(`${A}:00000000001\n`).message).toMatch(/^line 1: the count/);
    expect(refusal(`${A}:\n`).message).toMatch(/^line 1: the count/);
    expect(refusal(`${A}:-1\n`).message).toMatch(/^line 1: the count/);
  });

  it('refuses malformed lines with their line number', () => {
    const bad: [string, RegExp][] = [
      [`${A}:1\n${B.slice(0, 32)}:5\n`, /^line 2: expected SHA1:COUNT/], // an NTLM-length hash
      [`${A}:1\n${B}5:5\n`, /^line 2: expected SHA1:COUNT/],
      [`${A}:1\n${B} 5\n`, /^line 2: expected SHA1:COUNT/],
      [`${A}:1\n${B.replace('5', 'G')}:5\n`, /^line 2: expected SHA1:COUNT/],
      [`${A}:1\n${B}:5 \n`, /^line 2: expected the line to end after the count/],
      [`${A}:1\n${B}:5\r\r\n`, /^line 2: expected the line to end after the count/],
      [`${A}:1\n\n${B}:5:6\n`, /^line 3: expected the line to end/],
      [`${A}:1\n${'x'.repeat(100)}`, /^line 2: line too long/],
      ['password123\n', /^line 1: expected SHA1:COUNT/],
    ];
    for (const [text, message] of bad) expect(refusal(text).message, JSON.stringify(text)).toMatch(message);
  });

  it('never quotes the offending line (it could be a plain password)', () => {
    const err = refusal(`${A}:1\nhunter2-secret\n`);
    expect(err.message).not.toContain('hunter2');
    expect(err.line).toBe(2);
  });

  it('refuses input that is not strictly ascending', () => {
    expect(refusal(`${B}:1\n${A}:1\n`).message).toBe(
      'line 2: hashes are not in ascending order: import the dataset ordered by hash, or sort it first',
    );
    expect(refusal(`${A}:1\n${B}:2\n${B.toLowerCase()}:3\n`).message).toBe(
      'line 3: the same hash appears twice',
    );
    // Ordered by value, not by text: lower-case "a" follows "9".
    expect(parse(`${'9'.repeat(40)}:1\n${'a'.repeat(40)}:1\n`)).toHaveLength(2);
  });

  it('hands out a reused buffer: the sink copies what it keeps', () => {
    const seen: Uint8Array[] = [];
    const parser = new HashLineParser((hash) => seen.push(hash));
    parser.push(Buffer.from(`${A}:1\n${B}:1\n${C}:1\n`));
    expect(seen[0]).toBe(seen[2]);
  });
});
