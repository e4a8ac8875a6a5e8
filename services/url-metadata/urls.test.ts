import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { documentBase, parseTargetUrl, resolveHttpUrl } from './urls.js';

describe('parseTargetUrl', () => {
  it('accepts absolute http and https URLs, international host names included', () => {
    expect(parseTargetUrl('https://example.com').href).toBe('https://example.com/');
    expect(parseTargetUrl(' HTTP://Example.COM:8080/a b?q=1 ').href).toBe(
      'http://example.com:8080/a%20b?q=1',
    );
    expect(parseTargetUrl('https://bücher.example/').hostname).toBe('xn--bcher-kva.example');
  });

  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,hi',
    'gopher://example.com/',
    'example.com',
    '//example.com/',
    '/relative',
    'http://',
    'http://exa mple.com/',
    'http://[::1/',
    '',
  ])('refuses %j with 400 "url: must be a valid HTTP or HTTPS URL"', (raw) => {
    let thrown: unknown;
    try {
      parseTargetUrl(raw);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'url: must be a valid HTTP or HTTPS URL',
    });
  });
});

describe('resolveHttpUrl and documentBase', () => {
  it('resolves relative references against the base', () => {
    expect(resolveHttpUrl('img/a.png', 'https://x.example/blog/post')).toBe(
      'https://x.example/blog/img/a.png',
    );
    expect(resolveHttpUrl('/a.png', 'https://x.example/blog/post')).toBe('https://x.example/a.png');
    expect(resolveHttpUrl('//cdn.example/a.png', 'https://x.example/')).toBe('https://cdn.example/a.png');
    expect(resolveHttpUrl(' http://y.example/i ', 'https://x.example/')).toBe('http://y.example/i');
  });

  it('gives null for non-http results and nothing', () => {
    expect(resolveHttpUrl('data:image/png;base64,AAAA', 'https://x.example/')).toBeNull();
    expect(resolveHttpUrl('javascript:void(0)', 'https://x.example/')).toBeNull();
    expect(resolveHttpUrl('http://[bad', 'https://x.example/')).toBeNull();
    expect(resolveHttpUrl('   ', 'https://x.example/')).toBeNull();
    expect(resolveHttpUrl(null, 'https://x.example/')).toBeNull();
  });

  it('uses <base href> resolved against the page, unless it is unusable', () => {
    expect(documentBase('https://x.example/a/b', '/static/')).toBe('https://x.example/static/');
    expect(documentBase('https://x.example/a/b', 'https://cdn.example/')).toBe('https://cdn.example/');
    expect(documentBase('https://x.example/a/b', 'javascript:x')).toBe('https://x.example/a/b');
    expect(documentBase('https://x.example/a/b', null)).toBe('https://x.example/a/b');
  });
});
