import { describe, expect, it } from 'vitest';
import { blobKeyProblem, checkContentType, InvalidBlobKeyError, parseBlobKey } from './blob-key.js';

describe('blob keys', () => {
  it.each([
    ['shots/abc', { namespace: 'shots', id: 'abc' }],
    ['a/b', { namespace: 'a', id: 'b' }],
    ['Name_space-1.v2/ID.with-dots_and_Z9', { namespace: 'Name_space-1.v2', id: 'ID.with-dots_and_Z9' }],
    ['ns/.hidden', { namespace: 'ns', id: '.hidden' }],
    ['ns/...', { namespace: 'ns', id: '...' }],
    [`ns/${'x'.repeat(200)}`, { namespace: 'ns', id: 'x'.repeat(200) }],
  ])('accepts %j', (key, parts) => {
    expect(blobKeyProblem(key)).toBeNull();
    expect(parseBlobKey(key)).toEqual(parts);
  });

  it.each([
    ['', /empty/],
    ['/abs', /absolute/],
    ['/etc/passwd', /absolute/],
    ['a//b', /empty segments/],
    ['ns/', /empty segments/],
    ['/', /absolute/],
    ['../x', /'\.' or '\.\.'/],
    ['a/../b', /'\.' or '\.\.'/],
    ['a/./b', /'\.' or '\.\.'/],
    ['ns/..', /'\.' or '\.\.'/],
    ['..', /'\.' or '\.\.'/],
    ['x', /exactly two segments/],
    ['a/b/c', /exactly two segments/],
    ['ns/with space', /only A-Z/],
    ['ns/nul\u0000', /only A-Z/],
    ['ns\\..\\x/y', /only A-Z/],
    ['ns/ü', /only A-Z/],
    ['ns/a:b', /only A-Z/],
    ['ns/a\nb', /only A-Z/],
    [`ns/${'x'.repeat(201)}`, /at most 200/],
  ])('refuses %j', (key, reason) => {
    expect(blobKeyProblem(key)).toMatch(reason);
    expect(() => parseBlobKey(key)).toThrow(InvalidBlobKeyError);
    expect(() => parseBlobKey(key)).toThrow(reason);
  });

  it('refuses a key that is not a string', () => {
    expect(blobKeyProblem(42)).toBe('must be a string');
    expect(() => parseBlobKey(undefined as unknown as string)).toThrow(
      /invalid blob key undefined: must be a string/,
    );
  });

  it('names the key in the message with control characters escaped', () => {
    expect(() => parseBlobKey('ns/a\u0000b')).toThrow('invalid blob key "ns/a\\u0000b"');
  });
});

describe('blob content types', () => {
  it.each(['image/png', 'text/plain; charset=utf-8', 'application/vnd.api+json', 'x'.repeat(255)])(
    'accepts %j',
    (ct) => {
      expect(() => checkContentType(ct)).not.toThrow();
    },
  );

  it.each(['', ' image/png', 'text/plain\r\nX: y', 'a\u0000b', 'tëxt/plain', 'x'.repeat(256)])(
    'refuses %j',
    (ct) => {
      expect(() => checkContentType(ct)).toThrow(/invalid blob content type/);
    },
  );
});
