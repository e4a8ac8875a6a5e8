import { describe, expect, it } from 'vitest';
import { emailDetector } from './email.js';
import type { Finding } from './types.js';

const emails = (text: string): string[] => {
  const out: Finding[] = [];
  emailDetector.scan(text, out, {});
  return out.map((f) => text.slice(f.start, f.end));
};

describe('emailDetector', () => {
  it('finds addresses in prose, fields, brackets and quotes', () => {
    expect(emails('login ok for alice@example.com.')).toEqual(['alice@example.com']);
    expect(emails('user=bob.smith+logs@mail.example.co.uk,ok')).toEqual([
      'bob.smith+logs@mail.example.co.uk',
    ]);
    expect(emails('From: "Jane" <jane_doe-1@sub.example.org>')).toEqual(['jane_doe-1@sub.example.org']);
    expect(emails('{"email":"x.y@example.io"}')).toEqual(['x.y@example.io']);
    expect(emails('mailto:ops@example.net')).toEqual(['ops@example.net']);
    expect(emails('two: a@b.cd and c@d.ef')).toEqual(['a@b.cd', 'c@d.ef']);
  });

  it('finds URL-encoded addresses in query strings', () => {
    expect(emails('GET /reset?email=bob.smith%40example.org&x=1')).toEqual(['bob.smith%40example.org']);
  });

  it('trims punctuation around the address', () => {
    expect(emails('...alice@example.com...')).toEqual(['alice@example.com']);
    expect(emails('--carol@example.com-')).toEqual(['carol@example.com']);
  });

  it('leaves identity hashes, package versions, scopes and URL user information alone', () => {
    expect(emails('com.example.Foo@1a2b3c4d')).toEqual([]);
    expect(emails('installed lodash@4.17.21 and @types/node@20.11.5')).toEqual([]);
    expect(emails('git clone https://deploy@git.example.com/repo.git')).toEqual([]);
    expect(emails('postgres://app:s3cr!t@db.internal:5432/app')).toEqual([]);
    expect(emails('user@localhost')).toEqual([]);
    expect(emails('a@b.c1')).toEqual([]);
    expect(emails('a..b@example.com')).toEqual([]);
    expect(emails('@example.com')).toEqual([]);
  });

  it('refuses local parts over 64 characters and labels over 63', () => {
    expect(emails(`${'a'.repeat(65)}@example.com`)).toEqual([]);
    expect(emails(`${'a'.repeat(64)}@example.com`)).toEqual([`${'a'.repeat(64)}@example.com`]);
    expect(emails(`a@${'b'.repeat(64)}.com`)).toEqual([]);
  });
});
