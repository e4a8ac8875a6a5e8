/**
 * The layers together on real data: the packaged lists, a real DNS server on 127.0.0.1 for the DNS layer, and
 * overrides in a real kv store. Real providers are checked against a DNS server that answers NXDOMAIN for them
 * (the worst case), so no layer can flag them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryKvStore } from '../../core/kv/memory-kv.js';
import { EmailChecker } from '../../services/disposable-email/checker.js';
import { type EmailAddress, parseEmail } from '../../services/disposable-email/email-address.js';
import { packagedDomainList } from '../../services/disposable-email/list-sources.js';
import { MailHostChecker } from '../../services/disposable-email/mail-host.js';
import { OverrideStore } from '../../services/disposable-email/overrides.js';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';
import { DISPOSABLE, PROVIDERS } from './domains.js';

const MX = { MX: [{ exchange: 'mx.mailhost.test', priority: 10 }] };
let dns: LocalDns;
let kv: MemoryKvStore;
let checker: EmailChecker;
let overrides: OverrideStore;

beforeAll(async () => {
  dns = await startLocalDns({
    'acme-widgets.com': MX,
    'x7kq9z2mvb3p.com': MX,
    'inbox.guerrillamail.com': MX,
    'parked-domain.com': { A: [] },
    'web-only.com': { A: ['192.0.2.20'] },
    'no-mail.com': { MX: [{ exchange: '.', priority: 0 }] },
    'slow-dns.com': { drop: true },
  });
  kv = new MemoryKvStore();
  overrides = new OverrideStore(kv);
  checker = new EmailChecker({
    lists: packagedDomainList,
    mailHosts: new MailHostChecker({ servers: [dns.server], timeoutMs: 300 }),
    overrides,
  });
});
afterAll(async () => {
  await dns?.close();
  await kv?.close();
});

const addr = (email: string): EmailAddress => {
  const a = parseEmail(email);
  if (!a) throw new Error(`test address ${email} is malformed`);
  return a;
};
const check = (email: string, account: string | null = 'acc-1') => checker.check(addr(email), account);

describe('no false positives on real mailbox providers', () => {
  it.each(PROVIDERS)('%s: not disposable, HIGH, and DNS is not asked', async (domain) => {
    const r = await check(`jane.doe@${domain}`);
    expect(r).toMatchObject({ disposable: false, confidence: 'HIGH', score: 0, reasons: ['KNOWN_PROVIDER'] });
    expect(r.detectionLayers).toEqual({ staticList: false, dnsCheck: false, patternMatch: false });
    expect(dns.queryCount(domain)).toBe(0);
  });

  it('a random-looking local part at a provider is still not disposable', async () => {
    const r = await check('x7kq9z2mvb3p@gmail.com');
    expect(r).toMatchObject({ disposable: false, confidence: 'HIGH', provider: 'Gmail' });
    expect(r.reasons).toEqual(['KNOWN_PROVIDER', 'RANDOM_LOCAL_PART']);
  });
});

describe('real disposable services', () => {
  it.each(DISPOSABLE)('%s: disposable, HIGH, static list, no DNS needed', async (domain) => {
    const r = await check(`someone@${domain}`);
    expect(r).toMatchObject({ disposable: true, confidence: 'HIGH', score: 0.95, provider: domain });
    expect(r.detectionLayers.staticList).toBe(true);
    expect(dns.queryCount(domain)).toBe(0);
  });

  it('a sub-domain of a listed domain: pattern layer, and DNS asked (it has a mail host here)', async () => {
    const r = await check('a@inbox.guerrillamail.com');
    expect(r).toMatchObject({
      disposable: true,
      confidence: 'MEDIUM',
      score: 0.8,
      provider: 'guerrillamail.com',
    });
    expect(r.detectionLayers).toEqual({ staticList: false, dnsCheck: false, patternMatch: true });
    expect(r.reasons).toEqual(['SUBDOMAIN_OF_LISTED']);
  });

  it('a sub-domain under a wildcard entry (mailinator.com) is a listing', async () => {
    const r = await check('a@team.mailinator.com');
    expect(r).toMatchObject({ disposable: true, confidence: 'HIGH', reasons: ['STATIC_LIST'] });
  });
});

describe('DNS layer', () => {
  it('a domain with a mail host and no other finding: not disposable, HIGH', async () => {
    const r = await check('jane.doe@acme-widgets.com');
    expect(r).toMatchObject({ disposable: false, confidence: 'HIGH', score: 0, provider: null });
    expect(r.reason).toBe('acme-widgets.com has a mail host and is on no disposable-domain list');
  });

  it('A record but no MX: the implicit MX counts as a mail host', async () => {
    expect(await check('a@web-only.com')).toMatchObject({ disposable: false, confidence: 'HIGH' });
  });

  it('no mail host (no MX, no A/AAAA) is suspicious: disposable, dnsCheck', async () => {
    const r = await check('jane@parked-domain.com');
    expect(r).toMatchObject({ disposable: true, confidence: 'LOW', score: 0.65, reasons: ['NO_MAIL_HOST'] });
    expect(r.detectionLayers).toEqual({ staticList: false, dnsCheck: true, patternMatch: false });
  });

  it('null MX and NXDOMAIN: disposable, MEDIUM', async () => {
    expect(await check('jane@no-mail.com')).toMatchObject({ disposable: true, reasons: ['NULL_MX'] });
    expect(await check('jane@does-not-exist.com')).toMatchObject({
      disposable: true,
      confidence: 'MEDIUM',
      reasons: ['DOMAIN_NOT_FOUND'],
    });
  });

  it('no answer in time: not disposable, MEDIUM, DNS_UNAVAILABLE', async () => {
    const r = await check('jane@slow-dns.com');
    expect(r).toMatchObject({ disposable: false, confidence: 'MEDIUM', reasons: ['DNS_UNAVAILABLE'] });
  });
});

describe('pattern layer', () => {
  it('a random-looking local part alone: flagged in the layers, not disposable', async () => {
    const r = await check('x7kq9z2mvb3p@acme-widgets.com');
    expect(r).toMatchObject({ disposable: false, confidence: 'MEDIUM', score: 0.25 });
    expect(r.detectionLayers.patternMatch).toBe(true);
  });

  it('random-looking local part and domain together: disposable, LOW', async () => {
    const r = await check('qwxzvbnmk@x7kq9z2mvb3p.com');
    expect(r).toMatchObject({ disposable: true, confidence: 'LOW', score: 0.51 });
    expect(r.reasons).toEqual(['RANDOM_DOMAIN', 'RANDOM_LOCAL_PART']);
  });
});

describe('overrides', () => {
  const at = '2026-03-04T05:06:07.000Z';

  it('ALLOW fixes a listed domain for that account only, at once; removing it restores the lists', async () => {
    await overrides.put('acc-allow', {
      domain: 'mailinator.com',
      action: 'ALLOW',
      note: null,
      createdAt: at,
    });
    expect(await check('a@mailinator.com', 'acc-allow')).toMatchObject({
      disposable: false,
      confidence: 'HIGH',
      score: 0,
      reasons: ['OVERRIDE_ALLOW'],
    });
    expect(await check('a@sub.mailinator.com', 'acc-allow')).toMatchObject({ disposable: false });
    expect(await check('a@mailinator.com', 'acc-other')).toMatchObject({ disposable: true });
    expect(await overrides.remove('acc-allow', 'mailinator.com')).toBe(true);
    expect(await check('a@mailinator.com', 'acc-allow')).toMatchObject({ disposable: true });
    expect(await overrides.remove('acc-allow', 'mailinator.com')).toBe(false);
  });

  it('DENY marks a clean domain and its sub-domains; the most specific override wins', async () => {
    await overrides.put('acc-deny', { domain: 'acme-widgets.com', action: 'DENY', note: 'x', createdAt: at });
    await overrides.put('acc-deny', {
      domain: 'staff.acme-widgets.com',
      action: 'ALLOW',
      note: null,
      createdAt: at,
    });
    expect(await check('a@acme-widgets.com', 'acc-deny')).toMatchObject({ disposable: true, score: 1 });
    expect(await check('a@shop.acme-widgets.com', 'acc-deny')).toMatchObject({ disposable: true });
    expect(await check('a@staff.acme-widgets.com', 'acc-deny')).toMatchObject({ disposable: false });
    expect(await check('a@acme-widgets.com', 'acc-1')).toMatchObject({ disposable: false });
  });

  it('DENY applies to a known provider too (the account decides)', async () => {
    await overrides.put('acc-deny', { domain: 'gmail.com', action: 'DENY', note: null, createdAt: at });
    expect(await check('a@gmail.com', 'acc-deny')).toMatchObject({ disposable: true });
  });

  it('at most the configured number per account; replacing one does not count twice', async () => {
    const small = new OverrideStore(kv, 2);
    const o = (domain: string) => ({ domain, action: 'DENY' as const, note: null, createdAt: at });
    await small.put('acc-cap', o('one.test'));
    await small.put('acc-cap', o('one.test'));
    await small.put('acc-cap', o('two.test'));
    await expect(small.put('acc-cap', o('three.test'))).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    expect(await small.find('acc-cap', 'three.test')).toBeNull();
    await small.remove('acc-cap', 'one.test');
    await expect(small.put('acc-cap', o('three.test'))).resolves.toMatchObject({ domain: 'three.test' });
  });
});

describe('batches and domain status', () => {
  it('one DNS lookup per distinct domain, results in order, malformed items stay null', async () => {
    dns.table['batch-corp.com'] = MX;
    const before = dns.queryCount('batch-corp.com', 'MX');
    const inputs = [
      ...Array.from({ length: 40 }, (_, i) => parseEmail(`user${i}@batch-corp.com`)),
      null,
      parseEmail('a@yopmail.com'),
    ];
    const results = await checker.checkMany(inputs, 'acc-1');
    expect(results).toHaveLength(42);
    expect(results[0]).toMatchObject({ disposable: false, address: { input: 'user0@batch-corp.com' } });
    expect(results[40]).toBeNull();
    expect(results[41]).toMatchObject({ disposable: true });
    expect(dns.queryCount('batch-corp.com', 'MX') - before).toBe(1);
  });

  it('domainStatus: list entry, sub-domain, override, unlisted; never DNS', async () => {
    const queries = dns.queries.length;
    expect(await checker.domainStatus('yopmail.com', 'acc-1')).toMatchObject({
      disposable: true,
      source: 'STATIC_LIST',
      matchedDomain: 'yopmail.com',
      addedDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(await checker.domainStatus('x.guerrillamail.com', 'acc-1')).toMatchObject({
      disposable: true,
      source: 'PATTERN_MATCH',
      matchedDomain: 'guerrillamail.com',
    });
    expect(await checker.domainStatus('shop.acme-widgets.com', 'acc-deny')).toMatchObject({
      disposable: true,
      source: 'OVERRIDE',
      matchedDomain: 'acme-widgets.com',
      addedDate: '2026-03-04',
      lists: [],
    });
    expect(await checker.domainStatus('gmail.com', 'acc-1')).toEqual({
      domain: 'gmail.com',
      disposable: false,
      source: null,
      addedDate: null,
      matchedDomain: null,
      lists: [],
    });
    expect(dns.queries.length).toBe(queries);
  });
});
