import { describe, expect, it } from 'vitest';
import { type HopRequest, nextHop } from './redirects.js';

const post: HopRequest = {
  url: new URL('https://a.example/form?x=1'),
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    authorization: 'Bearer secret',
    cookie: 'sid=1',
    'x-custom': 'kept',
  },
  body: Buffer.from('{"a":1}'),
};

const follow = (current: HopRequest, status: number, location?: string) => {
  const next = nextHop(current, status, location);
  if (next.kind !== 'follow') throw new Error(`expected follow, got ${next.kind}`);
  return next.request;
};

describe('nextHop: Fetch-standard redirect rules', () => {
  it('resolves a relative Location against the current URL', () => {
    expect(follow(post, 307, '../other?y=2').url.href).toBe('https://a.example/other?y=2');
    expect(follow(post, 307, '//b.example/p').url.href).toBe('https://b.example/p');
    expect(follow(post, 307, '?z').url.href).toBe('https://a.example/form?z');
  });

  it.each([301, 302])('%d turns POST into GET without body or body headers', (status) => {
    const next = follow(post, status, '/done');
    expect(next.method).toBe('GET');
    expect(next.body).toBeUndefined();
    expect(next.headers['content-type']).toBeUndefined();
    expect(next.headers['x-custom']).toBe('kept');
  });

  it.each([301, 302])('%d keeps other methods and their body', (status) => {
    const put = { ...post, method: 'PUT' };
    expect(follow(put, status, '/p')).toMatchObject({ method: 'PUT', body: post.body });
  });

  it('303 turns everything but HEAD into GET', () => {
    expect(follow({ ...post, method: 'PUT' }, 303, '/p').method).toBe('GET');
    expect(follow({ ...post, method: 'DELETE' }, 303, '/p').method).toBe('GET');
    expect(follow({ ...post, method: 'HEAD', body: undefined }, 303, '/p').method).toBe('HEAD');
  });

  it.each([307, 308])('%d keeps method and body', (status) => {
    const next = follow(post, status, '/p');
    expect(next).toMatchObject({ method: 'POST', body: post.body });
    expect(next.headers['content-type']).toBe('application/json');
  });

  it('keeps credentials on the same origin and drops them on another', () => {
    expect(follow(post, 307, '/same').headers.authorization).toBe('Bearer secret');
    const other = follow(post, 307, 'https://b.example/');
    expect(other.headers.authorization).toBeUndefined();
    expect(other.headers.cookie).toBeUndefined();
    expect(other.headers['x-custom']).toBe('kept');
    // Another scheme or port is another origin too.
    expect(follow(post, 307, 'http://a.example/form').headers.authorization).toBeUndefined();
    expect(follow(post, 307, 'https://a.example:8443/').headers.cookie).toBeUndefined();
  });

  it('strips userinfo from the Location (never sent)', () => {
    const next = follow(post, 302, 'http://user:pw@b.example/');
    expect(next.url.href).toBe('http://b.example/');
  });

  it('refuses non-HTTP schemes', () => {
    for (const location of [
      'gopher://127.0.0.1:6379/_x',
      'file:///etc/passwd',
      'ftp://x/',
      'javascript:alert(1)',
    ]) {
      expect(nextHop(post, 302, location)).toEqual({ kind: 'not-http', location });
    }
  });

  it('treats a missing or unparseable Location, and non-redirect statuses, as final', () => {
    expect(nextHop(post, 302, undefined)).toEqual({ kind: 'final' });
    expect(nextHop(post, 302, '')).toEqual({ kind: 'final' });
    expect(nextHop(post, 302, 'http://[::1')).toEqual({ kind: 'final' });
    expect(nextHop(post, 300, '/x')).toEqual({ kind: 'final' });
    expect(nextHop(post, 304, '/x')).toEqual({ kind: 'final' });
    expect(nextHop(post, 200, '/x')).toEqual({ kind: 'final' });
  });
});
