import type { DnsEntry, DnsQuery, DnsTable } from '../support/local-dns.js';

/** One TXT record of twelve 203-octet strings: over the 1,232 octets of EDNS UDP, so it comes over TCP. */
export const LONG_TXT = Array.from(
  { length: 12 },
  (_, i) => `${String(i).padStart(2, '0')}-${'x'.repeat(200)}`,
);

/** Per type, so every TTL in a result can be told from the others. */
const APEX_TTL: Record<string, number> = { A: 300, AAAA: 600, MX: 3600, TXT: 120, NS: 86400, SOA: 900 };

const apex: DnsEntry = {
  A: ['192.0.2.10', '192.0.2.11'],
  AAAA: ['2001:db8:0:0:0:0:0:1'],
  MX: [
    { exchange: 'mx2.example.test', priority: 20 },
    { exchange: 'mx1.example.test', priority: 10 },
    { exchange: 'backup.example.test', priority: 30 },
  ],
  TXT: [['v=spf1 include:_spf.example.test ', '-all'], 'hello world'],
  NS: ['ns1.example.test', 'ns2.example.test'],
  SOA: {
    primary: 'ns1.example.test',
    admin: 'hostmaster.example.test',
    serial: 2024010101,
    refresh: 7200,
    retry: 3600,
    expiration: 1209600,
    minimum: 300,
  },
};

/** Every record type, alias chains, multi-string and oversized TXT, and the names the failure tests use. */
export const zone = (): DnsTable => ({
  'example.test': (q: DnsQuery) => ({ ...apex, ttl: APEX_TTL[q.type] ?? 300 }),
  'www.example.test': { CNAME: 'edge.example.test', ttl: 60 },
  'edge.example.test': { CNAME: 'origin.example.test', ttl: 30 },
  'origin.example.test': { A: ['192.0.2.80'], MX: [{ exchange: 'mx1.example.test', priority: 5 }], ttl: 20 },
  'dangling.example.test': { CNAME: 'gone.example.test', ttl: 60 },
  'loop-a.example.test': { CNAME: 'loop-b.example.test', ttl: 60 },
  'loop-b.example.test': { CNAME: 'loop-a.example.test', ttl: 60 },
  '_sip._tcp.example.test': {
    SRV: [
      { priority: 10, weight: 20, port: 5060, target: 'sip2.example.test' },
      { priority: 10, weight: 60, port: 5060, target: 'sip1.example.test' },
      { priority: 0, weight: 5, port: 5061, target: 'sip0.example.test' },
    ],
    ttl: 3600,
  },
  'big.example.test': { TXT: [LONG_TXT], ttl: 60 },
  'empty.example.test': {},
  'xn--bcher-kva.example.test': { A: ['192.0.2.99'], ttl: 300 },
  'broken.example.test': { rcode: 'SERVFAIL' },
  'slow.example.test': { drop: true },
  'half.example.test': (q: DnsQuery) =>
    q.type === 'MX'
      ? { drop: true }
      : { A: ['192.0.2.3'], MX: [{ exchange: 'mx.half.example.test', priority: 1 }] },
});
