import { describe, expect, it } from 'vitest';
import { jwtDetector } from './jwt.js';
import type { Finding } from './types.js';

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const jwt = (header: unknown, payload: unknown, signature = 'c2lnbmF0dXJl') =>
  `${b64(header)}.${b64(payload)}.${signature}`;

const found = (text: string): string[] => {
  const out: Finding[] = [];
  jwtDetector.scan(text, out, {});
  return out.map((f) => text.slice(f.start, f.end));
};

describe('jwtDetector', () => {
  it('finds tokens whose header and payload decode to JSON objects', () => {
    const token = jwt({ alg: 'RS256', typ: 'JWT', kid: 'k1' }, { sub: 'u1', exp: 1 });
    expect(found(`Authorization: Bearer ${token}`)).toEqual([token]);
    expect(found(`"id_token":"${token}",`)).toEqual([token]);
    expect(found(`${token}.`)).toEqual([token]);
  });

  it('finds unsigned tokens (alg none, empty signature)', () => {
    const token = `${b64({ alg: 'none' })}.${b64({ sub: 'x' })}.`;
    expect(found(`t=${token} next`)).toEqual([token]);
  });

  it('refuses look-alikes: no alg, non-JSON parts, two segments, eyJ inside a token', () => {
    expect(found(jwt({ typ: 'JWT' }, { sub: 'u1' }))).toEqual([]);
    expect(found(`${b64({ alg: 'HS256' })}.${b64('not json')}.sig`)).toEqual([]);
    expect(found(`${b64({ alg: 'HS256' })}.${b64([1, 2])}.sig`)).toEqual([]);
    expect(found(`${b64({ alg: 'HS256' })}.${b64({ a: 1 })}`)).toEqual([]);
    expect(found(`x${jwt({ alg: 'HS256' }, { a: 1 })}`)).toEqual([]);
    expect(found('eyJ.eyJ.eyJ eyJhbGciOi.eyJzdWIi.abc')).toEqual([]);
  });

  it('finds consecutive tokens', () => {
    const a = jwt({ alg: 'HS256' }, { n: 1 });
    const b = jwt({ alg: 'ES256' }, { n: 2 });
    expect(found(`${a} ${b}`)).toEqual([a, b]);
  });
});
