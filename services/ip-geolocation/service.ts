import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { GeoLookup } from './geo-lookup.js';
import { rBatch, rLookup, sBatch, sLookup } from './shapes.js';

export interface IpGeolocationDeps {
  /**
   * GEOIP_CITY_DB: a MaxMind GeoIP2/GeoLite2 City (or Country) .mmdb instead of the bundled DB-IP Lite City.
   */
  readonly cityDb?: string;
  /** GEOIP_ASN_DB: a MaxMind GeoLite2-ASN (or GeoIP2-ISP) .mmdb instead of the bundled ASN tables. */
  readonly asnDb?: string;
  /** One lookup shared with other services (ip-reputation): cityDb and asnDb are then ignored. */
  readonly geo?: GeoLookup;
}

/**
 * The batch routes' own bound (SPEC.md 8); the gateway applies the smaller of it and the plan's batch size.
 */
export const BATCH_MAX = 100;

/** The schemas bound `ips` already; this keeps the handlers correct for any caller. */
function batchOf(body: unknown, ctx: CallContext): string[] {
  const { ips } = body as { ips: string[] };
  if (ips.length > ctx.batchLimit) {
    throw new AppError('VALIDATION_ERROR', `ips: must contain at most ${ctx.batchLimit} items`);
  }
  return ips;
}

const ADDRESSES =
  'IPv4 as a dotted quad, IPv6 in any RFC 4291 form (IPv4-mapped ::ffff:a.b.c.d, NAT64, 6to4 and Teredo ' +
  'addresses are located by the IPv4 address they carry). Private and other special-purpose addresses are ' +
  'answered with `reserved: true`, a `reason` such as "private (RFC 1918)" and null location fields, not ' +
  'refused.';
const DATA =
  'Location from DB-IP IP to City Lite, networks from Route Views, the RIRs and DB-IP IP to ASN Lite (all ' +
  'CC BY 4.0), unless the operator configured MaxMind databases; `database` and `asnDatabase` name the ' +
  'data and its build date, and `attribution` the credits its licence requires. The time zone comes from ' +
  'the database or, failing that, from the coordinates.';
const BATCH =
  'Each address is resolved on its own, in request order: one that is not an IP address gets an `error` in ' +
  'its place while the others are answered. At most the smaller of 100 addresses and the plan batch size; ' +
  'the batch counts as one call.';

/**
 * `createIpGeolocationService({ cityDb: config.GEOIP_CITY_DB, asnDb: config.GEOIP_ASN_DB })`: where an IP
 * address is, and which network announces it (issue 6).
 */
export function createIpGeolocationService(deps: IpGeolocationDeps = {}): ServiceDefinition {
  const geo =
    deps.geo ??
    new GeoLookup({
      ...(deps.cityDb ? { cityDb: deps.cityDb } : {}),
      ...(deps.asnDb ? { asnDb: deps.asnDb } : {}),
    });

  return {
    slug: 'ip-geolocation',
    title: 'IP geolocation',
    description:
      'Country, region, city, coordinates, time zone, ISP and autonomous system of an IPv4 or IPv6 ' +
      'address; one address or up to 100 at once. Private and reserved addresses are reported as such.',
    routes: [
      {
        convention: 'S',
        method: 'GET',
        path: '/api/ip-geolocation/lookup',
        operationId: 'ipGeolocationLookup',
        summary: 'Locate an IP address',
        description: `\`asn\` is "AS<number>". ${ADDRESSES} ${DATA} Anything else is refused with 400.`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          query: apiSchema('ip-geolocation/lookup-query.json'),
          response: { 200: apiSchema('ip-geolocation/lookup-response.json') },
        },
        async handler({ query }) {
          const record = await geo.lookup(query.ip as string);
          return sLookup(record, await geo.ready());
        },
      },
      {
        convention: 'S',
        method: 'POST',
        path: '/api/ip-geolocation/lookup/batch',
        operationId: 'ipGeolocationLookupBatch',
        summary: 'Locate up to 100 IP addresses',
        description:
          `${BATCH} Items carry \`ip\`, \`country\`, \`city\` and \`asn\` ("AS<number>"). ` +
          `${ADDRESSES} ${DATA}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'ips', max: BATCH_MAX },
        schemas: {
          body: apiSchema('ip-geolocation/batch-request.json'),
          response: { 200: apiSchema('ip-geolocation/lookup-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const ips = batchOf(body, ctx);
          const records = await geo.lookupAll(ips);
          return sBatch(ips, records, await geo.ready());
        },
      },
      {
        convention: 'R',
        method: 'GET',
        path: '/api/v1/geoip/{ip}',
        operationId: 'geoipLookup',
        summary: 'Geolocate an IP address',
        description: `\`asn\` is an integer. ${ADDRESSES} ${DATA} Anything else is refused with 400.`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          params: apiSchema('ip-geolocation/geoip-params.json'),
          response: { 200: apiSchema('ip-geolocation/geoip-response.json') },
        },
        async handler({ params }) {
          const record = await geo.lookup(params.ip!);
          return rLookup(record, await geo.ready());
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/geoip/batch',
        operationId: 'geoipBatch',
        summary: 'Geolocate up to 100 IP addresses',
        description: `${BATCH} Items have the fields of GET /api/v1/geoip/{ip}. ${ADDRESSES} ${DATA}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'ips', max: BATCH_MAX },
        schemas: {
          body: apiSchema('ip-geolocation/batch-request.json'),
          response: { 200: apiSchema('ip-geolocation/geoip-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const ips = batchOf(body, ctx);
          const records = await geo.lookupAll(ips);
          return rBatch(ips, records, await geo.ready());
        },
      },
    ],
  };
}
