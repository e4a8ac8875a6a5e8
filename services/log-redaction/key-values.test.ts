import { describe, expect, it } from 'vitest';
import { fieldKind, fieldValueFinding, isPlaceholder } from './fields.js';
import { keyValueDetector } from './key-values.js';
import type { Finding, ScanOptions } from './types.js';

const found = (text: string, options: ScanOptions = {}): string[][] => {
  const out: Finding[] = [];
  keyValueDetector.scan(text, out, options);
  return out.map((f) => [f.type, text.slice(f.start, f.end)]);
};

describe('fieldKind', () => {
  it('classifies field names by their ending, whatever the case and separators', () => {
    const cases: [string, ReturnType<typeof fieldKind>][] = [
      ['password', 'PASSWORD'],
      ['DB_PASSWORD', 'PASSWORD'],
      ['spring.datasource.password', 'PASSWORD'],
      ['passwd', 'PASSWORD'],
      ['pass', 'PASSWORD'],
      ['X-Api-Key', 'API_KEY'],
      ['apiKey', 'API_KEY'],
      ['client_secret', 'API_KEY'],
      ['refresh_token', 'API_KEY'],
      ['aws_secret_access_key', 'API_KEY'],
      ['Set-Cookie', 'API_KEY'],
      ['sessionId', 'API_KEY'],
      ['Authorization', 'AUTHORIZATION'],
      ['Proxy-Authorization', 'AUTHORIZATION'],
      ['ssn', 'SSN'],
      ['customer.socialSecurityNumber', 'SSN'],
    ];
    for (const [name, kind] of cases) expect(fieldKind(name), name).toBe(kind);
  });

  it('does not flag ordinary fields, the shell’s PWD or counters of tokens', () => {
    for (const name of [
      'user',
      'email',
      'key',
      'PWD',
      'OLDPWD',
      'total_tokens',
      'tokenType',
      'passwordExpiry',
    ]) {
      expect(fieldKind(name), name).toBeNull();
    }
  });
});

/** `${NAME}`, built so that no linter takes it for a mistyped template literal. */
const template = (name: string) => ['$', '{', name, '}'].join('');

describe('isPlaceholder / fieldValueFinding', () => {
  const value = (v: string) => isPlaceholder(v, 0, v.length);

  it('treats empty, masked, templated and already redacted values as hiding nothing', () => {
    for (const v of [
      '',
      '****',
      'xxxxxxxx',
      'null',
      'undefined',
      '<redacted>',
      template('DB_PASSWORD'),
      '{{secret}}',
    ]) {
      expect(value(v), v).toBe(true);
    }
    expect(value('[PASSWORD_REDACTED]')).toBe(true);
    expect(value('hunter2')).toBe(false);
    expect(value('password')).toBe(false);
  });

  it('redacts only the credentials of an Authorization value', () => {
    const v = 'Bearer abcdef0123456789';
    expect(fieldValueFinding('AUTHORIZATION', v, 0, v.length)).toMatchObject({ type: 'API_KEY', start: 7 });
    const basic = 'Basic dXNlcjpwYXNzd29yZA==';
    expect(fieldValueFinding('AUTHORIZATION', basic, 0, basic.length)).toMatchObject({
      type: 'PASSWORD',
      start: 6,
    });
    const bare = 'abcdef0123456789';
    expect(fieldValueFinding('AUTHORIZATION', bare, 0, bare.length)).toMatchObject({
      type: 'API_KEY',
      start: 0,
    });
    expect(fieldValueFinding('AUTHORIZATION', 'Bearer ***', 0, 10)).toBeNull();
  });

  it('accepts an SSN field value only when it is an issued SSN', () => {
    for (const v of ['078-05-1120', '078 05 1120', '078051120']) {
      expect(fieldValueFinding('SSN', v, 0, v.length)?.type, v).toBe('SSN');
    }
    for (const v of ['666-05-1120', '12345', 'n/a'])
      expect(fieldValueFinding('SSN', v, 0, v.length), v).toBeNull();
  });
});

describe('keyValueDetector', () => {
  it('finds values of secret fields in logfmt, query strings, JSON text and headers', () => {
    expect(found('level=info user=bob password=hunter2 ip=1.2.3.4')).toEqual([['PASSWORD', 'hunter2']]);
    expect(found('db.password = hunter2\npassword: s3cret')).toEqual([
      ['PASSWORD', 'hunter2'],
      ['PASSWORD', 's3cret'],
    ]);
    expect(found('GET /cb?access_token=abcDEF123456&state=xyz')).toEqual([['API_KEY', 'abcDEF123456']]);
    expect(found('{"user":"bob","password":"p\\"w d","apiKey" : "k-0123456789"}')).toEqual([
      ['PASSWORD', 'p\\"w d'],
      ['API_KEY', 'k-0123456789'],
    ]);
    expect(found('Authorization: Bearer abcdef0123456789\nX-Api-Key: 0123456789abcdef')).toEqual([
      ['API_KEY', 'abcdef0123456789'],
      ['API_KEY', '0123456789abcdef'],
    ]);
    expect(found("headers: { Authorization: 'Basic dXNlcjpwYXNz' }")).toEqual([['PASSWORD', 'dXNlcjpwYXNz']]);
    expect(found('msg="{\\"password\\":\\"s3cret!\\"}"')).toEqual([['PASSWORD', 's3cret!']]);
    expect(found('ssn=078-05-1120\nssn: 078051120')).toEqual([
      ['SSN', '078-05-1120'],
      ['SSN', '078051120'],
    ]);
  });

  it('leaves prose, URLs, comparisons, placeholders and empty values alone', () => {
    expect(found('Invalid password: please try again')).toEqual([]);
    expect(found('(using password: YES)')).toEqual([]);
    expect(found(`password=******** token= secret=${template('SECRET')} apiKey="<redacted>"`)).toEqual([]);
    expect(found('if (password == other) token=abc')).toEqual([]);
    expect(found('token://host/path')).toEqual([]);
    expect(found('PWD=/home/app OLDPWD=/')).toEqual([]);
  });

  it('treats the whole string as the value when JSON mode names its field', () => {
    expect(found('correct horse battery staple', { fieldName: 'password' })).toEqual([
      ['PASSWORD', 'correct horse battery staple'],
    ]);
    expect(found('Bearer abcdef0123456789', { fieldName: 'authorization' })).toEqual([
      ['API_KEY', 'abcdef0123456789'],
    ]);
    expect(found('hello', { fieldName: 'greeting' })).toEqual([]);
  });

  it('reports only the wanted types', () => {
    expect(found('password=hunter2 token=abcdef0123456789', { types: new Set(['API_KEY']) })).toEqual([
      ['API_KEY', 'abcdef0123456789'],
    ]);
  });
});
