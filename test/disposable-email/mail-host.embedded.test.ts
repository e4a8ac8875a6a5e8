/**
 * The DNS layer against a real DNS server on 127.0.0.1 (UDP and TCP, port 0): every status, the implicit MX,
 * the deadline, and the cache that keeps one batch from asking twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailHostChecker } from '../../services/disposable-email/mail-host.js';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';

let dns: LocalDns;
beforeAll(async () => {
  dns = await startLocalDns({
    'mx.test': { MX: [{ exchange: 'mail.mx.test', priority: 10 }] },
    'a-only.test': { A: ['192.0.2.10'] },
    'aaaa-only.test': { AAAA: ['2001:db8::10'] },
    'bare.test': { TXT: ['v=spf1 -all'] },
    'nullmx.test': { MX: [{ exchange: '.', priority: 0 }], A: ['192.0.2.11'] },
    'broken.test': { rcode: 'SERVFAIL' },
    'silent.test': { drop: true },
    'alias.test': { CNAME: 'mx.test' },
  });
});
afterAll(() => dns?.close());

const checker = (options = {}) => new MailHostChecker({ servers: [dns.server], timeoutMs: 400, ...options });

describe('MailHostChecker', () => {
  it.each([
    ['mx.test', 'MAIL_HOST'],
    ['a-only.test', 'MAIL_HOST'],
    ['aaaa-only.test', 'MAIL_HOST'],
    ['alias.test', 'MAIL_HOST'],
    ['bare.test', 'NO_MAIL_HOST'],
    ['nullmx.test', 'NULL_MX'],
    ['nowhere.test', 'DOMAIN_NOT_FOUND'],
    ['broken.test', 'UNAVAILABLE'],
  ])('%s → %s', async (domain, status) => {
    expect(await checker().check(domain)).toBe(status);
  });

  it('asks for A/AAAA only when there is no MX', async () => {
    const c = checker();
    await c.check('mx.test');
    await c.check('bare.test');
    expect(dns.queryCount('mx.test', 'A')).toBe(0);
    expect(dns.queryCount('bare.test', 'A')).toBeGreaterThanOrEqual(1);
    expect(dns.queryCount('bare.test', 'AAAA')).toBeGreaterThanOrEqual(1);
  });

  it('gives up at the deadline: UNAVAILABLE, not an error, and not much later', async () => {
    const started = performance.now();
    expect(await checker({ timeoutMs: 300 }).check('silent.test')).toBe('UNAVAILABLE');
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1_500);
  });

  it('UNAVAILABLE when no server answers at all (closed port)', async () => {
    expect(await new MailHostChecker({ servers: ['127.0.0.1:9'], timeoutMs: 400 }).check('mx.test')).toBe(
      'UNAVAILABLE',
    );
  });

  it('one lookup per domain: concurrent and repeated checks share it until the entry expires', async () => {
    let now = 1_000_000;
    const c = checker({ now: () => now, cacheTtlMs: 60_000 });
    const before = dns.queryCount('cached.mx.test', 'MX');
    dns.table['cached.mx.test'] = { MX: [{ exchange: 'mail.mx.test', priority: 10 }] };
    const all = await Promise.all(Array.from({ length: 20 }, () => c.check('cached.mx.test')));
    expect(new Set(all)).toEqual(new Set(['MAIL_HOST']));
    await c.check('cached.mx.test');
    expect(dns.queryCount('cached.mx.test', 'MX') - before).toBe(1);
    now += 60_001;
    delete dns.table['cached.mx.test'];
    expect(await c.check('cached.mx.test')).toBe('DOMAIN_NOT_FOUND');
    expect(dns.queryCount('cached.mx.test', 'MX') - before).toBe(2);
  });

  it('keeps at most maxEntries domains', async () => {
    const c = checker({ maxEntries: 2 });
    for (const d of ['mx.test', 'a-only.test', 'bare.test']) await c.check(d);
    const before = dns.queryCount('mx.test', 'MX');
    await c.check('mx.test');
    expect(dns.queryCount('mx.test', 'MX')).toBe(before + 1);
  });

  it('refuses a malformed server list at construction', () => {
    expect(() => new MailHostChecker({ servers: ['not a server'] })).toThrow();
  });
});
