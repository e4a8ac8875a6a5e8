import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeMmdb } from '../ip-geolocation/mmdb-writer.js';

/**
 * Small MaxMind-shaped databases and feed files for the reputation tests. Addresses are public; the networks'
 * owners are real where it matters (AS16509 is Amazon's) and the lists' contents are made up.
 */
const country = (iso: string, en: string) => ({ country: { geoname_id: 1, iso_code: iso, names: { en } } });

export const RESIDENTIAL = '81.2.69.160';
export const AWS = '52.95.110.1';
export const TOR_EXIT = '185.220.101.1';
export const NETSET_HIT = '5.188.11.20';
export const DROP_HIT = '1.10.20.1';
export const PROXY = '103.149.162.194';
export const CLEAN_V6 = '2a02:8800::1';

export function writeGeoDbs(dir: string): { cityDb: string; asnDb: string } {
  const when = { buildEpoch: new Date('2026-01-01T00:00:00Z') };
  const cityDb = join(dir, 'city.mmdb');
  const asnDb = join(dir, 'asn.mmdb');
  writeFileSync(
    cityDb,
    writeMmdb(
      [
        { cidr: '81.2.69.0/24', data: country('GB', 'United Kingdom') },
        { cidr: '52.95.110.0/24', data: country('US', 'United States') },
        { cidr: '185.220.101.0/24', data: country('DE', 'Germany') },
        { cidr: '2a02:8800::/32', data: country('NL', 'Netherlands') },
      ],
      { databaseType: 'GeoLite2-City', ...when },
    ),
  );
  const as = (n: number, org: string) => ({
    autonomous_system_number: n,
    autonomous_system_organization: org,
  });
  writeFileSync(
    asnDb,
    writeMmdb(
      [
        { cidr: '81.2.69.0/24', data: as(20712, 'Andrews & Arnold Ltd') },
        { cidr: '52.95.110.0/24', data: as(16509, 'AMAZON-02') },
        { cidr: '185.220.101.0/24', data: as(208294, 'Stiftung Erneuerbare Freiheit') },
        { cidr: '2a02:8800::/32', data: as(6830, 'Liberty Global B.V.') },
      ],
      { databaseType: 'GeoLite2-ASN', ...when },
    ),
  );
  return { cityDb, asnDb };
}

/** The Tor bulk exit list: one address a line. */
export const TOR_LIST = `${TOR_EXIT}\n185.220.101.33\n2001:67c:e60:c0c:192:42:116:16\n`;

/** A FireHOL netset: header comments, CIDR ranges, single addresses, a commented-out range. */
export const NETSET = [
  '#',
  '# firehol_level1',
  '# ipv4 hash:net ipset',
  '#',
  '5.188.10.0/23',
  '31.184.196.0/22',
  '45.155.205.233',
  '# 81.2.69.0/24 removed',
  '',
].join('\n');

/** Spamhaus DROP. */
export const DROP = '; Spamhaus DROP List\n; Last-Modified: Thu, 01 Jan 2026\n1.10.16.0/20 ; SBL256894\n';

/** A plain list of open proxies. */
export const PROXIES = `${PROXY}\n103.152.112.162\n`;
