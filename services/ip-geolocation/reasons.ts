import type { SpecialRange } from '../../core/outbound/special-ranges.js';

/**
 * The `reason` a reserved address is answered with: what the range is for, in lower case, and its defining
 * RFC. Keyed by the CIDR of core/outbound/special-ranges.ts, so the geolocation answer and the SSRF guard
 * never disagree on which addresses are special; only the wording is this service's.
 */
const LABELS: Readonly<Record<string, string>> = {
  // IPv4
  '0.0.0.0/8': 'this network (RFC 791)',
  '10.0.0.0/8': 'private (RFC 1918)',
  '100.64.0.0/10': 'shared address space, carrier-grade NAT (RFC 6598)',
  '127.0.0.0/8': 'loopback (RFC 1122)',
  '169.254.0.0/16': 'link-local (RFC 3927)',
  '172.16.0.0/12': 'private (RFC 1918)',
  '192.0.0.0/24': 'IETF protocol assignments (RFC 6890)',
  '192.0.0.0/29': 'IPv4 service continuity prefix, DS-Lite (RFC 7335)',
  '192.0.0.8/32': 'IPv4 dummy address (RFC 7600)',
  '192.0.0.9/32': 'port control protocol anycast (RFC 7723)',
  '192.0.0.10/32': 'TURN anycast (RFC 8155)',
  '192.0.0.170/32': 'NAT64/DNS64 discovery (RFC 8880)',
  '192.0.0.171/32': 'NAT64/DNS64 discovery (RFC 8880)',
  '192.0.2.0/24': 'documentation, TEST-NET-1 (RFC 5737)',
  '192.31.196.0/24': 'AS112 (RFC 7535)',
  '192.52.193.0/24': 'automatic multicast tunneling (RFC 7450)',
  '192.88.99.0/24': 'deprecated 6to4 relay anycast (RFC 7526)',
  '192.88.99.2/32': '6a44 relay anycast (RFC 6751)',
  '192.168.0.0/16': 'private (RFC 1918)',
  '192.175.48.0/24': 'AS112 direct delegation (RFC 7534)',
  '198.18.0.0/15': 'benchmarking (RFC 2544)',
  '198.51.100.0/24': 'documentation, TEST-NET-2 (RFC 5737)',
  '203.0.113.0/24': 'documentation, TEST-NET-3 (RFC 5737)',
  '224.0.0.0/4': 'multicast (RFC 5771)',
  '233.252.0.0/24': 'multicast documentation (RFC 6676)',
  '240.0.0.0/4': 'reserved (RFC 1112)',
  '255.255.255.255/32': 'limited broadcast (RFC 919)',
  // IPv6
  '::/128': 'unspecified (RFC 4291)',
  '::1/128': 'loopback (RFC 4291)',
  '::/96': 'IPv4-compatible IPv6, deprecated (RFC 4291)',
  '::ffff:0:0/96': 'IPv4-mapped IPv6 (RFC 4291)',
  '::ffff:0:0:0/96': 'IPv4-translated IPv6 (RFC 2765)',
  '64:ff9b::/96': 'NAT64 well-known prefix (RFC 6052)',
  '64:ff9b:1::/48': 'NAT64 local use (RFC 8215)',
  '100::/64': 'discard-only (RFC 6666)',
  '100:0:0:1::/64': 'dummy IPv6 prefix (RFC 9780)',
  '2001::/23': 'IETF protocol assignments (RFC 2928)',
  '2001::/32': 'Teredo (RFC 4380)',
  '2001:1::1/128': 'port control protocol anycast (RFC 7723)',
  '2001:1::2/128': 'TURN anycast (RFC 8155)',
  '2001:1::3/128': 'DNS-SD service registration anycast (RFC 9665)',
  '2001:2::/48': 'benchmarking (RFC 5180)',
  '2001:3::/32': 'automatic multicast tunneling (RFC 7450)',
  '2001:4:112::/48': 'AS112 (RFC 7535)',
  '2001:10::/28': 'deprecated ORCHID (RFC 4843)',
  '2001:20::/28': 'ORCHIDv2 (RFC 7343)',
  '2001:30::/28': 'drone remote ID (RFC 9374)',
  '2001:db8::/32': 'documentation (RFC 3849)',
  '2002::/16': '6to4 (RFC 3056)',
  '2620:4f:8000::/48': 'AS112 direct delegation (RFC 7534)',
  '3fff::/20': 'documentation (RFC 9637)',
  '5f00::/16': 'segment routing SIDs (RFC 9602)',
  'fc00::/7': 'unique local (RFC 4193)',
  'fe80::/10': 'link-local (RFC 4291)',
  'fec0::/10': 'site-local, deprecated (RFC 3879)',
  'ff00::/8': 'multicast (RFC 4291)',
  '::/0': 'reserved by the IETF, outside global unicast (RFC 4291)',
};

/** A range added to core later still gets a sensible reason: its registry name and first RFC. */
export function reasonFor(range: SpecialRange): string {
  return LABELS[range.cidr] ?? `${range.name} (${range.rfc.split(',')[0]!.trim()})`;
}

/** For the completeness test: the ranges that have a worded label. */
export const labelledCidrs = (): readonly string[] => Object.keys(LABELS);
