import { describe, expect, it } from 'vitest';
import type { Listing } from './domain-list.js';
import { decide, type Findings } from './verdict.js';

const LISTS = [{ name: 'disposable-email-domains', version: '1.0.62', date: '2024-12-07' }];
const listing = (kind: Listing['kind'], entry = 'mailinator.com'): Listing => ({
  kind,
  entry,
  lists: LISTS,
  addedDate: '2024-12-07',
});
const base: Findings = {
  domain: 'example.com',
  override: null,
  provider: null,
  listing: null,
  mailHost: 'MAIL_HOST',
  randomDomain: false,
  randomLocalPart: false,
};
const f = (over: Partial<Findings>): Findings => ({ ...base, ...over });

describe('decide', () => {
  it('a listed domain: disposable, HIGH, score 0.95, staticList layer', () => {
    const v = decide(f({ domain: 'mailinator.com', listing: listing('EXACT'), mailHost: null }));
    expect(v).toEqual({
      disposable: true,
      confidence: 'HIGH',
      score: 0.95,
      reasons: ['STATIC_LIST'],
      reason: 'mailinator.com is on the disposable-domain lists (disposable-email-domains 1.0.62)',
      detectionLayers: { staticList: true, dnsCheck: false, patternMatch: false },
    });
  });

  it('under a wildcard entry: a listing too, worded as such', () => {
    const v = decide(
      f({ domain: 'x.33mail.com', listing: listing('WILDCARD', '33mail.com'), mailHost: null }),
    );
    expect(v.reasons).toEqual(['STATIC_LIST']);
    expect(v.reason).toBe(
      'every sub-domain of 33mail.com is on the disposable-domain lists (disposable-email-domains 1.0.62)',
    );
  });

  it('a sub-domain of a listed domain: pattern layer, MEDIUM; with no mail host as well: HIGH', () => {
    const sub = decide(f({ domain: 'a.mailinator.com', listing: listing('PARENT') }));
    expect(sub).toMatchObject({ disposable: true, confidence: 'MEDIUM', score: 0.8 });
    expect(sub.detectionLayers).toEqual({ staticList: false, dnsCheck: false, patternMatch: true });
    expect(sub.reason).toBe('a.mailinator.com is a sub-domain of mailinator.com, a listed disposable domain');
    const both = decide(
      f({ domain: 'a.mailinator.com', listing: listing('PARENT'), mailHost: 'NO_MAIL_HOST' }),
    );
    expect(both).toMatchObject({ disposable: true, confidence: 'HIGH', score: 0.93 });
    expect(both.reasons).toEqual(['SUBDOMAIN_OF_LISTED', 'NO_MAIL_HOST']);
  });

  it.each([
    ['NO_MAIL_HOST', 0.65, 'example.com has no mail host (no MX, A or AAAA record)'],
    ['DOMAIN_NOT_FOUND', 0.7, 'example.com does not exist in DNS'],
    ['NULL_MX', 0.7, 'example.com declares that it accepts no mail (null MX)'],
  ] as const)('DNS %s alone: disposable (suspicious), score %s', (status, score, reason) => {
    const v = decide(f({ mailHost: status }));
    expect(v).toMatchObject({ disposable: true, score, reason, reasons: [status] });
    expect(v.confidence).toBe(score >= 0.7 ? 'MEDIUM' : 'LOW');
    expect(v.detectionLayers).toEqual({ staticList: false, dnsCheck: true, patternMatch: false });
  });

  it('a clean domain with a mail host: not disposable, HIGH, score 0', () => {
    const v = decide(f({}));
    expect(v).toMatchObject({ disposable: false, confidence: 'HIGH', score: 0, reasons: [] });
    expect(v.reason).toBe('example.com has a mail host and is on no disposable-domain list');
  });

  it('DNS unavailable: not disposable but only MEDIUM, and said so', () => {
    const v = decide(f({ mailHost: 'UNAVAILABLE' }));
    expect(v).toMatchObject({
      disposable: false,
      confidence: 'MEDIUM',
      score: 0,
      reasons: ['DNS_UNAVAILABLE'],
    });
    expect(v.reason).toMatch(/could not be checked/);
    expect(v.detectionLayers.dnsCheck).toBe(false);
  });

  it('a random local part alone is a weak signal: not disposable, MEDIUM', () => {
    const v = decide(f({ randomLocalPart: true }));
    expect(v).toMatchObject({ disposable: false, confidence: 'MEDIUM', score: 0.25 });
    expect(v.detectionLayers.patternMatch).toBe(true);
  });

  it('a random domain alone: not disposable, LOW; with a random local part: disposable, LOW', () => {
    expect(decide(f({ randomDomain: true }))).toMatchObject({
      disposable: false,
      confidence: 'LOW',
      score: 0.35,
    });
    const both = decide(f({ randomDomain: true, randomLocalPart: true }));
    expect(both).toMatchObject({ disposable: true, confidence: 'LOW', score: 0.51 });
    expect(both.reasons).toEqual(['RANDOM_DOMAIN', 'RANDOM_LOCAL_PART']);
    expect(both.reason).toBe(
      'the domain name looks randomly generated; the local part looks randomly generated',
    );
  });

  it('a known provider is never disposable; a random local part there still shows in score and layers', () => {
    const v = decide(f({ domain: 'gmail.com', provider: 'Gmail', mailHost: null, randomLocalPart: true }));
    expect(v).toMatchObject({
      disposable: false,
      confidence: 'HIGH',
      score: 0.25,
      reasons: ['KNOWN_PROVIDER', 'RANDOM_LOCAL_PART'],
      reason: 'gmail.com is a mailbox provider (Gmail)',
    });
  });

  it('overrides win over everything, and the layers still report what they saw', () => {
    const allow = decide(
      f({
        domain: 'mailinator.com',
        listing: listing('EXACT'),
        mailHost: null,
        override: {
          domain: 'mailinator.com',
          action: 'ALLOW',
          note: null,
          createdAt: '2026-01-01T00:00:00Z',
        },
      }),
    );
    expect(allow).toMatchObject({
      disposable: false,
      confidence: 'HIGH',
      score: 0,
      reasons: ['OVERRIDE_ALLOW'],
      reason: "mailinator.com is on this account's allow list",
    });
    expect(allow.detectionLayers.staticList).toBe(true);
    const deny = decide(
      f({
        domain: 'mail.example.com',
        override: { domain: 'example.com', action: 'DENY', note: 'x', createdAt: '2026-01-01T00:00:00Z' },
      }),
    );
    expect(deny).toMatchObject({
      disposable: true,
      confidence: 'HIGH',
      score: 1,
      reasons: ['OVERRIDE_DENY'],
    });
    expect(deny.reason).toBe("example.com is on this account's deny list");
  });
});
