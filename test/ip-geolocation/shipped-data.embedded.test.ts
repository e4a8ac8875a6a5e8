/**
 * Lookups of well-known public addresses against the databases the project ships (DB-IP Lite City, the
 * ip-location-db ASN tables). Assertions are on what stays true across monthly data updates: the announcing
 * AS, and the country where it is not an anycast service spread over the world; never the city.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GeoLookup } from '../../services/ip-geolocation/geo-lookup.js';
import { type AsnSource, BUNDLED, openBundledAsn } from '../../services/ip-geolocation/sources.js';

const geo = new GeoLookup();
beforeAll(() => geo.ready(), 60_000);

describe('well-known addresses', () => {
  it.each([
    ['8.8.8.8', 15169, /Google/],
    ['8.8.4.4', 15169, /Google/],
    ['1.1.1.1', 13335, /Cloudflare/],
    ['1.0.0.1', 13335, /Cloudflare/],
    ['9.9.9.9', 19281, /Quad9/],
    ['2001:4860:4860::8888', 15169, /Google/],
    ['2001:4860:4860::8844', 15169, /Google/],
    ['2606:4700:4700::1111', 13335, /Cloudflare/],
    ['2620:fe::fe', 19281, /Quad9/],
    ['193.0.6.139', 3333, /RIPE/],
    ['2001:67c:2e8:22::c100:68b', 3333, /RIPE/],
  ])('%s is announced by AS%i', async (ip, asn, org) => {
    const r = await geo.lookup(ip);
    expect(r).toMatchObject({ ip, reserved: false, reason: null, asn });
    expect(r.asnOrg).toMatch(org);
    expect(r.isp).toBe(r.asnOrg);
  });

  it('Google Public DNS (IPv4) is in the United States, with a time zone from its coordinates', async () => {
    const r = await geo.lookup('8.8.8.8');
    expect(r).toMatchObject({ country: 'US', countryName: 'United States' });
    expect(r.latitude).toEqual(expect.any(Number));
    expect(r.longitude).toEqual(expect.any(Number));
    expect(r.timezone).toMatch(/^America\//);
    expect(r.region).toEqual(expect.any(String));
  });

  it('the RIPE NCC (Amsterdam) is located in the Netherlands, over IPv4 and IPv6', async () => {
    for (const ip of ['193.0.6.139', '2001:67c:2e8:22::c100:68b']) {
      expect(await geo.lookup(ip)).toMatchObject({
        country: 'NL',
        countryName: 'Netherlands',
        timezone: 'Europe/Amsterdam',
      });
    }
  });

  it('IPv4-mapped, NAT64 and 6to4 forms of 8.8.8.8 answer as 8.8.8.8 (apart from `ip`)', async () => {
    const { ip: _, ...plain } = await geo.lookup('8.8.8.8');
    for (const ip of ['::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1']) {
      expect(await geo.lookup(ip)).toEqual({ ...plain, ip });
    }
  });

  it('private and other reserved addresses are answered as such', async () => {
    expect(await geo.lookup('192.168.1.1')).toEqual({
      ip: '192.168.1.1',
      reserved: true,
      reason: 'private (RFC 1918)',
      country: null,
      countryName: null,
      region: null,
      city: null,
      latitude: null,
      longitude: null,
      timezone: null,
      isp: null,
      asn: null,
      asnOrg: null,
    });
    expect((await geo.lookup('fd00::1')).reason).toBe('unique local (RFC 4193)');
    expect((await geo.lookup('::ffff:127.0.0.1')).reason).toBe('loopback (RFC 1122)');
  });
});

describe('the bundled sources', () => {
  it('are named with their build dates and carry the CC BY 4.0 credits', async () => {
    const sources = await geo.ready();
    expect(sources.database).toEqual({ name: 'DB-IP IP to City Lite', buildDate: expect.any(String) });
    expect(sources.database.buildDate).toMatch(/^20\d\d-\d\d-\d\d$/);
    expect(sources.asnDatabase.name).toMatch(/ip-location-db ASN/);
    expect(sources.asnDatabase.buildDate).toMatch(/^20\d\d-\d\d-\d\d$/);
    expect(sources.attribution.map((a) => [a.url, a.license])).toEqual([
      ['https://db-ip.com', 'CC BY 4.0'],
      ['https://www.routeviews.org/routeviews/', 'CC BY 4.0'],
      ['https://www.nro.net/', 'CC BY 4.0'],
    ]);
    expect(sources.attribution[0]!.text).toBe('IP Geolocation by DB-IP');
  });
});

/** A row of the shipped CSV, read here independently of the service's byte scanner (string split, BigInt). */
interface Row {
  start: bigint;
  end: bigint;
  asn: number;
  org: string;
}
function rows(file: string): Row[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end, asn, ...rest] = line.split(',');
      let org = rest.join(',');
      if (org.startsWith('"')) org = org.slice(1, -1).replaceAll('""', '"');
      return { start: BigInt(start!), end: BigInt(end!), asn: Number(asn), org };
    });
}

const v4Key = (n: bigint) => ({ family: 4 as const, address: '', value: Number(n) });
const v6Key = (n: bigint) => ({
  family: 6 as const,
  address: '',
  words: [96n, 64n, 32n, 0n].map((s) => Number((n >> s) & 0xffffffffn)) as [number, number, number, number],
});

describe('the ASN tables agree with the shipped CSV', () => {
  let asn: AsnSource;
  beforeAll(async () => {
    asn = await openBundledAsn();
  }, 60_000);

  it.each([
    ['IPv4', BUNDLED.asnFiles().ipv4, v4Key],
    ['IPv6', BUNDLED.asnFiles().ipv6, v6Key],
  ] as const)(
    '%s: first, last and middle address of every 97th range, and the gap after it',
    (_, file, key) => {
      const all = rows(file);
      expect(all.length).toBeGreaterThan(50_000);
      let checked = 0;
      for (let i = 0; i < all.length; i += 97) {
        const row = all[i]!;
        const prevEnd = i > 0 ? all[i - 1]!.end : -1n;
        if (row.start <= prevEnd) continue; // the one overlapping pair in the data
        const expected = { asn: row.asn, org: row.org };
        for (const at of [row.start, row.end, (row.start + row.end) / 2n]) {
          expect(asn.lookup(key(at)), `${at} in row ${i + 1}`).toMatchObject(expected);
        }
        const next = all[i + 1];
        if (next && next.start > row.end + 1n) expect(asn.lookup(key(row.end + 1n))).toBeNull();
        checked++;
      }
      expect(checked).toBeGreaterThan(500);
    },
  );
});
