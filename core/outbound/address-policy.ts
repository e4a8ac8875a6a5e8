import ipaddr from 'ipaddr.js';
import {
  IPV4_SPECIAL_RANGES,
  IPV6_GLOBAL_UNICAST,
  IPV6_RESERVED,
  IPV6_SPECIAL_RANGES,
  type SpecialRange,
} from './special-ranges.js';

/**
 * Which addresses an outbound connection may reach (DESIGN.md section 6). Pure: no DNS, no sockets.
 *
 * A host is judged by the address the connection would really use, so every spelling of that address must parse
 * to the same thing: IPv4 is read the way WHATWG URL and inet_aton read it (1 to 4 parts, each decimal, octal
 * with a leading 0 or hex with 0x: `127.1`, `0x7f.1`, `0177.0.0.1`, `017700000001`, `2130706433`), IPv6 in
 * any compression (`000:0:0000::01` is `::1`), and IPv4 hidden inside IPv6 is unwrapped.
 */

export type IpFamily = 4 | 6;

export interface IpLiteral {
  readonly family: IpFamily;
  /** Canonical text: dotted quad, or RFC 5952 IPv6 without brackets (a zone id kept as `%zone`). */
  readonly address: string;
}

/** One part of a legacy IPv4 address; null when the part is not a number in any base. */
function parseIpv4Number(part: string): number | null {
  if (part === '') return null;
  let radix = 10;
  let digits = part;
  if (/^0x/i.test(part)) {
    radix = 16;
    digits = part.slice(2);
  } else if (part.length > 1 && part.startsWith('0')) {
    radix = 8;
    digits = part.slice(1);
  }
  // WHATWG: a bare "0x" is zero.
  if (digits === '') return 0;
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return null;
  // Long digit strings only need to be recognisably too big; precision beyond 2^53 does not matter.
  return Number.parseInt(digits.length > 40 ? digits.slice(0, 40) : digits, radix);
}

/**
 * The WHATWG URL IPv4 parser (the inet_aton forms): the dotted quad of `text`, or null when `text` is not an IPv4
 * address in any spelling. A single trailing dot is allowed (`127.0.0.1.`).
 */
export function parseLegacyIpv4(text: string): string | null {
  const parts = text.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIpv4Number(part);
    if (n === null) return null;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/**
 * WHATWG "ends in a number": a host whose last label is numeric must be an IPv4 address (or is invalid), so
 * `1.2.3.4.5` or `example.0x10` never reach DNS as names.
 */
export function endsInNumber(host: string): boolean {
  const parts = host.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const last = parts[parts.length - 1] ?? '';
  if (last === '') return false;
  return /^[0-9]+$/.test(last) || parseIpv4Number(last) !== null;
}

const DOTTED_QUAD = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * RFC 4291 text (as WHATWG URL and inet_pton read it): eight 16-bit words, one `::`, an optional strict dotted
 * quad as the last 32 bits, an optional `%zone`. ipaddr.js is not used here: it reads `::a.b.c.d` as IPv4-mapped
 * and accepts hex or octal in the dotted tail.
 */
export function parseIpv6(text: string): { parts: number[]; zone: string } | null {
  const at = text.indexOf('%');
  const zone = at < 0 ? '' : text.slice(at + 1);
  const body = at < 0 ? text : text.slice(0, at);
  if ((at >= 0 && !/^[0-9a-z_.-]+$/i.test(zone)) || !/^[0-9a-f:.]+$/i.test(body)) return null;
  let groups = body;
  const tail: number[] = [];
  if (body.includes('.')) {
    const cut = body.lastIndexOf(':');
    const quad = body.slice(cut + 1);
    if (!DOTTED_QUAD.test(quad)) return null;
    const [a, b, c, d] = quad.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    // Keep a `::` that ends right before the quad; drop the lone separator otherwise.
    groups = body.slice(0, cut + 1);
    if (!groups.endsWith('::')) groups = groups.slice(0, -1);
  }
  const halves = groups.split('::');
  if (halves.length > 2) return null;
  const words = (half: string): number[] | null => {
    if (half === '') return [];
    const out: number[] = [];
    for (const w of half.split(':')) {
      if (!/^[0-9a-f]{1,4}$/i.test(w)) return null;
      out.push(Number.parseInt(w, 16));
    }
    return out;
  };
  const head = words(halves[0]!);
  const rest = halves.length === 2 ? words(halves[1]!) : [];
  if (!head || !rest) return null;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1) return given === 8 ? { parts: [...head, ...tail], zone } : null;
  if (given > 7) return null;
  return { parts: [...head, ...new Array<number>(8 - given).fill(0), ...rest, ...tail], zone };
}

/**
 * `text` as an IP literal in any spelling (IPv6 with or without brackets), or null for anything else, which is
 * then a DNS name or invalid.
 */
export function parseIpLiteral(text: string): IpLiteral | null {
  const bracketed = text.startsWith('[') && text.endsWith(']');
  const inner = bracketed ? text.slice(1, -1) : text;
  if (inner.includes(':')) {
    const v6 = parseIpv6(inner);
    if (!v6) return null;
    const zone = v6.zone ? `%${v6.zone}` : '';
    return { family: 6, address: `${new ipaddr.IPv6(v6.parts).toRFC5952String()}${zone}` };
  }
  if (bracketed) return null;
  const v4 = parseLegacyIpv4(inner);
  return v4 === null ? null : { family: 4, address: v4 };
}

export interface AddressClass {
  /** Canonical text of the address. */
  readonly address: string;
  readonly family: IpFamily;
  /** The special-purpose range it falls in (the most specific one); null for global unicast. */
  readonly range: SpecialRange | null;
  /** The IPv4 addresses an embedding range carries, judged in the range's place. */
  readonly embedded: readonly AddressClass[];
  /** Reachable on the public internet: outside every special range, or embedding only public IPv4. */
  readonly public: boolean;
}

type Parsed = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Most specific first, so `::1/128` wins over `::/96` and Teredo over 2001::/23. */
const compile = (ranges: readonly SpecialRange[]): { range: SpecialRange; cidr: Parsed }[] =>
  ranges
    .map((range) => ({ range, cidr: ipaddr.parseCIDR(range.cidr) as Parsed }))
    .sort((a, b) => b.cidr[1] - a.cidr[1]);

const V4_TABLE = compile(IPV4_SPECIAL_RANGES);
const V6_TABLE = compile(IPV6_SPECIAL_RANGES);
const V6_GLOBAL = ipaddr.parseCIDR(IPV6_GLOBAL_UNICAST.cidr) as Parsed;

/** A zone id only means something for link-local and multicast scopes, none of which may be reached. */
const SCOPED: SpecialRange = { cidr: '', name: 'Scoped address (zone id)', rfc: 'RFC 4007' };

const v4FromWords = (high: number, low: number): string =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/** The IPv4 addresses a range of kind `embeds` carries inside `parts` (eight 16-bit words). */
function embeddedIpv4(embeds: NonNullable<SpecialRange['embeds']>, parts: readonly number[]): string[] {
  const w = (i: number) => parts[i] ?? 0;
  switch (embeds) {
    case 'mapped':
    case 'nat64':
      return [v4FromWords(w(6), w(7))];
    case '6to4':
      return [v4FromWords(w(1), w(2))];
    case 'teredo':
      // Server in bits 32-63; the client's address is stored bit-inverted in the last 32 bits (RFC 4380).
      return [v4FromWords(w(2), w(3)), v4FromWords(~w(6) & 0xffff, ~w(7) & 0xffff)];
  }
}

function classifyIpv4(address: string): AddressClass {
  const ip = ipaddr.IPv4.parse(address);
  const hit = V4_TABLE.find((e) => ip.match(e.cidr as [ipaddr.IPv4, number]));
  return { address, family: 4, range: hit?.range ?? null, embedded: [], public: !hit };
}

function classifyIpv6(address: string): AddressClass {
  const parsed = parseIpv6(address)!;
  if (parsed.zone) return { address, family: 6, range: SCOPED, embedded: [], public: false };
  const ip = new ipaddr.IPv6(parsed.parts);
  const hit = V6_TABLE.find((e) => ip.match(e.cidr as [ipaddr.IPv6, number]));
  if (hit?.range.embeds) {
    const embedded = embeddedIpv4(hit.range.embeds, ip.parts).map(classifyIpv4);
    return { address, family: 6, range: hit.range, embedded, public: embedded.every((e) => e.public) };
  }
  if (hit) return { address, family: 6, range: hit.range, embedded: [], public: false };
  if (!ip.match(V6_GLOBAL as [ipaddr.IPv6, number])) {
    return { address, family: 6, range: IPV6_RESERVED, embedded: [], public: false };
  }
  return { address, family: 6, range: null, embedded: [], public: true };
}

/** Classifies an IP literal (any spelling `parseIpLiteral` accepts). Throws on anything that is not one. */
export function classifyAddress(text: string): AddressClass {
  const literal = parseIpLiteral(text);
  if (!literal) throw new Error(`not an IP address: ${JSON.stringify(text)}`);
  return literal.family === 4 ? classifyIpv4(literal.address) : classifyIpv6(literal.address);
}

/** Why an address is what it is, for logs and error details (never for response bodies). */
export function describeClass(c: AddressClass): string {
  if (c.public || !c.range) return 'public';
  const own = `${c.range.name}${c.range.cidr ? ` ${c.range.cidr}` : ''} (${c.range.rfc})`;
  const inner = c.embedded.filter((e) => !e.public).map((e) => `embeds ${e.address}: ${describeClass(e)}`);
  return inner.length > 0 ? `${own}, ${inner.join('; ')}` : own;
}

export interface Verdict {
  readonly allowed: boolean;
  /** Canonical text of the judged address. */
  readonly address: string;
  /** What to connect to: the address itself, or the IPv4 address an IPv4-mapped one stands for. */
  readonly connectAddress: string;
  readonly family: IpFamily;
  /** `public`, `allow-listed by <cidr>`, or the range that refuses it. */
  readonly reason: string;
}

export interface AddressPolicy {
  /** The operator's allow-list (OUTBOUND_ALLOW_CIDRS) as given. */
  readonly allowCidrs: readonly string[];
  /** Judges an IP literal. Throws on anything that is not one. */
  check(address: string): Verdict;
}

/** An allow-list entry: CIDR or bare address; IPv4-mapped IPv6 ranges (prefix ≥ 96) are stored as IPv4. */
function parseAllowCidr(text: string): Parsed {
  const [addr = '', len, extra] = text.trim().split('/');
  const literal = parseIpLiteral(addr);
  const bits = len === undefined ? (literal?.family === 6 ? 128 : 32) : Number(len);
  const max = literal?.family === 6 ? 128 : 32;
  if (
    !literal ||
    extra !== undefined ||
    !/^\d{1,3}$/.test(String(bits)) ||
    bits > max ||
    literal.address.includes('%')
  ) {
    throw new Error(`OUTBOUND_ALLOW_CIDRS: not a CIDR range: ${JSON.stringify(text)}`);
  }
  if (literal.family === 6) {
    const ip = new ipaddr.IPv6(parseIpv6(literal.address)!.parts);
    if (ip.isIPv4MappedAddress() && bits >= 96) return [ip.toIPv4Address(), bits - 96];
    return [ip, bits];
  }
  return [ipaddr.IPv4.parse(literal.address), bits];
}

/**
 * The policy for one allow-list. An allowed range lets exactly that range through (it is matched against the
 * address connected to, so `::ffff:127.0.0.1` counts as 127.0.0.1); everything else must be public.
 */
export function createAddressPolicy(allowCidrs: readonly string[] = []): AddressPolicy {
  const allow = allowCidrs.map((text) => ({ text, cidr: parseAllowCidr(text) }));
  return {
    allowCidrs: Object.freeze([...allowCidrs]),
    check(text) {
      const c = classifyAddress(text);
      const connectAddress = c.range?.embeds === 'mapped' ? c.embedded[0]!.address : c.address;
      const family: IpFamily = connectAddress.includes(':') ? 6 : 4;
      if (!connectAddress.includes('%')) {
        const ip =
          family === 6
            ? new ipaddr.IPv6(parseIpv6(connectAddress)!.parts)
            : ipaddr.IPv4.parse(connectAddress);
        const hit = allow.find((a) => a.cidr[0].kind() === ip.kind() && ip.match(a.cidr));
        if (hit) {
          return {
            allowed: true,
            address: c.address,
            connectAddress,
            family,
            reason: `allow-listed by ${hit.text}`,
          };
        }
      }
      return { allowed: c.public, address: c.address, connectAddress, family, reason: describeClass(c) };
    },
  };
}
