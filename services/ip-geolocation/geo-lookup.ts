import { statSync } from 'node:fs';
import { AppError } from '../../core/errors/catalogue.js';
import { INVALID_IP, parseIpInput } from './address.js';
import { type CityFields, cityFields, NO_CITY } from './city-record.js';
import {
  type AsnSource,
  type Attribution,
  type CitySource,
  type DatabaseInfo,
  openAsnMmdb,
  openBundledAsn,
  openCitySource,
} from './sources.js';

export type { Attribution, DatabaseInfo } from './sources.js';

export interface GeoLookupOptions {
  /** An MMDB city database (MaxMind GeoIP2/GeoLite2 City or Country); default the bundled DB-IP Lite City. */
  readonly cityDb?: string;
  /** An MMDB ASN database (MaxMind GeoLite2-ASN or GeoIP2-ISP); default the bundled ip-location-db tables. */
  readonly asnDb?: string;
}

/**
 * One address, located. Every field is null for reserved addresses and wherever the databases know nothing.
 */
export interface GeoRecord extends CityFields {
  /** The address as given. */
  readonly ip: string;
  /** A special-purpose address (private, loopback, documentation, …): not on the public internet. */
  readonly reserved: boolean;
  /** Why it is reserved, e.g. "private (RFC 1918)"; null for public addresses. */
  readonly reason: string | null;
  /** The ISP where the database names one, else the AS organization. */
  readonly isp: string | null;
  readonly asn: number | null;
  readonly asnOrg: string | null;
}

/** Which data answered: reported with every response, as the data licences ask. */
export interface GeoSources {
  readonly database: DatabaseInfo;
  readonly asnDatabase: DatabaseInfo;
  /** Every attribution the data in use requires, once each; empty for data that requires none. */
  readonly attribution: readonly Attribution[];
}

interface Loaded {
  readonly city: CitySource;
  readonly asn: AsnSource;
  readonly sources: GeoSources;
}

function mustBeFile(file: string, what: string): void {
  let ok = false;
  try {
    ok = statSync(file).isFile();
  } catch {
    ok = false;
  }
  if (!ok) throw new Error(`IP geolocation: the ${what} database ${JSON.stringify(file)} is not a file`);
}

/**
 * IP address → location, network and ISP, over a city database and an ASN database. The databases are read on
 * the first lookup (or `ready()`), not at construction, and kept for the life of the object: build one per
 * process and hand it to every service that needs it. A failed load is retried by the next call.
 */
export class GeoLookup {
  private loading: Promise<Loaded> | null = null;

  constructor(private readonly options: GeoLookupOptions = {}) {
    // A misspelt setting should stop the start-up, not surface as errors on the first call.
    if (options.cityDb) mustBeFile(options.cityDb, 'city');
    if (options.asnDb) mustBeFile(options.asnDb, 'ASN');
  }

  /** Loads the databases (once) and says which they are. */
  async ready(): Promise<GeoSources> {
    return (await this.load()).sources;
  }

  /**
   * Locates one address; a malformed one is 400 VALIDATION_ERROR `ip: must be a valid IPv4 or IPv6 address`.
   */
  async lookup(ip: string): Promise<GeoRecord> {
    const loaded = await this.load();
    const record = this.resolve(loaded, ip);
    if (!record) throw new AppError('VALIDATION_ERROR', `ip: ${INVALID_IP}`);
    return record;
  }

  /** Locates each address on its own: null in the place of one that is not an IP address. */
  async lookupAll(ips: readonly string[]): Promise<(GeoRecord | null)[]> {
    const loaded = await this.load();
    return ips.map((ip) => this.resolve(loaded, ip));
  }

  private load(): Promise<Loaded> {
    if (!this.loading) {
      const { cityDb, asnDb } = this.options;
      this.loading = Promise.all([
        openCitySource(cityDb ?? null),
        asnDb ? openAsnMmdb(asnDb) : openBundledAsn(),
      ]).then(([city, asn]) => ({ city, asn, sources: describe(city, asn) }));
      this.loading.catch(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }

  private resolve({ city, asn }: Loaded, ip: string): GeoRecord | null {
    const target = parseIpInput(ip);
    if (target.kind === 'invalid') return null;
    if (target.kind === 'reserved') {
      return { ip, reserved: true, reason: target.reason, ...NO_CITY, isp: null, asn: null, asnOrg: null };
    }
    const network = asn.lookup(target);
    return {
      ip,
      reserved: false,
      reason: null,
      ...cityFields(city.record(target)),
      isp: network?.isp ?? network?.org ?? null,
      asn: network?.asn ?? null,
      asnOrg: network?.org ?? null,
    };
  }
}

function describe(city: CitySource, asn: AsnSource): GeoSources {
  const attribution = new Map<string, Attribution>();
  for (const a of [...city.attribution, ...asn.attribution]) attribution.set(a.url, a);
  return { database: city.info, asnDatabase: asn.info, attribution: [...attribution.values()] };
}
