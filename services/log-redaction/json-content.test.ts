import { describe, expect, it } from 'vitest';
import { scanJson } from './json-content.js';
import type { DetectionType } from './types.js';

const found = (json: string, types?: DetectionType[]) =>
  (scanJson(json, types ? { types: new Set(types) } : {}) ?? []).map((f) => [
    f.type,
    json.slice(f.start, f.end),
    f.quoted,
  ]);

describe('scanJson', () => {
  it('returns null for text that is not JSON or JSON Lines', () => {
    expect(scanJson('not json')).toBeNull();
    expect(scanJson('{"a":1} {"b":2}')).toBeNull();
    expect(scanJson('{"a":1}\n{"b":2}')).toEqual([]);
  });

  it('points at the characters of the string literal in the source', () => {
    const json = '{"msg": "from 10.0.0.1 by bob@example.com"}';
    expect(found(json)).toEqual([
      ['IP_ADDRESS', '10.0.0.1', false],
      ['EMAIL', 'bob@example.com', false],
    ]);
  });

  it('maps offsets through escapes, including \\u escapes and surrogate pairs', () => {
    const json = '{"m":"\\u00e9\\n\\"x\\" \\ud83d\\ude00 bob@example.com\\t10.0.0.1"}';
    const out = found(json);
    expect(out).toEqual([
      ['EMAIL', 'bob@example.com', false],
      ['IP_ADDRESS', '10.0.0.1', false],
    ]);
    // A value containing escapes is reported as its source text.
    expect(found('{"password":"p\\"ss\\u0021"}')).toEqual([['PASSWORD', 'p\\"ss\\u0021', false]]);
  });

  it('uses the field name: secret fields, array elements of a field, version fields', () => {
    const json =
      '{"password":"hunter2","tokens":{"refresh_token":"r-0123456789"},"apiKeys":["a"],' +
      '"appVersion":"10.4.0.2","client":"10.4.0.2","auth":{"authorization":"Bearer abcdef0123456789"}}';
    expect(found(json)).toEqual([
      ['PASSWORD', 'hunter2', false],
      ['API_KEY', 'r-0123456789', false],
      ['IP_ADDRESS', '10.4.0.2', false],
      ['API_KEY', 'abcdef0123456789', false],
    ]);
    expect(found('{"tokens":["abcdef0123456789"]}')).toEqual([]);
    expect(found('{"secret":["abcdef0123456789"]}')).toEqual([['API_KEY', 'abcdef0123456789', false]]);
  });

  it('never redacts field names', () => {
    expect(found('{"bob@example.com": 1, "10.0.0.1": {"password": "x"}}')).toEqual([]);
  });

  it('redacts integer literals that are card numbers, or values of secret fields, as quoted tokens', () => {
    expect(found('{"card":4111111111111111,"pin":1234,"ssn":78051120,"id":1709630068250}')).toEqual([
      ['CREDIT_CARD', '4111111111111111', true],
    ]);
    expect(found('{"password":123456,"ssn":123456789}')).toEqual([
      ['PASSWORD', '123456', true],
      ['SSN', '123456789', true],
    ]);
    expect(found('[4111111111111111.5, -4111111111111111, 4111111111111111e2]')).toEqual([]);
  });

  it('keeps findings inside their own string', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC';
    const json = `["${pem}", "ABCDEF next"]`;
    expect(found(json)).toEqual([['PRIVATE_KEY', pem, false]]);
  });

  it('scans JSON Lines and honours the wanted types', () => {
    const lines = '{"e":"a@b.io"}\n{"ip":"10.0.0.1","card":4111111111111111}\n';
    expect(found(lines).map((f) => f[0])).toEqual(['EMAIL', 'IP_ADDRESS', 'CREDIT_CARD']);
    expect(found(lines, ['CREDIT_CARD']).map((f) => f[0])).toEqual(['CREDIT_CARD']);
  });

  it('handles deep nesting without recursion', () => {
    const deep = `${'['.repeat(100_000)}"a@b.io"${']'.repeat(100_000)}`;
    expect(found(deep)).toEqual([['EMAIL', 'a@b.io', false]]);
  });
});
