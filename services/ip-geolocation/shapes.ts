import { INVALID_IP } from './address.js';
import type { GeoRecord, GeoSources } from './geo-lookup.js';

/**
 * The four response shapes over one GeoRecord. S (SPEC.md 4.2) carries `asn` as "AS<number>", R (SPEC.md 4.4)
 * as an integer; both add `reserved` and `reason`, and every response names its data sources once.
 */
const asLabel = (asn: number | null): string | null => (asn === null ? null : `AS${asn}`);

const sourcesOf = (s: GeoSources) => ({
  attribution: s.attribution,
  database: s.database,
  asnDatabase: s.asnDatabase,
});

/** S `GET /api/ip-geolocation/lookup` data. */
export const sLookup = (r: GeoRecord, s: GeoSources) => ({
  ip: r.ip,
  country: r.country,
  countryName: r.countryName,
  region: r.region,
  city: r.city,
  latitude: r.latitude,
  longitude: r.longitude,
  timezone: r.timezone,
  isp: r.isp,
  asn: asLabel(r.asn),
  asnOrg: r.asnOrg,
  reserved: r.reserved,
  reason: r.reason,
  ...sourcesOf(s),
});

/** R `GET /api/v1/geoip/{ip}` body, and (without the sources) an R batch item. */
const rItem = (r: GeoRecord) => ({
  ip: r.ip,
  country: r.country,
  region: r.region,
  city: r.city,
  latitude: r.latitude,
  longitude: r.longitude,
  isp: r.isp,
  asn: r.asn,
  reserved: r.reserved,
  reason: r.reason,
});

export const rLookup = (r: GeoRecord, s: GeoSources) => ({ ...rItem(r), ...sourcesOf(s) });

/** A batch item that is not an IP address: its input and its error, in the place it was sent. */
const invalidItem = (ip: string, index: number, withStatus: boolean) => ({
  ip,
  error: {
    code: 'VALIDATION_ERROR',
    ...(withStatus ? { status: 400 } : {}),
    message: `ips[${index}]: ${INVALID_IP}`,
  },
});

/** S `POST /api/ip-geolocation/lookup/batch` data. */
export const sBatch = (ips: readonly string[], records: readonly (GeoRecord | null)[], s: GeoSources) => ({
  results: records.map((r, i) =>
    r
      ? {
          ip: r.ip,
          country: r.country,
          city: r.city,
          asn: asLabel(r.asn),
          reserved: r.reserved,
          reason: r.reason,
        }
      : invalidItem(ips[i]!, i, false),
  ),
  ...sourcesOf(s),
});

/** R `POST /api/v1/geoip/batch` body. */
export const rBatch = (ips: readonly string[], records: readonly (GeoRecord | null)[], s: GeoSources) => ({
  results: records.map((r, i) => (r ? rItem(r) : invalidItem(ips[i]!, i, true))),
  ...sourcesOf(s),
});
