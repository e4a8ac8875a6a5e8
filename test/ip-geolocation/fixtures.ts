import { type MmdbNetwork, writeMmdb } from './mmdb-writer.js';

/**
 * MaxMind-shaped databases for the GEOIP_CITY_DB / GEOIP_ASN_DB paths, in the layouts of GeoIP2/GeoLite2
 * City, Country, ASN and ISP. The addresses are public (outside every special range); the answers are made up
 * here.
 */
const names = (en: string, extra: Record<string, string> = {}) => ({ en, ...extra });

const london = {
  city: { geoname_id: 2643743, names: names('London', { de: 'London' }) },
  continent: { code: 'EU', geoname_id: 6255148, names: names('Europe') },
  country: { geoname_id: 2635167, iso_code: 'GB', names: names('United Kingdom') },
  location: { accuracy_radius: 20, latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London' },
  registered_country: { geoname_id: 2635167, iso_code: 'GB', names: names('United Kingdom') },
  subdivisions: [{ geoname_id: 6269131, iso_code: 'ENG', names: names('England') }],
};
const tokyo = {
  city: { geoname_id: 1850147, names: { ja: '東京' } },
  country: { geoname_id: 1861060, iso_code: 'JP', names: names('Japan') },
  location: { accuracy_radius: 50, latitude: 35.6895, longitude: 139.6917 },
  subdivisions: [{ geoname_id: 1850144, iso_code: '13', names: names('Tokyo') }],
};
/** Anycast: no located country, only the registered one. */
const anycast = {
  registered_country: { geoname_id: 6252001, iso_code: 'US', names: names('United States') },
  traits: { is_anycast: true },
};

export const CITY_NETWORKS: MmdbNetwork[] = [
  { cidr: '81.2.69.0/24', data: london },
  { cidr: '2a02:8800::/32', data: london },
  { cidr: '27.96.0.0/16', data: tokyo },
  { cidr: '198.41.0.0/24', data: anycast },
];

export const ASN_NETWORKS: MmdbNetwork[] = [
  {
    cidr: '81.2.69.0/24',
    data: { autonomous_system_number: 20712, autonomous_system_organization: 'Andrews & Arnold Ltd' },
  },
  {
    cidr: '2a02:8800::/32',
    data: { autonomous_system_number: 6830, autonomous_system_organization: 'Liberty Global B.V.' },
  },
  {
    cidr: '27.96.0.0/16',
    data: {
      autonomous_system_number: 2497,
      autonomous_system_organization: 'Internet Initiative Japan Inc.',
    },
  },
];

export const ISP_NETWORKS: MmdbNetwork[] = [
  {
    cidr: '81.2.69.0/24',
    data: {
      autonomous_system_number: 20712,
      autonomous_system_organization: 'Andrews & Arnold Ltd',
      isp: 'Andrews & Arnold',
      organization: 'A&A customer',
    },
  },
];

export const BUILT = new Date('2025-04-01T12:00:00Z');

export const geoLite2City = () =>
  writeMmdb(CITY_NETWORKS, { databaseType: 'GeoLite2-City', buildEpoch: BUILT });
export const geoIp2City = () => writeMmdb(CITY_NETWORKS, { databaseType: 'GeoIP2-City', buildEpoch: BUILT });
export const geoLite2Asn = () =>
  writeMmdb(ASN_NETWORKS, { databaseType: 'GeoLite2-ASN', buildEpoch: new Date('2025-04-08T00:00:00Z') });
export const geoIp2Isp = () => writeMmdb(ISP_NETWORKS, { databaseType: 'GeoIP2-ISP', buildEpoch: BUILT });
/** IPv4 only: IPv6 addresses cannot be looked up in it. */
export const geoLite2CountryV4 = () =>
  writeMmdb([{ cidr: '81.2.69.0/24', data: { country: london.country } }], {
    databaseType: 'GeoLite2-Country',
    ipVersion: 4,
    buildEpoch: BUILT,
  });
