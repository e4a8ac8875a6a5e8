/**
 * GEOIP_CITY_DB / GEOIP_ASN_DB: MaxMind GeoIP2/GeoLite2 files read through the maxmind reader, in place of
 * the bundled data. The files are written by the test MMDB writer into a temporary directory; the service
 * handlers are called directly.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, RouteDefinition } from '../../core/service/definition.js';
import { GeoLookup } from '../../services/ip-geolocation/geo-lookup.js';
import { createIpGeolocationService } from '../../services/ip-geolocation/service.js';
import { geoIp2City, geoIp2Isp, geoLite2Asn, geoLite2City, geoLite2CountryV4 } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'tg-geo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const cityDb = file('GeoLite2-City.mmdb', geoLite2City());
const asnDb = file('GeoLite2-ASN.mmdb', geoLite2Asn());

const GEOLITE2 = {
  text: 'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com',
  url: 'https://www.maxmind.com',
  license: 'GeoLite2 End User License Agreement',
  licenseUrl: 'https://www.maxmind.com/en/geolite2/eula',
};

describe('GeoLookup over GeoLite2 City and ASN files', () => {
  const geo = new GeoLookup({ cityDb, asnDb });

  it('maps the GeoIP2 record and the ASN record', async () => {
    expect(await geo.lookup('81.2.69.160')).toEqual({
      ip: '81.2.69.160',
      reserved: false,
      reason: null,
      country: 'GB',
      countryName: 'United Kingdom',
      region: 'England',
      city: 'London',
      latitude: 51.5142,
      longitude: -0.0931,
      timezone: 'Europe/London',
      isp: 'Andrews & Arnold Ltd',
      asn: 20712,
      asnOrg: 'Andrews & Arnold Ltd',
    });
  });

  it('IPv6, and IPv4 inside IPv6, are found in the one file', async () => {
    expect(await geo.lookup('2a02:8800:1::1')).toMatchObject({ country: 'GB', asn: 6830 });
    expect(await geo.lookup('::ffff:81.2.69.1')).toMatchObject({ country: 'GB', asn: 20712 });
    expect(await geo.lookup('2002:5102:4501::')).toMatchObject({ country: 'GB', asn: 20712 });
  });

  it('a record without a time zone gets one from its coordinates; a Japanese-only name is used', async () => {
    expect(await geo.lookup('27.96.1.1')).toMatchObject({
      country: 'JP',
      city: '東京',
      region: 'Tokyo',
      timezone: 'Asia/Tokyo',
      asnOrg: 'Internet Initiative Japan Inc.',
    });
  });

  it('an anycast range has only its registered country; unknown addresses have nothing', async () => {
    expect(await geo.lookup('198.41.0.4')).toMatchObject({
      country: 'US',
      countryName: 'United States',
      city: null,
      latitude: null,
      timezone: null,
      asn: null,
    });
    expect(await geo.lookup('8.8.8.8')).toMatchObject({
      reserved: false,
      country: null,
      countryName: null,
      isp: null,
      asn: null,
      asnOrg: null,
    });
  });

  it('names the databases by their metadata, with build dates; GeoLite2 attribution once', async () => {
    expect(await geo.ready()).toEqual({
      database: { name: 'GeoLite2-City', buildDate: '2025-04-01' },
      asnDatabase: { name: 'GeoLite2-ASN', buildDate: '2025-04-08' },
      attribution: [GEOLITE2],
    });
  });

  it('reserved and malformed input as with the bundled data', async () => {
    expect(await geo.lookup('192.168.1.1')).toMatchObject({ reserved: true, reason: 'private (RFC 1918)' });
    await expect(geo.lookup('81.2.69')).rejects.toThrow(
      new AppError('VALIDATION_ERROR', 'ip: must be a valid IPv4 or IPv6 address'),
    );
    expect(await geo.lookupAll(['81.2.69.1', 'x', '::1'])).toMatchObject([
      { country: 'GB' },
      null,
      { reserved: true, reason: 'loopback (RFC 4291)' },
    ]);
  });
});

describe('other MaxMind databases', () => {
  it('GeoIP2 City and ISP (commercial): the ISP apart from the AS organization, no attribution', async () => {
    const geo = new GeoLookup({
      cityDb: file('GeoIP2-City.mmdb', geoIp2City()),
      asnDb: file('GeoIP2-ISP.mmdb', geoIp2Isp()),
    });
    expect(await geo.lookup('81.2.69.160')).toMatchObject({
      isp: 'Andrews & Arnold',
      asn: 20712,
      asnOrg: 'Andrews & Arnold Ltd',
    });
    expect(await geo.ready()).toMatchObject({ database: { name: 'GeoIP2-City' }, attribution: [] });
  });

  it('an IPv4-only Country file answers IPv4 and has nothing for IPv6', async () => {
    const geo = new GeoLookup({ cityDb: file('country4.mmdb', geoLite2CountryV4()), asnDb });
    expect(await geo.lookup('81.2.69.160')).toMatchObject({ country: 'GB', city: null, asn: 20712 });
    expect(await geo.lookup('2a02:8800:1::1')).toMatchObject({ country: null, asn: 6830 });
  });

  it('a path that is not a file stops the construction, naming the database', () => {
    expect(() => new GeoLookup({ cityDb: join(dir, 'missing.mmdb') })).toThrow(
      /the city database .* not a file/,
    );
    expect(() => new GeoLookup({ asnDb: dir })).toThrow(/the ASN database .* not a file/);
  });

  it('a file that is no database fails the call; a later call loads it again once fixed', async () => {
    const path = file('broken.mmdb', Buffer.from('not a database'));
    const geo = new GeoLookup({ cityDb, asnDb: path });
    await expect(geo.lookup('81.2.69.160')).rejects.toThrow();
    writeFileSync(path, geoLite2Asn());
    expect(await geo.lookup('81.2.69.160')).toMatchObject({ asn: 20712 });
  });
});

describe('the service handlers over these files', () => {
  const ctx = (batchLimit = 100): CallContext => ({
    requestId: 'r1',
    accountId: 'a1',
    keyId: 'k1',
    roles: ['ROLE_USER'],
    plan: 'PRO',
    batchLimit,
    ip: '127.0.0.1',
    now: () => new Date(),
  });
  const service = createIpGeolocationService({ cityDb, asnDb });
  const route = (id: string): RouteDefinition => service.routes.find((r) => r.operationId === id)!;
  const call = (id: string, input: { params?: object; query?: object; body?: unknown }, limit?: number) =>
    route(id).handler(
      { params: {}, query: {}, headers: {}, body: undefined, ...input } as never,
      ctx(limit),
    ) as Promise<Record<string, unknown>>;
  const sources = {
    attribution: [GEOLITE2],
    database: { name: 'GeoLite2-City', buildDate: '2025-04-01' },
    asnDatabase: { name: 'GeoLite2-ASN', buildDate: '2025-04-08' },
  };

  it('declares the four routes of SPEC.md', () => {
    expect(service.slug).toBe('ip-geolocation');
    expect(service.routes.map((r) => [r.convention, r.method, r.path, r.operationId, r.batch?.max])).toEqual([
      ['S', 'GET', '/api/ip-geolocation/lookup', 'ipGeolocationLookup', undefined],
      ['S', 'POST', '/api/ip-geolocation/lookup/batch', 'ipGeolocationLookupBatch', 100],
      ['R', 'GET', '/api/v1/geoip/{ip}', 'geoipLookup', undefined],
      ['R', 'POST', '/api/v1/geoip/batch', 'geoipBatch', 100],
    ]);
    expect(service.routes.every((r) => r.auth === 'apiKey' && r.metered)).toBe(true);
  });

  it('S lookup: asn as AS<number>, the sources with it', async () => {
    expect(await call('ipGeolocationLookup', { query: { ip: '81.2.69.160' } })).toEqual({
      ip: '81.2.69.160',
      country: 'GB',
      countryName: 'United Kingdom',
      region: 'England',
      city: 'London',
      latitude: 51.5142,
      longitude: -0.0931,
      timezone: 'Europe/London',
      isp: 'Andrews & Arnold Ltd',
      asn: 'AS20712',
      asnOrg: 'Andrews & Arnold Ltd',
      reserved: false,
      reason: null,
      ...sources,
    });
  });

  it('R lookup: asn as an integer, the R fields only', async () => {
    expect(await call('geoipLookup', { params: { ip: '2a02:8800::7' } })).toEqual({
      ip: '2a02:8800::7',
      country: 'GB',
      region: 'England',
      city: 'London',
      latitude: 51.5142,
      longitude: -0.0931,
      isp: 'Liberty Global B.V.',
      asn: 6830,
      reserved: false,
      reason: null,
      ...sources,
    });
  });

  it('batches: each item on its own, errors in place, the sources once', async () => {
    const ips = ['81.2.69.1', 'bogus', '10.0.0.1', '27.96.0.1'];
    expect(await call('ipGeolocationLookupBatch', { body: { ips } })).toEqual({
      results: [
        { ip: '81.2.69.1', country: 'GB', city: 'London', asn: 'AS20712', reserved: false, reason: null },
        {
          ip: 'bogus',
          error: { code: 'VALIDATION_ERROR', message: 'ips[1]: must be a valid IPv4 or IPv6 address' },
        },
        {
          ip: '10.0.0.1',
          country: null,
          city: null,
          asn: null,
          reserved: true,
          reason: 'private (RFC 1918)',
        },
        { ip: '27.96.0.1', country: 'JP', city: '東京', asn: 'AS2497', reserved: false, reason: null },
      ],
      ...sources,
    });
    const r = await call('geoipBatch', { body: { ips } });
    expect(r.results).toMatchObject([
      { ip: '81.2.69.1', asn: 20712, region: 'England', isp: 'Andrews & Arnold Ltd' },
      {
        ip: 'bogus',
        error: {
          code: 'VALIDATION_ERROR',
          status: 400,
          message: 'ips[1]: must be a valid IPv4 or IPv6 address',
        },
      },
      { ip: '10.0.0.1', asn: null, reserved: true },
      { ip: '27.96.0.1', asn: 2497 },
    ]);
    expect(r).toMatchObject(sources);
  });

  it('a batch over the call’s limit is refused, a single malformed address is a 400', async () => {
    await expect(call('geoipBatch', { body: { ips: ['1.1.1.1', '1.1.1.2'] } }, 1)).rejects.toThrow(
      new AppError('VALIDATION_ERROR', 'ips: must contain at most 1 items'),
    );
    await expect(call('geoipLookup', { params: { ip: '1.1.1' } })).rejects.toThrow(
      new AppError('VALIDATION_ERROR', 'ip: must be a valid IPv4 or IPv6 address'),
    );
  });

  it('a shared GeoLookup is used as given (cityDb and asnDb are then ignored)', async () => {
    const shared = new GeoLookup({ cityDb, asnDb: file('ISP.mmdb', geoIp2Isp()) });
    const svc = createIpGeolocationService({ geo: shared, asnDb });
    const s = svc.routes.find((r) => r.operationId === 'ipGeolocationLookup')!;
    const data = (await s.handler(
      { params: {}, query: { ip: '81.2.69.160' }, headers: {}, body: undefined },
      ctx(),
    )) as Record<string, unknown>;
    expect(data).toMatchObject({ isp: 'Andrews & Arnold', asnDatabase: { name: 'GeoIP2-ISP' } });
  });
});
