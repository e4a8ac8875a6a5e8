import tzlookup from 'tz-lookup';

/** The location part of an answer; null wherever the database has nothing. */
export interface CityFields {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly country: string | null;
  readonly countryName: string | null;
  /** First-level subdivision (state, province, region). */
  readonly region: string | null;
  readonly city: string | null;
  readonly latitude: number | null;
  readonly longitude: number | null;
  /** IANA time zone name. */
  readonly timezone: string | null;
}

export const NO_CITY: CityFields = Object.freeze({
  country: null,
  countryName: null,
  region: null,
  city: null,
  latitude: null,
  longitude: null,
  timezone: null,
});

type Rec = Readonly<Record<string, unknown>>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** A GeoIP2 `names` map: English, else any language the record has. */
function name(record: unknown): string | null {
  if (!isRec(record) || !isRec(record.names)) return null;
  return text(record.names.en) ?? Object.values(record.names).map(text).find(Boolean) ?? null;
}

/** ZZ is "unknown" in several databases; anything but two letters is no country code. */
function countryCode(v: unknown): string | null {
  const code = text(v)?.toUpperCase() ?? null;
  return code && /^[A-Z]{2}$/.test(code) && code !== 'ZZ' ? code : null;
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
/** ICU look-ups cost microseconds each and there are fewer than 300 codes. */
const countryNames = new Map<string, string | null>();

/** CLDR's English name of a region code (Node ships full ICU); null when CLDR does not know the code. */
export function countryNameOf(code: string): string | null {
  let found = countryNames.get(code);
  if (found === undefined) {
    const name = REGION_NAMES.of(code);
    found = name && name !== code ? name : null;
    countryNames.set(code, found);
  }
  return found;
}

/** About 11 m: far finer than any IP database is right, and free of float32 noise (37.422000885009766). */
const round4 = (x: number): number => {
  const r = Math.round(x * 1e4) / 1e4;
  return Object.is(r, -0) ? 0 : r;
};

function coordinate(v: unknown, limit: number): number | null {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit ? round4(v) : null;
}

/** The time zone at the coordinates, from tz-lookup's polygons (approximate near borders). */
export function timezoneAt(latitude: number, longitude: number): string | null {
  try {
    return tzlookup(latitude, longitude);
  } catch {
    return null;
  }
}

/**
 * Maps a city database record to the answer's fields. Two layouts are read:
 * - ip-location-db's DB-IP mmdb: flat `{country_code, state1, state2, city, postcode, latitude, longitude,
 *   timezone}` with "" for unknown;
 * - MaxMind GeoIP2/GeoLite2 City or Country: `{country, registered_country, subdivisions, city, location}`.
 * The country is where the address is located, else (GeoIP2 anycast and satellite ranges) where it is
 * registered. A missing time zone is derived from the coordinates; (0, 0) means "no coordinates".
 */
export function cityFields(record: unknown): CityFields {
  if (!isRec(record)) return NO_CITY;
  let country: string | null;
  let countryName: string | null = null;
  let region: string | null;
  let city: string | null;
  let lat: unknown;
  let lon: unknown;
  let zone: string | null;
  if ('country_code' in record) {
    country = countryCode(record.country_code);
    region = text(record.state1);
    city = text(record.city);
    lat = record.latitude;
    lon = record.longitude;
    zone = text(record.timezone);
  } else {
    const placed = isRec(record.country) ? record.country : record.registered_country;
    country = isRec(placed) ? countryCode(placed.iso_code) : null;
    countryName = country ? name(placed) : null;
    region = Array.isArray(record.subdivisions) ? name(record.subdivisions[0]) : null;
    city = name(record.city);
    const location = isRec(record.location) ? record.location : {};
    lat = location.latitude;
    lon = location.longitude;
    zone = text(location.time_zone);
  }
  let latitude = coordinate(lat, 90);
  let longitude = coordinate(lon, 180);
  if (latitude === null || longitude === null || (latitude === 0 && longitude === 0)) {
    latitude = null;
    longitude = null;
  }
  return {
    country,
    countryName: countryName ?? (country ? countryNameOf(country) : null),
    region,
    city,
    latitude,
    longitude,
    timezone: zone ?? (latitude !== null && longitude !== null ? timezoneAt(latitude, longitude) : null),
  };
}
