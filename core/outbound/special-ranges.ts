/**
 * Every address range an outbound connection must not reach unless an operator allowed it: the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (RFC 6890 and its updates, as of 2025), plus the non-unicast and deprecated
 * blocks those registries leave to other documents (multicast, site-local, IPv4-compatible and -translated IPv6).
 *
 * Every entry is refused, including the few the registries mark "globally reachable" (PCP/TURN anycast, AMT,
 * AS112): no user-named target lives there, and a short explicit list is easier to audit than flags.
 * Four IPv6 blocks carry an IPv4 address that decides instead (`embeds`): an IPv4-mapped address IS that IPv4
 * address (it is connected to as IPv4), and NAT64's well-known prefix, 6to4 and Teredo reach the embedded IPv4
 * host, so they are as public as that host is.
 */
export interface SpecialRange {
  readonly cidr: string;
  readonly name: string;
  /** The defining document(s). */
  readonly rfc: string;
  /** The range is judged by the IPv4 address(es) it embeds rather than refused as a whole. */
  readonly embeds?: 'mapped' | 'nat64' | '6to4' | 'teredo';
}

export const IPV4_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"This network"', rfc: 'RFC 791, RFC 1122' },
  { cidr: '10.0.0.0/8', name: 'Private-Use', rfc: 'RFC 1918' },
  { cidr: '100.64.0.0/10', name: 'Shared Address Space (CGNAT)', rfc: 'RFC 6598' },
  { cidr: '127.0.0.0/8', name: 'Loopback', rfc: 'RFC 1122' },
  { cidr: '169.254.0.0/16', name: 'Link Local (incl. cloud metadata 169.254.169.254)', rfc: 'RFC 3927' },
  { cidr: '172.16.0.0/12', name: 'Private-Use', rfc: 'RFC 1918' },
  { cidr: '192.0.0.0/24', name: 'IETF Protocol Assignments', rfc: 'RFC 6890' },
  { cidr: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix (DS-Lite)', rfc: 'RFC 7335' },
  { cidr: '192.0.0.8/32', name: 'IPv4 dummy address', rfc: 'RFC 7600' },
  { cidr: '192.0.0.9/32', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723' },
  { cidr: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155' },
  { cidr: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050' },
  { cidr: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050' },
  { cidr: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535' },
  { cidr: '192.52.193.0/24', name: 'Automatic Multicast Tunneling', rfc: 'RFC 7450' },
  { cidr: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', rfc: 'RFC 7526' },
  { cidr: '192.88.99.2/32', name: '6a44-relay anycast address', rfc: 'RFC 6751' },
  { cidr: '192.168.0.0/16', name: 'Private-Use', rfc: 'RFC 1918' },
  { cidr: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534' },
  { cidr: '198.18.0.0/15', name: 'Benchmarking', rfc: 'RFC 2544' },
  { cidr: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', rfc: 'RFC 5737' },
  { cidr: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', rfc: 'RFC 5737' },
  { cidr: '224.0.0.0/4', name: 'Multicast', rfc: 'RFC 5771' },
  { cidr: '233.252.0.0/24', name: 'Multicast documentation (MCAST-TEST-NET)', rfc: 'RFC 6676' },
  { cidr: '240.0.0.0/4', name: 'Reserved', rfc: 'RFC 1112' },
  { cidr: '255.255.255.255/32', name: 'Limited Broadcast', rfc: 'RFC 919, RFC 8190' },
];

export const IPV6_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '::/128', name: 'Unspecified Address', rfc: 'RFC 4291' },
  { cidr: '::1/128', name: 'Loopback Address', rfc: 'RFC 4291' },
  { cidr: '::/96', name: 'IPv4-Compatible IPv6 (deprecated)', rfc: 'RFC 4291' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped IPv6', rfc: 'RFC 4291', embeds: 'mapped' },
  { cidr: '::ffff:0:0:0/96', name: 'IPv4-translated IPv6 (SIIT)', rfc: 'RFC 2765' },
  { cidr: '64:ff9b::/96', name: 'IPv4-IPv6 Translation (NAT64)', rfc: 'RFC 6052', embeds: 'nat64' },
  { cidr: '64:ff9b:1::/48', name: 'IPv4-IPv6 Translation (local use)', rfc: 'RFC 8215' },
  { cidr: '100::/64', name: 'Discard-Only Address Block', rfc: 'RFC 6666' },
  { cidr: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', rfc: 'RFC 9780' },
  { cidr: '2001::/23', name: 'IETF Protocol Assignments', rfc: 'RFC 2928' },
  { cidr: '2001::/32', name: 'Teredo', rfc: 'RFC 4380, RFC 8190', embeds: 'teredo' },
  { cidr: '2001:1::1/128', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723' },
  { cidr: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155' },
  { cidr: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast', rfc: 'RFC 9665' },
  { cidr: '2001:2::/48', name: 'Benchmarking', rfc: 'RFC 5180' },
  { cidr: '2001:3::/32', name: 'Automatic Multicast Tunneling', rfc: 'RFC 7450' },
  { cidr: '2001:4:112::/48', name: 'AS112-v6', rfc: 'RFC 7535' },
  { cidr: '2001:10::/28', name: 'Deprecated (previously ORCHID)', rfc: 'RFC 4843' },
  { cidr: '2001:20::/28', name: 'ORCHIDv2', rfc: 'RFC 7343' },
  { cidr: '2001:30::/28', name: 'Drone Remote ID Protocol Entity Tags', rfc: 'RFC 9374' },
  { cidr: '2001:db8::/32', name: 'Documentation', rfc: 'RFC 3849' },
  { cidr: '2002::/16', name: '6to4', rfc: 'RFC 3056', embeds: '6to4' },
  { cidr: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534' },
  { cidr: '3fff::/20', name: 'Documentation', rfc: 'RFC 9637' },
  { cidr: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602' },
  { cidr: 'fc00::/7', name: 'Unique-Local', rfc: 'RFC 4193, RFC 8190' },
  { cidr: 'fe80::/10', name: 'Link-Local Unicast', rfc: 'RFC 4291' },
  { cidr: 'fec0::/10', name: 'Site-Local (deprecated)', rfc: 'RFC 3879' },
  { cidr: 'ff00::/8', name: 'Multicast', rfc: 'RFC 4291' },
];

/**
 * Only 2000::/3 is allocated as global unicast (IANA IPv6 Address Space); everything else that no entry above
 * names is reserved by the IETF and refused as such.
 */
export const IPV6_GLOBAL_UNICAST: SpecialRange = {
  cidr: '2000::/3',
  name: 'Global Unicast',
  rfc: 'RFC 4291',
};

export const IPV6_RESERVED: SpecialRange = {
  cidr: '::/0',
  name: 'Reserved by IETF (outside global unicast 2000::/3)',
  rfc: 'RFC 4291',
};
