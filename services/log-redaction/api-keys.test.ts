import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { entropyDetector, knownKeyDetector, looksSecret, shannonEntropy } from './api-keys.js';
import type { Detector, Finding } from './types.js';

const found = (d: Detector, text: string): string[][] => {
  const out: Finding[] = [];
  d.scan(text, out, {});
  return out.map((f) => [text.slice(f.start, f.end), f.confidence]);
};

const KNOWN = [
  'tg_7kQ2mX9pL4vR8nW3_Hq5Tz1Yb6Uc0Vd4Xe8Wf2Ag7Sh3Jk9Lm5Np1Qr6St0U',
  'AKIAIOSFODNN7EXAMPLE',
  'ASIAY34FZKBOKMUTVV7A',
  'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
  'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab',
  'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
  'rk_test_51HqLyjWDarjtT1zdp7dcXyZ',
  'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  'xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy',
  'xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef',
  'AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI',
  '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',
  'sk-proj-Ab3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xYz2C4e6G8',
  'glpat-xYz12AbC34dEf56GhI78jK',
  'npm_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY0z2C',
  'SK0123456789abcdef0123456789abcdef',
];

describe('knownKeyDetector', () => {
  it.each(KNOWN)('finds %s as a whole token (HIGH)', (key) => {
    expect(found(knownKeyDetector, `key: ${key}, next`)).toEqual([[key, 'HIGH']]);
  });

  it('finds dotted formats: Google OAuth access tokens and SendGrid keys', () => {
    const oauth = 'ya29.a0AfH6SMBx9kQ2mL7nR4tW8yB1cD6fH0jK5sA';
    const sendgrid = `SG.${'a'.repeat(22)}.${'B'.repeat(43)}`;
    expect(found(knownKeyDetector, `${oauth} ${sendgrid}`)).toEqual([
      [oauth, 'HIGH'],
      [sendgrid, 'HIGH'],
    ]);
  });

  it('finds the secret path of Slack webhook URLs', () => {
    const url = 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX';
    expect(found(knownKeyDetector, url)).toEqual([['T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX', 'HIGH']]);
  });

  it('matches whole tokens only, with the format’s length and alphabet', () => {
    expect(found(knownKeyDetector, 'my_sk_live_4eC39HqLyjWDarjtT1zdp7dc')).toEqual([]);
    expect(found(knownKeyDetector, 'AKIAIOSFODNN7EXAMPLE1')).toEqual([]);
    expect(found(knownKeyDetector, 'akiaiosfodnn7example')).toEqual([]);
    expect(found(knownKeyDetector, 'ghp_short')).toEqual([]);
    expect(found(knownKeyDetector, 'sk-dashboard-deployment-config')).toEqual([]);
    expect(found(knownKeyDetector, 'tg_7kQ2mX9p')).toEqual([]);
    expect(
      found(knownKeyDetector, 'tg_7kQ2mX9pL4vR8nW3Hq5Tz1Yb6Uc0Vd4Xe8Wf2Ag7Sh3Jk9Lm5Np1Qr6St0U_'),
    ).toEqual([]);
  });
});

describe('entropyDetector', () => {
  it('finds random-looking tokens of 32 characters or more (MEDIUM), with base64 padding', () => {
    expect(found(entropyDetector, 'session Zk3pQ9vX2mL7nR4tW8yB1cD6fH0jK5sA ok')).toEqual([
      ['Zk3pQ9vX2mL7nR4tW8yB1cD6fH0jK5sA', 'MEDIUM'],
    ]);
    expect(found(entropyDetector, 'secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLE7Q==;')).toEqual([
      ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLE7Q==', 'MEDIUM'],
    ]);
  });

  it('finds at least 98% of random base64 tokens of 32 characters', () => {
    let hits = 0;
    for (let i = 0; i < 500; i++) if (looksSecret(randomBytes(24).toString('base64url'))) hits++;
    expect(hits).toBeGreaterThanOrEqual(490);
  });

  it('leaves hashes, UUIDs, identifiers, paths and integrity hashes alone', () => {
    const notSecrets = [
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
      '550e8400-e29b-41d4-a716-446655440000',
      'DispatcherServletAutoConfiguration2',
      'MaxUploadSizeExceededException404Handler',
      'org_springframework_boot_autoconfigure_web2',
      '/app/node_modules/axios/dist/node/axios2Client',
      'sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR9Ei8uOvHBQZ+aA==',
      'Zk3pQ9vX2mL7nR4tW8yB1cD6fH0jK5s',
    ];
    for (const s of notSecrets) expect(found(entropyDetector, ` ${s} `), s).toEqual([]);
  });

  it('measures Shannon entropy in bits per character', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abab')).toBe(1);
    expect(shannonEntropy('0123456789abcdef')).toBe(4);
  });
});
