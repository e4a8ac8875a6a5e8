import { describe, expect, it } from 'vitest';
import { DomainList } from './domain-list.js';

const A = { name: 'list-a', version: '1.0.0', date: '2024-01-02' };
const B = { name: 'list-b', version: '2.0.0', date: '2023-06-30' };

const list = () =>
  DomainList.build(
    [
      {
        ...A,
        domains: ['Mailinator.com', 'only-a.test ', 'parent.test', 'edu.pl', 'bad_entry.com', 'gmaıl.net'],
      },
      { ...B, domains: ['mailinator.com', 'zone.test.'], wildcards: ['wild.test'] },
    ],
    new Set(['edu.pl']),
  );

describe('DomainList', () => {
  it('normalizes and merges: case, spaces, a final dot, punycode; skips what is not a domain', () => {
    const l = list();
    expect(l.size).toBe(7);
    expect(l.skipped).toEqual({ 'list-a': 1, 'list-b': 0 });
    expect(l.lookup('only-a.test')?.kind).toBe('EXACT');
    expect(l.lookup('zone.test')?.kind).toBe('EXACT');
    expect(l.lookup('xn--gmal-nza.net')?.entry).toBe('xn--gmal-nza.net');
  });

  it('records every list carrying an entry, and the earliest release date as addedDate', () => {
    expect(list().lookup('mailinator.com')).toEqual({
      kind: 'EXACT',
      entry: 'mailinator.com',
      lists: [A, B],
      addedDate: '2023-06-30',
    });
    expect(list().lookup('only-a.test')).toMatchObject({ lists: [A], addedDate: '2024-01-02' });
  });

  it('a wildcard entry covers its sub-domains; an ordinary entry makes them PARENT matches', () => {
    const l = list();
    expect(l.lookup('a.b.wild.test')).toMatchObject({ kind: 'WILDCARD', entry: 'wild.test', lists: [B] });
    expect(l.lookup('wild.test')).toMatchObject({ kind: 'EXACT' });
    expect(l.lookup('x.parent.test')).toMatchObject({ kind: 'PARENT', entry: 'parent.test' });
    expect(l.lookup('x.mailinator.com')).toMatchObject({ kind: 'PARENT', entry: 'mailinator.com' });
  });

  it('registry suffixes match only exactly', () => {
    const l = list();
    expect(l.lookup('edu.pl')?.kind).toBe('EXACT');
    expect(l.lookup('uw.edu.pl')).toBeNull();
  });

  it('unlisted domains and look-alikes do not match', () => {
    const l = list();
    expect(l.lookup('gmail.com')).toBeNull();
    expect(l.lookup('notmailinator.com')).toBeNull();
    expect(l.lookup('mailinator.com.evil.test')).toBeNull();
  });
});
