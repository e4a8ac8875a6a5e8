import { describe, expect, it } from 'vitest';
import { privateKeyDetector } from './private-key.js';
import type { Detector, Finding } from './types.js';
import { urlCredentialsDetector } from './url-credentials.js';

const found = (d: Detector, text: string): string[] => {
  const out: Finding[] = [];
  d.scan(text, out, {});
  return out.map((f) => text.slice(f.start, f.end));
};

describe('urlCredentialsDetector', () => {
  it('finds the password of URL user information, not the user name', () => {
    expect(found(urlCredentialsDetector, 'DATABASE_URL=postgres://app:s3cr3t!@db:5432/app')).toEqual([
      's3cr3t!',
    ]);
    expect(found(urlCredentialsDetector, 'jdbc:mysql://root:p%40ss:word@10.0.0.5/db')).toEqual([
      'p%40ss:word',
    ]);
    expect(found(urlCredentialsDetector, 'redis://:r3d1s@cache:6379 amqp://u:p@mq')).toEqual(['r3d1s', 'p']);
  });

  it('leaves URLs without a password alone', () => {
    expect(found(urlCredentialsDetector, 'https://example.com:8443/a https://u@h/ http://h/a:b@c')).toEqual(
      [],
    );
    expect(found(urlCredentialsDetector, 'fastcgi://unix:/run/php.sock: x')).toEqual([]);
  });
});

const KEY_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nq1w2e3r4t5y6u7i8o9p0==';

describe('privateKeyDetector', () => {
  it('finds PEM private keys from BEGIN to the matching END', () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${KEY_BODY}\n-----END RSA PRIVATE KEY-----`;
    expect(found(privateKeyDetector, `key:\n${pem}\nnext line`)).toEqual([pem]);
    const escaped = `-----BEGIN PRIVATE KEY-----\\n${KEY_BODY.replace('\n', '\\n')}\\n-----END PRIVATE KEY-----`;
    expect(found(privateKeyDetector, `{"key":"${escaped}"}`)).toEqual([escaped]);
  });

  it('finds a key cut short through its body', () => {
    const cut = `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}`;
    expect(found(privateKeyDetector, `${cut}\n... (truncated)`)).toEqual([cut]);
  });

  it('leaves certificates and public keys alone', () => {
    const cert = `-----BEGIN CERTIFICATE-----\n${KEY_BODY}\n-----END CERTIFICATE-----`;
    const pub = `-----BEGIN PUBLIC KEY-----\n${KEY_BODY}\n-----END PUBLIC KEY-----`;
    expect(found(privateKeyDetector, `${cert}\n${pub}`)).toEqual([]);
  });
});
