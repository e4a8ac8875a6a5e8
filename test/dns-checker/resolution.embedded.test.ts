/**
 * The dns-checker handlers against real DNS servers on 127.0.0.1 (dns2, UDP and TCP on one port): every record
 * type with its TTLs and fields, NXDOMAIN, SERVFAIL, time-outs, fail-over, truncation, EDNS fallback, aliases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallContext, RouteDefinition, ServiceDefinition } from '../../core/service/definition.js';
import { createDnsCheckerService, type DnsCheckerDeps } from '../../services/dns-checker/service.js';
import { type LocalDns, startLocalDns } from '../support/local-dns.js';
import { LONG_TXT, zone } from './zone.js';

const ctx: CallContext = {
  requestId: 'req-1',
  accountId: 'acc-1',
  keyId: 'key-1',
  roles: ['ROLE_USER'],
  plan: 'PRO',
  batchLimit: 100,
  ip: '127.0.0.1',
  now: () => new Date('2026-01-01T00:00:00Z'),
};

/** Short limits so the time-out cases take a fraction of a second. */
const FAST = { attemptMs: 250, checkMs: 700, batchMs: 3_000 };

let dns: LocalDns;
let servfail: LocalDns;
let silent: LocalDns;
let preEdns: LocalDns;
let service: ServiceDefinition;

beforeAll(async () => {
  [dns, servfail, silent, preEdns] = await Promise.all([
    startLocalDns(zone()),
    startLocalDns({ '*.test': { rcode: 'SERVFAIL' } }),
    startLocalDns({ '*.test': { drop: true } }),
    // A server from before EDNS: FORMERR to the first query of a name and type (the one with an OPT record).
    startLocalDns({
      'example.test': (q) => (q.count === 1 ? { rcode: 'FORMERR' } : { AAAA: ['2001:db8::1'], ttl: 600 }),
    }),
  ]);
  service = make({ dnsServers: [dns.server] });
});
afterAll(async () => {
  await Promise.all([dns, servfail, silent, preEdns].map((s) => s?.close()));
});

const make = (deps: DnsCheckerDeps) => createDnsCheckerService({ timeouts: FAST, ...deps });
const route = (svc: ServiceDefinition, operationId: string): RouteDefinition =>
  svc.routes.find((r) => r.operationId === operationId)!;
// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = Record<string, any>;
const check = async (hostname: string, recordTypes?: string[], svc = service): Promise<Json> =>
  (await route(svc, 'dnsCheck').handler(
    { params: {}, query: {}, body: { hostname, ...(recordTypes ? { recordTypes } : {}) }, headers: {} },
    ctx,
  )) as Json;
const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const v = await f();
  return [v, performance.now() - start];
};

describe('every record type, with exact values and TTLs', () => {
  it('A, AAAA, MX, TXT, NS and SOA of one name, resolved in parallel', async () => {
    const before = dns.queries.length;
    const r = await check('example.test', ['A', 'AAAA', 'MX', 'TXT', 'NS', 'SOA']);
    expect(r).toEqual({
      hostname: 'example.test',
      queryName: 'example.test',
      status: 'NOERROR',
      nameserver: dns.server,
      queryTimeMs: expect.any(Number),
      records: {
        A: [
          { value: '192.0.2.10', ttl: 300 },
          { value: '192.0.2.11', ttl: 300 },
        ],
        AAAA: [{ value: '2001:db8::1', ttl: 600 }],
        MX: [
          { value: 'mx1.example.test', ttl: 3600, priority: 10 },
          { value: 'mx2.example.test', ttl: 3600, priority: 20 },
          { value: 'backup.example.test', ttl: 3600, priority: 30 },
        ],
        TXT: [
          {
            value: 'v=spf1 include:_spf.example.test -all',
            ttl: 120,
            strings: ['v=spf1 include:_spf.example.test ', '-all'],
          },
          { value: 'hello world', ttl: 120, strings: ['hello world'] },
        ],
        NS: [
          { value: 'ns1.example.test', ttl: 86400 },
          { value: 'ns2.example.test', ttl: 86400 },
        ],
        SOA: [
          {
            value: 'ns1.example.test',
            ttl: 900,
            mname: 'ns1.example.test',
            rname: 'hostmaster.example.test',
            serial: 2024010101,
            refresh: 7200,
            retry: 3600,
            expire: 1209600,
            minimum: 300,
          },
        ],
      },
    });
    const asked = dns.queries.slice(before);
    expect(asked.map((q) => q.type).sort()).toEqual(['A', 'AAAA', 'MX', 'NS', 'SOA', 'TXT']);
    expect(asked.every((q) => q.transport === 'udp' && q.name === 'example.test')).toBe(true);
  });

  it('SRV: priority, weight, port and target, in RFC 2782 order', async () => {
    const r = await check('_sip._tcp.example.test', ['SRV']);
    expect(r.records).toEqual({
      SRV: [
        { value: 'sip0.example.test', ttl: 3600, priority: 0, weight: 5, port: 5061 },
        { value: 'sip1.example.test', ttl: 3600, priority: 10, weight: 60, port: 5060 },
        { value: 'sip2.example.test', ttl: 3600, priority: 10, weight: 20, port: 5060 },
      ],
    });
  });

  it('all eight types when none is named; a type the name lacks is []', async () => {
    const r = await check('example.test');
    expect(Object.keys(r.records)).toEqual(['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'SRV']);
    expect(r.records.CNAME).toEqual([]);
    expect(r.records.SRV).toEqual([]);
    expect(r.status).toBe('NOERROR');
  });

  it('a name that exists without records: NOERROR, every type []', async () => {
    const r = await check('empty.example.test', ['A', 'TXT']);
    expect(r).toMatchObject({ status: 'NOERROR', records: { A: [], TXT: [] } });
  });

  it('an internationalized name is queried as its A-label', async () => {
    const r = await check('bücher.example.test', ['A']);
    expect(r).toMatchObject({
      hostname: 'bücher.example.test',
      queryName: 'xn--bcher-kva.example.test',
      status: 'NOERROR',
      records: { A: [{ value: '192.0.2.99', ttl: 300 }] },
    });
  });
});

describe('aliases', () => {
  it('CNAME lists the chain link by link; other types give the records at its end', async () => {
    const r = await check('www.example.test', ['CNAME', 'A', 'MX']);
    expect(r.status).toBe('NOERROR');
    expect(r.records).toEqual({
      A: [{ value: '192.0.2.80', ttl: 20 }],
      MX: [{ value: 'mx1.example.test', ttl: 20, priority: 5 }],
      CNAME: [
        { value: 'edge.example.test', ttl: 60, name: 'www.example.test' },
        { value: 'origin.example.test', ttl: 30, name: 'edge.example.test' },
      ],
    });
  });

  it('a CNAME to a name that does not exist: the alias exists (NOERROR), its target has no records', async () => {
    const r = await check('dangling.example.test', ['CNAME', 'A']);
    expect(r).toMatchObject({
      status: 'NOERROR',
      records: { A: [], CNAME: [{ value: 'gone.example.test', name: 'dangling.example.test' }] },
    });
  });

  it('a CNAME loop is listed up to the link that closes it, and the check ends', async () => {
    const r = await check('loop-a.example.test', ['CNAME']);
    expect(r.records.CNAME).toEqual([
      { value: 'loop-b.example.test', ttl: 60, name: 'loop-a.example.test' },
      { value: 'loop-a.example.test', ttl: 60, name: 'loop-b.example.test' },
    ]);
  });
});

describe('response codes and failures', () => {
  it('NXDOMAIN: an empty records object', async () => {
    const r = await check('nope.example.test', ['A', 'MX']);
    expect(r).toEqual({
      hostname: 'nope.example.test',
      queryName: 'nope.example.test',
      status: 'NXDOMAIN',
      records: {},
      nameserver: dns.server,
      queryTimeMs: expect.any(Number),
    });
  });

  it('SERVFAIL from the server: status SERVFAIL, error SERVER_ERROR, the server and the code named', async () => {
    const r = await check('broken.example.test', ['A', 'MX']);
    expect(r).toMatchObject({
      status: 'SERVFAIL',
      records: {},
      nameserver: dns.server,
      error: 'SERVER_ERROR',
      message: `A, MX: ${dns.server} answered SERVFAIL`,
    });
  });

  it('no answer: SERVFAIL with TIMEOUT, within the per-name limit', async () => {
    const [r, ms] = await timed(() => check('slow.example.test', ['A']));
    expect(r).toMatchObject({
      status: 'SERVFAIL',
      records: {},
      error: 'TIMEOUT',
      message: `A: no answer from ${dns.server} within ${FAST.attemptMs} ms`,
    });
    // Two attempts of 250 ms, within the 700 ms per name.
    expect(ms).toBeGreaterThanOrEqual(2 * FAST.attemptMs - 20);
    expect(ms).toBeLessThan(FAST.checkMs + 300);
    expect(dns.queries.filter((q) => q.name === 'slow.example.test')).toHaveLength(2);
  });

  it('one type without an answer: SERVFAIL, the answered types still reported, the failed one absent', async () => {
    const r = await check('half.example.test', ['A', 'MX']);
    expect(r).toMatchObject({
      status: 'SERVFAIL',
      records: { A: [{ value: '192.0.2.3', ttl: 300 }] },
      error: 'TIMEOUT',
      message: expect.stringMatching(/^MX: no answer from /),
    });
    expect(r.records).not.toHaveProperty('MX');
  });

  it('a port nobody listens on: SERVFAIL with NETWORK_ERROR, at once', async () => {
    const closed = await startLocalDns({});
    await closed.close();
    const [r, ms] = await timed(() => check('example.test', ['A'], make({ dnsServers: [closed.server] })));
    expect(r).toMatchObject({
      status: 'SERVFAIL',
      error: 'NETWORK_ERROR',
      nameserver: closed.server,
      message: `A: ${closed.server} refused the connection`,
    });
    expect(ms).toBeLessThan(FAST.attemptMs);
  });
});

describe('servers', () => {
  it('a server answering SERVFAIL is replaced by the next; nameserver names the one that answered', async () => {
    const r = await check('example.test', ['A'], make({ dnsServers: [servfail.server, dns.server] }));
    expect(r).toMatchObject({
      status: 'NOERROR',
      nameserver: dns.server,
      records: { A: [{ value: '192.0.2.10' }, { value: '192.0.2.11' }] },
    });
  });

  it('a silent server is replaced by the next after one attempt', async () => {
    const [r, ms] = await timed(() =>
      check('example.test', ['A'], make({ dnsServers: [silent.server, dns.server] })),
    );
    expect(r).toMatchObject({ status: 'NOERROR', nameserver: dns.server });
    expect(ms).toBeGreaterThanOrEqual(FAST.attemptMs - 20);
    expect(ms).toBeLessThan(2 * FAST.attemptMs);
  });

  it('every server failing: SERVFAIL naming each failure', async () => {
    const r = await check('example.test', ['A'], make({ dnsServers: [servfail.server, silent.server] }));
    expect(r).toMatchObject({ status: 'SERVFAIL', error: 'SERVER_ERROR', nameserver: servfail.server });
    expect(r.message).toBe(
      `A: ${servfail.server} answered SERVFAIL; no answer from ${silent.server} within ${FAST.attemptMs} ms`,
    );
  });

  it('a truncated UDP answer is asked again over TCP, on the same port', async () => {
    const before = dns.queries.length;
    const r = await check('big.example.test', ['TXT']);
    expect(r.records.TXT).toEqual([{ value: LONG_TXT.join(''), ttl: 60, strings: LONG_TXT }]);
    expect(r.records.TXT[0].value.length).toBeGreaterThan(2_000);
    expect(dns.queries.slice(before).map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  it('a server that answers FORMERR to EDNS is asked again without it', async () => {
    const r = await check('example.test', ['AAAA'], make({ dnsServers: [preEdns.server] }));
    expect(r).toMatchObject({ status: 'NOERROR', records: { AAAA: [{ value: '2001:db8::1', ttl: 600 }] } });
    expect(preEdns.queries.map((q) => [q.type, q.transport, q.count])).toEqual([
      ['AAAA', 'udp', 1],
      ['AAAA', 'udp', 2],
    ]);
  });
});

describe('batches: each item carries its input and its result', () => {
  it('D bulk: results in request order; an invalid hostname fails alone', async () => {
    const targets = [
      { hostname: 'example.test', recordTypes: ['MX'] },
      { hostname: 'not a domain', recordTypes: ['A'] },
      { hostname: 'nope.example.test' },
      { hostname: 'broken.example.test', recordTypes: ['A'] },
      { hostname: '192.0.2.1' },
    ];
    const r = (await route(service, 'dnsCheckBulk').handler(
      { params: {}, query: {}, body: { targets }, headers: {} },
      ctx,
    )) as Json[];
    expect(r).toHaveLength(5);
    expect(r[0]).toEqual({
      hostname: 'example.test',
      recordTypes: ['MX'],
      queryName: 'example.test',
      status: 'NOERROR',
      records: { MX: expect.any(Array) },
      nameserver: dns.server,
      queryTimeMs: expect.any(Number),
    });
    expect(r[0]!.records.MX).toHaveLength(3);
    expect(r[1]).toEqual({
      hostname: 'not a domain',
      recordTypes: ['A'],
      queryName: null,
      status: null,
      records: {},
      nameserver: null,
      queryTimeMs: 0,
      error: 'VALIDATION_ERROR',
      message: 'hostname: must be a valid domain name',
    });
    expect(r[2]).toMatchObject({ hostname: 'nope.example.test', status: 'NXDOMAIN', records: {} });
    expect(r[2]!.recordTypes).toEqual(['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'SRV']);
    expect(r[3]).toMatchObject({
      hostname: 'broken.example.test',
      status: 'SERVFAIL',
      error: 'SERVER_ERROR',
    });
    expect(r[4]).toMatchObject({ hostname: '192.0.2.1', error: 'VALIDATION_ERROR', status: null });
    expect(dns.queries.some((q) => q.name === '192.0.2.1' || q.name.includes(' '))).toBe(false);
  });

  it('R batch: {results}, one per domain, with checkedAt', async () => {
    const svc = make({ dnsServers: [dns.server], now: () => new Date('2030-05-06T07:08:09Z') });
    const r = (await route(svc, 'dnsLookupBatch').handler(
      {
        params: {},
        query: {},
        body: { domains: ['www.example.test', '-bad-.test'], recordTypes: ['A'] },
        headers: {},
      },
      ctx,
    )) as Json;
    expect(r.results).toEqual([
      {
        domain: 'www.example.test',
        queryName: 'www.example.test',
        status: 'NOERROR',
        records: { A: [{ value: '192.0.2.80', ttl: 20 }] },
        nameserver: dns.server,
        queryTimeMs: expect.any(Number),
        checkedAt: '2030-05-06T07:08:09.000Z',
      },
      {
        domain: '-bad-.test',
        queryName: null,
        status: null,
        records: {},
        nameserver: null,
        queryTimeMs: 0,
        error: 'VALIDATION_ERROR',
        message: 'domain: must be a valid domain name',
        checkedAt: '2030-05-06T07:08:09.000Z',
      },
    ]);
  });

  it('a batch of silent names ends by the batch limit, each item reporting its time-out', async () => {
    const svc = make({
      dnsServers: [silent.server],
      timeouts: { attemptMs: 200, checkMs: 400, batchMs: 600 },
    });
    const targets = Array.from({ length: 40 }, (_, i) => ({
      hostname: `n${i}.example.test`,
      recordTypes: ['A'],
    }));
    const [r, ms] = await timed(
      async () =>
        (await route(svc, 'dnsCheckBulk').handler(
          { params: {}, query: {}, body: { targets }, headers: {} },
          ctx,
        )) as Json[],
    );
    // 40 names, 16 at a time, 400 ms each would take 1.2 s; the batch limit cuts it at 600 ms.
    expect(ms).toBeLessThan(1_000);
    expect(r).toHaveLength(40);
    for (const item of r) expect(item).toMatchObject({ status: 'SERVFAIL', error: 'TIMEOUT' });
  });

  it('R lookups: POST with types, GET with all of them', async () => {
    const post = (await route(service, 'dnsLookup').handler(
      { params: {}, query: {}, body: { domain: 'EXAMPLE.test.', recordTypes: ['NS'] }, headers: {} },
      ctx,
    )) as Json;
    expect(post).toEqual({
      domain: 'EXAMPLE.test.',
      queryName: 'example.test',
      status: 'NOERROR',
      records: {
        NS: [
          { value: 'ns1.example.test', ttl: 86400 },
          { value: 'ns2.example.test', ttl: 86400 },
        ],
      },
      nameserver: dns.server,
      queryTimeMs: expect.any(Number),
      checkedAt: '2026-01-01T00:00:00.000Z',
    });
    const get = (await route(service, 'dnsLookupAll').handler(
      { params: { domain: '_sip._tcp.example.test' }, query: {}, body: undefined, headers: {} },
      ctx,
    )) as Json;
    expect(Object.keys(get.records)).toEqual(['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'SRV']);
    expect(get.records.SRV).toHaveLength(3);
  });
});
