/**
 * The local DNS server of test/support/local-dns.ts, queried by node's c-ares resolver (as the platform queries)
 * and over TCP by dns2's client: every record type, CNAME chains, wildcards, NXDOMAIN, SERVFAIL, silence.
 */
import { Resolver } from 'node:dns/promises';
import { TCPClient } from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';

let dns: LocalDns;
let resolver: Resolver;

beforeAll(async () => {
  dns = await startLocalDns(
    {
      'example.test': {
        A: ['93.184.216.34', '93.184.216.35'],
        AAAA: ['2606:2800:220:1::1'],
        MX: [
          { exchange: 'mx1.example.test', priority: 10 },
          { exchange: 'mx2.example.test', priority: 20 },
        ],
        TXT: ['v=spf1 -all', ['part one ', 'part two']],
        NS: ['ns1.example.test', 'ns2.example.test'],
        SOA: {
          primary: 'ns1.example.test',
          admin: 'hostmaster.example.test',
          serial: 2024010101,
          refresh: 3600,
          retry: 600,
          expiration: 604800,
          minimum: 60,
        },
        ttl: 120,
      },
      '_sip._tcp.example.test': {
        SRV: [{ priority: 10, weight: 5, port: 5060, target: 'sip.example.test' }],
      },
      'www.example.test': { CNAME: 'alias.example.test' },
      'alias.example.test': { CNAME: 'example.test' },
      'dangling.example.test': { CNAME: 'gone.example.test' },
      '*.wild.test': { A: ['198.51.100.7'] },
      'exact.wild.test': { A: ['198.51.100.8'] },
      'broken.test': { rcode: 'SERVFAIL' },
      'refused.test': { rcode: 'REFUSED' },
      'silent.test': { drop: true },
      'counted.test': ({ count }) => ({ A: [`192.0.2.${count}`], ttl: 0 }),
    },
    { ttl: 300 },
  );
  resolver = new Resolver({ timeout: 300, tries: 1 });
  resolver.setServers([dns.server]);
});
afterAll(() => dns?.close());

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: { code?: string }) => e.code,
  );

describe('answers from the table', () => {
  it('serves every record type with its TTL', async () => {
    expect(dns.server).toBe(`127.0.0.1:${dns.port}`);
    expect(await resolver.resolve4('example.test', { ttl: true })).toEqual([
      { address: '93.184.216.34', ttl: 120 },
      { address: '93.184.216.35', ttl: 120 },
    ]);
    expect(await resolver.resolve6('example.test')).toEqual(['2606:2800:220:1::1']);
    expect(await resolver.resolveMx('example.test')).toEqual([
      { exchange: 'mx1.example.test', priority: 10 },
      { exchange: 'mx2.example.test', priority: 20 },
    ]);
    expect(await resolver.resolveTxt('example.test')).toEqual([['v=spf1 -all'], ['part one ', 'part two']]);
    expect(await resolver.resolveNs('example.test')).toEqual(['ns1.example.test', 'ns2.example.test']);
    expect(await resolver.resolveSoa('example.test')).toEqual({
      nsname: 'ns1.example.test',
      hostmaster: 'hostmaster.example.test',
      serial: 2024010101,
      refresh: 3600,
      retry: 600,
      expire: 604800,
      minttl: 60,
    });
    expect(await resolver.resolveSrv('_sip._tcp.example.test')).toEqual([
      { name: 'sip.example.test', port: 5060, priority: 10, weight: 5 },
    ]);
  });

  it('follows CNAME chains like a recursive resolver, and answers CNAME itself', async () => {
    expect(await resolver.resolve4('www.example.test')).toEqual(['93.184.216.34', '93.184.216.35']);
    expect(await resolver.resolveMx('www.example.test')).toHaveLength(2);
    expect(await resolver.resolveCname('www.example.test')).toEqual(['alias.example.test']);
    // A chain into a missing name: the chain is the whole answer, with no address in it.
    expect(await resolver.resolve4('dangling.example.test')).toEqual([]);
    expect(await resolver.resolveCname('dangling.example.test')).toEqual(['gone.example.test']);
  });

  it('answers names under a wildcard, an exact entry winning', async () => {
    expect(await resolver.resolve4('a.b.wild.test')).toEqual(['198.51.100.7']);
    expect(await resolver.resolve4('exact.wild.test')).toEqual(['198.51.100.8']);
  });

  it('is case-insensitive and ignores a final dot', async () => {
    expect(await resolver.resolve4('EXAMPLE.test.')).toHaveLength(2);
  });

  it('answers NODATA for a known name without that type, NXDOMAIN for unknown names', async () => {
    expect(await code(resolver.resolve4('_sip._tcp.example.test'))).toBe('ENODATA');
    expect(await code(resolver.resolve4('nope.test'))).toBe('ENOTFOUND');
  });

  it('fails on request: SERVFAIL, REFUSED, or no answer at all', async () => {
    expect(await code(resolver.resolve4('broken.test'))).toBe('ESERVFAIL');
    expect(await code(resolver.resolve4('refused.test'))).toBe('EREFUSED');
    expect(await code(resolver.resolve4('silent.test'))).toBe('ETIMEOUT');
  });

  it('entries may be functions of the query, counted per name and type', async () => {
    expect(await resolver.resolve4('counted.test')).toEqual(['192.0.2.1']);
    expect(await resolver.resolve4('counted.test')).toEqual(['192.0.2.2']);
    expect(dns.queryCount('counted.test', 'A')).toBe(2);
  });

  it('the table can change while the server runs', async () => {
    dns.table['late.test'] = { A: ['203.0.113.9'] };
    expect(await resolver.resolve4('late.test')).toEqual(['203.0.113.9']);
    delete dns.table['late.test'];
    expect(await code(resolver.resolve4('late.test'))).toBe('ENOTFOUND');
  });
});

describe('transports and the log', () => {
  it('answers over TCP on the same port', async () => {
    const tcp = TCPClient({ dns: '127.0.0.1', port: dns.port });
    const res = await tcp('example.test', 'MX');
    expect(res.answers.map((a) => a.exchange)).toEqual(['mx1.example.test', 'mx2.example.test']);
    expect(dns.queries.at(-1)).toEqual({
      name: 'example.test',
      type: 'MX',
      transport: 'tcp',
      count: expect.any(Number),
    });
  });

  it('logs every query with its transport', () => {
    expect(
      dns.queries.some((q) => q.name === 'example.test' && q.type === 'A' && q.transport === 'udp'),
    ).toBe(true);
    expect(dns.queryCount('example.test')).toBeGreaterThanOrEqual(dns.queryCount('example.test', 'A'));
  });

  it('closes promptly, idle TCP connections included', async () => {
    const other = await startLocalDns({ 'x.test': { A: ['192.0.2.1'] } });
    await TCPClient({ dns: '127.0.0.1', port: other.port })('x.test', 'A');
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
