import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { AppError, ERRORS, type ErrorCode, problemType } from '../../core/errors/catalogue.js';
import { type LocalDns, startLocalDns } from './local-dns.js';

/**
 * The SSRF suite (DESIGN.md section 6): one table of targets that every route contacting a user-named host must
 * refuse with 403 SSRF_BLOCKED, before any connection is made. Run it against a route like this:
 *
 *   const fx = await startSsrfFixtures();                     // sentinel, "public" server, DNS
 *   const tp = await openTestPlatform({ env: fx.env });       // OUTBOUND_ALLOW_CIDRS + DNS_SERVERS
 *   const run = await runSsrfTable(fx, async (url) => {
 *     const res = await tp.app.inject({ method: 'POST', url: '/api/v1/…', headers, payload: { url } });
 *     return { status: res.statusCode, body: res.json() };
 *   });
 *   expect(run.failures).toEqual([]);
 *   expect(run.sentinelConnections).toEqual([]);
 *
 * How "public" and "forbidden" exist on one machine: the suite's allow-list is exactly 127.0.0.100/32
 * (SSRF_PUBLIC_IP), where a "public-looking" HTTP server redirects to wherever a case says. Everything else
 * local stays forbidden, and a sentinel listening on every local address (IPv4 and IPv6 wildcard) at
 * `sentinel.port` records any connection that gets through: the cases aim at that port, so a guard that let one
 * through would show up there even if the route hid the outcome. 10/8, 169.254.169.254 and the other non-local
 * targets cannot be observed; they are refused by the same check before connecting.
 *
 * Host-based routes (SSL checks, TCP monitors) use `runSsrfTargets` with the cases that have a `target`.
 */

/** Allow-listed in the suite: stands for a public address. Its neighbours 127.0.0.99 and .101 stay forbidden. */
export const SSRF_PUBLIC_IP = '127.0.0.100';
export const SSRF_ALLOW_CIDRS: readonly string[] = [`${SSRF_PUBLIC_IP}/32`];

/** Names under this zone are answered by the fixtures' DNS server. */
export const SSRF_ZONE = 'ssrf.test';

export interface SsrfSentinel {
  readonly port: number;
  /** `remoteAddress -> localAddress` of every connection received. */
  readonly connections: string[];
}

export interface SsrfPublicServer {
  /** `http://127.0.0.100:<port>` */
  readonly origin: string;
  readonly port: number;
  /** `METHOD path` of every request received. */
  readonly requests: string[];
}

export interface SsrfFixtures {
  readonly sentinel: SsrfSentinel;
  /**
   * `/ok` → 200; `/redirect?to=<url>&status=<3xx>` → that redirect (302 by default);
   * `/hop?to=<url>` → 302 to `/redirect?to=<url>` (a refusal on the second hop).
   */
  readonly publicHttp: SsrfPublicServer;
  readonly dns: LocalDns;
  /** For openTestPlatform({ env }) and loadConfig: OUTBOUND_ALLOW_CIDRS and DNS_SERVERS. */
  readonly env: { readonly OUTBOUND_ALLOW_CIDRS: string; readonly DNS_SERVERS: string };
  /** For createOutboundClient: allowCidrs and dnsServers. */
  readonly policy: { readonly allowCidrs: readonly string[]; readonly dnsServers: readonly string[] };
  close(): Promise<void>;
}

/** Names the fixtures' DNS answers (all under SSRF_ZONE). */
export const SSRF_NAMES = {
  public: `public.${SSRF_ZONE}`,
  private: `private.${SSRF_ZONE}`,
  mixed: `mixed.${SSRF_ZONE}`,
  mixedFamily: `mixed-family.${SSRF_ZONE}`,
  v6: `v6.${SSRF_ZONE}`,
  mapped: `mapped.${SSRF_ZONE}`,
  alias: `alias.${SSRF_ZONE}`,
  metadata: `metadata.${SSRF_ZONE}`,
  internal: `internal.${SSRF_ZONE}`,
  nat64: `nat64.${SSRF_ZONE}`,
} as const;

export type SsrfGroup =
  | 'spelling'
  | 'ipv6'
  | 'embedded'
  | 'range'
  | 'name'
  | 'userinfo'
  | 'port'
  | 'allow-list'
  | 'dns'
  | 'redirect';

export type SsrfNeed = 'public-http' | 'dns';

export interface SsrfCase {
  readonly id: string;
  readonly group: SsrfGroup;
  readonly description: string;
  /** Fixtures the case uses besides the sentinel (startSsrfFixtures starts them all). */
  readonly needs: readonly SsrfNeed[];
  readonly url: (fx: SsrfFixtures) => string;
  /**
   * The same target as host and port, for connectors and host-based routes; absent when only a URL can say it
   * (redirects, userinfo, percent-encoding, scheme).
   */
  readonly target?: (fx: SsrfFixtures) => { readonly host: string; readonly port: number };
}

const S = (fx: SsrfFixtures) => fx.sentinel.port;
const redirect = (fx: SsrfFixtures, to: string, status = 302) =>
  `${fx.publicHttp.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

/** A case aimed at `host` on the sentinel port, as URL and as host:port. */
const at = (
  id: string,
  group: SsrfGroup,
  description: string,
  host: string,
  needs: readonly SsrfNeed[] = [],
): SsrfCase => ({
  id,
  group,
  description,
  needs,
  url: (fx) => `http://${host.includes(':') ? `[${host}]` : host}:${S(fx)}/`,
  target: (fx) => ({ host, port: S(fx) }),
});

/** A case only a URL can express. */
const urlOnly = (
  id: string,
  group: SsrfGroup,
  description: string,
  url: (fx: SsrfFixtures) => string,
  needs: readonly SsrfNeed[] = [],
): SsrfCase => ({ id, group, description, needs, url });

/** A case on a fixed port (a service that is not the sentinel), as URL and host:port. */
const onPort = (id: string, group: SsrfGroup, description: string, host: string, port: number): SsrfCase => ({
  id,
  group,
  description,
  needs: [],
  url: () => `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
  target: () => ({ host, port }),
});

export const SSRF_CASES: readonly SsrfCase[] = [
  // Every spelling of 127.0.0.1 that URL parsers and inet_aton accept.
  at('loopback', 'spelling', 'plain loopback 127.0.0.1', '127.0.0.1'),
  at('loopback-short', 'spelling', 'two-part form 127.1', '127.1'),
  at('loopback-three-part', 'spelling', 'three-part form 127.0.1', '127.0.1'),
  at('loopback-hex-short', 'spelling', 'hex first part 0x7f.1', '0x7f.1'),
  at('loopback-octal', 'spelling', 'octal first part 0177.0.0.1', '0177.0.0.1'),
  at('loopback-octal-dword', 'spelling', 'one octal number 017700000001', '017700000001'),
  at('loopback-decimal-dword', 'spelling', 'one decimal number 2130706433', '2130706433'),
  at('loopback-hex-dword', 'spelling', 'one hex number 0x7f000001', '0x7f000001'),
  at('loopback-mixed-bases', 'spelling', 'mixed bases 0x7f.0.00.0x1', '0x7f.0.00.0x1'),
  at('loopback-padded-octal', 'spelling', 'zero-padded octal 0000177.0.0.01', '0000177.0.0.01'),
  at('loopback-trailing-dot', 'spelling', 'trailing dot 127.0.0.1.', '127.0.0.1.'),
  at('loopback-other', 'spelling', 'another loopback address 127.0.0.2', '127.0.0.2'),
  at('loopback-fullwidth', 'spelling', 'full-width digits and ideographic dots', '１２７。０。０。１'),
  urlOnly(
    'loopback-percent-encoded',
    'spelling',
    'percent-encoded host %31%32%37.0.0.1',
    (fx) => `http://%31%32%37.0.0.1:${S(fx)}/`,
  ),
  at('unspecified', 'spelling', '0.0.0.0 (reaches this host)', '0.0.0.0'),
  at('unspecified-short', 'spelling', 'the number 0 (0.0.0.0)', '0'),

  // IPv6 loopback and unspecified in several compressions.
  at('ipv6-loopback', 'ipv6', 'IPv6 loopback [::1]', '::1'),
  at('ipv6-loopback-padded', 'ipv6', 'padded compression [000:0:0000::01]', '000:0:0000::01'),
  at('ipv6-loopback-full', 'ipv6', 'uncompressed [0:0:0:0:0:0:0:1]', '0:0:0:0:0:0:0:1'),
  at('ipv6-unspecified', 'ipv6', 'IPv6 unspecified [::]', '::'),

  // IPv4 inside IPv6.
  at('ipv4-mapped-hex', 'embedded', 'IPv4-mapped [::ffff:7f00:1]', '::ffff:7f00:1'),
  at('ipv4-mapped-dotted', 'embedded', 'IPv4-mapped [::ffff:127.0.0.1]', '::ffff:127.0.0.1'),
  at('ipv4-mapped-long', 'embedded', 'IPv4-mapped uncompressed', '0:0:0:0:0:ffff:7f00:0001'),
  at('ipv4-compatible', 'embedded', 'deprecated IPv4-compatible [::127.0.0.1]', '::127.0.0.1'),
  at('ipv4-translated', 'embedded', 'SIIT IPv4-translated [::ffff:0:7f00:1]', '::ffff:0:7f00:1'),
  at('nat64-loopback', 'embedded', 'NAT64 well-known prefix embedding 127.0.0.1', '64:ff9b::7f00:1'),
  at('nat64-metadata', 'embedded', 'NAT64 embedding 169.254.169.254', '64:ff9b::a9fe:a9fe'),
  at('nat64-local', 'embedded', 'NAT64 local-use prefix 64:ff9b:1::/48', '64:ff9b:1::a00:1'),
  at('6to4-loopback', 'embedded', '6to4 embedding 127.0.0.1', '2002:7f00:1::1'),
  at('6to4-private', 'embedded', '6to4 embedding 192.168.0.1', '2002:c0a8:1::'),
  at(
    'teredo-loopback',
    'embedded',
    'Teredo whose client (bit-inverted) is 127.0.0.1',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
  ),
  at('teredo-private-server', 'embedded', 'Teredo whose server is 10.0.0.1', '2001:0:a00:1::'),

  // Special-purpose ranges (not observable locally; refused by the same check).
  onPort('private-10', 'range', 'RFC 1918 10.0.0.1', '10.0.0.1', 80),
  onPort('private-172', 'range', 'RFC 1918 172.16.0.1', '172.16.0.1', 80),
  onPort('private-192', 'range', 'RFC 1918 192.168.1.1', '192.168.1.1', 80),
  onPort('metadata', 'range', 'cloud metadata 169.254.169.254', '169.254.169.254', 80),
  urlOnly(
    'metadata-decimal',
    'range',
    'cloud metadata as 2852039166',
    () => 'http://2852039166/latest/meta-data/',
  ),
  urlOnly(
    'metadata-hex',
    'range',
    'cloud metadata as 0xa9fea9fe',
    () => 'http://0xa9fea9fe/latest/meta-data/',
  ),
  onPort('cgnat', 'range', 'shared address space 100.64.0.1', '100.64.0.1', 80),
  onPort('benchmarking', 'range', 'benchmarking 198.18.0.1', '198.18.0.1', 80),
  onPort('documentation', 'range', 'TEST-NET-1 192.0.2.1', '192.0.2.1', 80),
  onPort('ietf-protocol', 'range', 'IETF protocol assignments 192.0.0.8', '192.0.0.8', 80),
  onPort('multicast', 'range', 'multicast 224.0.0.1', '224.0.0.1', 80),
  onPort('reserved', 'range', 'reserved 240.0.0.1', '240.0.0.1', 80),
  onPort('broadcast', 'range', 'limited broadcast 255.255.255.255', '255.255.255.255', 80),
  onPort('this-network', 'range', '"this network" 0.1.2.3', '0.1.2.3', 80),
  onPort('ipv6-unique-local', 'range', 'unique-local fd00::1', 'fd00::1', 80),
  onPort('ipv6-link-local', 'range', 'link-local fe80::1', 'fe80::1', 80),
  onPort('ipv6-site-local', 'range', 'deprecated site-local fec0::1', 'fec0::1', 80),
  onPort('ipv6-multicast', 'range', 'multicast ff02::1', 'ff02::1', 80),
  onPort('ipv6-documentation', 'range', 'documentation 2001:db8::1', '2001:db8::1', 80),
  onPort('ipv6-discard', 'range', 'discard-only 100::1', '100::1', 80),

  // Names that are loopback by definition.
  at('localhost', 'name', 'the name localhost', 'localhost'),
  at('localhost-subdomain', 'name', 'a name under .localhost', 'api.localhost'),
  at('localhost-upper-dot', 'name', 'LOCALHOST. in capitals with a final dot', 'LOCALHOST.'),

  // Userinfo: the host after `@` is the target, whatever comes before it.
  urlOnly(
    'userinfo-word',
    'userinfo',
    'http://public@127.0.0.1/',
    (fx) => `http://public@127.0.0.1:${S(fx)}/`,
  ),
  urlOnly(
    'userinfo-public-host',
    'userinfo',
    'the allow-listed host and port as userinfo, 127.0.0.1 as host',
    (fx) => `http://${SSRF_PUBLIC_IP}:${fx.publicHttp.port}@127.0.0.1:${S(fx)}/`,
  ),
  urlOnly(
    'userinfo-public-name',
    'userinfo',
    'a public name as userinfo, [::1] as host',
    (fx) => `http://${SSRF_NAMES.public}:pw@[::1]:${S(fx)}/`,
  ),
  urlOnly('https-loopback', 'userinfo', 'https scheme to 127.0.0.1', (fx) => `https://127.0.0.1:${S(fx)}/`),

  // Internal services on their usual ports.
  onPort('port-redis', 'port', 'Redis on 127.0.0.1:6379', '127.0.0.1', 6379),
  onPort('port-postgres', 'port', 'PostgreSQL on [::1]:5432', '::1', 5432),
  onPort('port-metadata-explicit', 'port', 'metadata with explicit :80', '169.254.169.254', 80),
  onPort('port-kubelet', 'port', 'kubelet on 10.0.0.1:10250', '10.0.0.1', 10250),

  // The allow-list lets exactly its range through: the neighbours stay refused.
  at('allow-neighbour-below', 'allow-list', '127.0.0.99, just below the allowed /32', '127.0.0.99'),
  at('allow-neighbour-above', 'allow-list', '127.0.0.101, just above the allowed /32', '127.0.0.101'),
  at('allow-v6-of-other', 'allow-list', '::ffff:127.0.0.101 (mapped neighbour)', '::ffff:127.0.0.101'),

  // DNS: names whose answers are, or include, forbidden addresses.
  at('dns-private', 'dns', 'a name with A 127.0.0.1', SSRF_NAMES.private, ['dns']),
  at('dns-public-then-private', 'dns', 'A answers: allowed first, private second', SSRF_NAMES.mixed, ['dns']),
  at('dns-mixed-family', 'dns', 'allowed A, AAAA ::1', SSRF_NAMES.mixedFamily, ['dns']),
  at('dns-v6', 'dns', 'AAAA ::1 only', SSRF_NAMES.v6, ['dns']),
  at('dns-mapped', 'dns', 'AAAA ::ffff:127.0.0.1', SSRF_NAMES.mapped, ['dns']),
  at('dns-cname', 'dns', 'CNAME to a private name', SSRF_NAMES.alias, ['dns']),
  at('dns-metadata', 'dns', 'A 169.254.169.254', SSRF_NAMES.metadata, ['dns']),
  at('dns-nat64', 'dns', 'AAAA 64:ff9b::a00:1 (NAT64 of 10.0.0.1)', SSRF_NAMES.nat64, ['dns']),
  at(
    'dns-uppercase-dot',
    'dns',
    'PRIVATE.SSRF.TEST. (case, final dot)',
    `${SSRF_NAMES.private.toUpperCase()}.`,
    ['dns'],
  ),

  // Redirects from the public-looking server: every hop is vetted.
  urlOnly(
    'redirect-loopback',
    'redirect',
    '302 to 127.0.0.1',
    (fx) => redirect(fx, `http://127.0.0.1:${S(fx)}/`),
    ['public-http'],
  ),
  urlOnly(
    'redirect-301-ipv6',
    'redirect',
    '301 to [::1]',
    (fx) => redirect(fx, `http://[::1]:${S(fx)}/`, 301),
    ['public-http'],
  ),
  urlOnly(
    'redirect-307-metadata',
    'redirect',
    '307 to 169.254.169.254',
    (fx) => redirect(fx, 'http://169.254.169.254/latest/meta-data/', 307),
    ['public-http'],
  ),
  urlOnly(
    'redirect-308-private',
    'redirect',
    '308 to 10.0.0.1',
    (fx) => redirect(fx, 'http://10.0.0.1/', 308),
    ['public-http'],
  ),
  urlOnly(
    'redirect-303-odd-spelling',
    'redirect',
    '303 to 0x7f.1',
    (fx) => redirect(fx, `http://0x7f.1:${S(fx)}/`, 303),
    ['public-http'],
  ),
  urlOnly(
    'redirect-dns-private',
    'redirect',
    '302 to a name with a private A',
    (fx) => redirect(fx, `http://${SSRF_NAMES.private}:${S(fx)}/`),
    ['public-http', 'dns'],
  ),
  urlOnly(
    'redirect-scheme-relative',
    'redirect',
    'scheme-relative Location //127.0.0.1',
    (fx) => redirect(fx, `//127.0.0.1:${S(fx)}/`),
    ['public-http'],
  ),
  urlOnly(
    'redirect-second-hop',
    'redirect',
    'a public hop first, then 127.0.0.1',
    (fx) => `${fx.publicHttp.origin}/hop?to=${encodeURIComponent(`http://127.0.0.1:${S(fx)}/`)}`,
    ['public-http'],
  ),
  urlOnly(
    'redirect-userinfo',
    'redirect',
    '302 to http://public@127.0.0.1',
    (fx) => redirect(fx, `http://public@127.0.0.1:${S(fx)}/`),
    ['public-http'],
  ),
  urlOnly(
    'redirect-neighbour',
    'redirect',
    '302 to 127.0.0.101, next to the allowed address',
    (fx) => redirect(fx, `http://127.0.0.101:${S(fx)}/`),
    ['public-http'],
  ),
  urlOnly(
    'redirect-gopher',
    'redirect',
    '302 to gopher://127.0.0.1 (not http)',
    (fx) => redirect(fx, `gopher://127.0.0.1:${S(fx)}/_PING`),
    ['public-http'],
  ),
  urlOnly(
    'redirect-file',
    'redirect',
    '302 to file:///etc/passwd',
    (fx) => redirect(fx, 'file:///etc/passwd'),
    ['public-http'],
  ),
];

// ---------------------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------------------

async function listen(server: Server | TcpServer, host: string, options: { ipv6Only?: boolean } = {}) {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host, ...options }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as { port: number }).port;
}

/** A listener on every local address, v4 and v6 (v4 only where the host has no IPv6). */
async function startSentinel(): Promise<{ sentinel: SsrfSentinel; server: TcpServer }> {
  const connections: string[] = [];
  const server = createTcpServer((socket) => {
    connections.push(`${socket.remoteAddress} -> ${socket.localAddress}`);
    socket.destroy();
  });
  let port: number;
  try {
    port = await listen(server, '::', { ipv6Only: false });
  } catch {
    port = await listen(server, '0.0.0.0');
  }
  return { sentinel: { port, connections }, server };
}

async function startPublicHttp(): Promise<{ publicHttp: SsrfPublicServer; server: Server }> {
  const requests: string[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    } else if (url.pathname === '/hop' && to) {
      res.writeHead(302, { location: `/redirect?to=${encodeURIComponent(to)}` }).end();
    } else if (url.pathname === '/ok') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    } else {
      res.writeHead(404).end();
    }
  });
  const port = await listen(server, SSRF_PUBLIC_IP);
  return { publicHttp: { origin: `http://${SSRF_PUBLIC_IP}:${port}`, port, requests }, server };
}

/** The sentinel, the public-looking HTTP server on 127.0.0.100 and the DNS server, all on fresh ports. */
export async function startSsrfFixtures(): Promise<SsrfFixtures> {
  const { sentinel, server: sentinelServer } = await startSentinel();
  const { publicHttp, server: httpServer } = await startPublicHttp();
  const dns = await startLocalDns({
    [SSRF_NAMES.public]: { A: [SSRF_PUBLIC_IP] },
    [SSRF_NAMES.private]: { A: ['127.0.0.1'] },
    [SSRF_NAMES.mixed]: { A: [SSRF_PUBLIC_IP, '127.0.0.1'] },
    [SSRF_NAMES.mixedFamily]: { A: [SSRF_PUBLIC_IP], AAAA: ['::1'] },
    [SSRF_NAMES.v6]: { AAAA: ['::1'] },
    [SSRF_NAMES.mapped]: { AAAA: ['::ffff:127.0.0.1'] },
    [SSRF_NAMES.alias]: { CNAME: SSRF_NAMES.private },
    [SSRF_NAMES.metadata]: { A: ['169.254.169.254'] },
    [SSRF_NAMES.internal]: { A: ['10.0.0.1'] },
    [SSRF_NAMES.nat64]: { AAAA: ['64:ff9b::a00:1'] },
  });
  const closeServer = (s: Server | TcpServer) =>
    new Promise<void>((resolve) => {
      if ('closeAllConnections' in s) s.closeAllConnections();
      s.close(() => resolve());
    });
  return {
    sentinel,
    publicHttp,
    dns,
    env: { OUTBOUND_ALLOW_CIDRS: SSRF_ALLOW_CIDRS.join(','), DNS_SERVERS: dns.server },
    policy: { allowCidrs: SSRF_ALLOW_CIDRS, dnsServers: [dns.server] },
    async close() {
      await Promise.all([closeServer(sentinelServer), closeServer(httpServer), dns.close()]);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Running the table
// ---------------------------------------------------------------------------------------------------------------

/** What a route answered (or what a direct call threw, via `responseFromError`). */
export interface SsrfResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface SsrfOutcome {
  readonly id: string;
  readonly input: string;
  readonly status: number;
  /** The error code the body carries, in whichever convention (S, R, D, or R+D). */
  readonly code: string | null;
  readonly blocked: boolean;
}

export interface SsrfRun {
  readonly outcomes: readonly SsrfOutcome[];
  /** Cases not answered 403 SSRF_BLOCKED: must be empty. */
  readonly failures: readonly SsrfOutcome[];
  /** Connections the sentinel received during the run: must be empty. */
  readonly sentinelConnections: readonly string[];
}

const PROBLEM_CODES = new Map(
  (Object.keys(ERRORS) as ErrorCode[]).map((code) => [problemType(code), code] as const),
);

/** The error code of an error body in any convention: S `{error:{code}}`, D `{error}`, R `{type}`. */
export function errorCodeOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as { error?: unknown; type?: unknown };
  if (typeof b.error === 'string') return b.error;
  if (typeof b.error === 'object' && b.error !== null) {
    const code = (b.error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  if (typeof b.type === 'string') return PROBLEM_CODES.get(b.type) ?? null;
  return null;
}

/** For calling a handler or the client directly: an AppError becomes the D-style body the gateway would send. */
export function responseFromError(err: unknown): SsrfResponse {
  if (err instanceof AppError) return { status: err.status, body: { error: err.code, message: err.message } };
  const e = err as { name?: string; code?: string; message?: string };
  return { status: 0, body: { error: `${e?.name ?? 'Error'}:${e?.code ?? ''}`, message: e?.message } };
}

const judge = (id: string, input: string, res: SsrfResponse): SsrfOutcome => {
  const code = errorCodeOf(res.body);
  return { id, input, status: res.status, code, blocked: res.status === 403 && code === 'SSRF_BLOCKED' };
};

/** Sends every URL case (sequentially, so the sentinel's log is attributable) and judges the answers. */
export async function runSsrfTable(
  fx: SsrfFixtures,
  send: (url: string, c: SsrfCase) => Promise<SsrfResponse>,
  cases: readonly SsrfCase[] = SSRF_CASES,
): Promise<SsrfRun> {
  const before = fx.sentinel.connections.length;
  const outcomes: SsrfOutcome[] = [];
  for (const c of cases) {
    const url = c.url(fx);
    outcomes.push(judge(c.id, url, await send(url, c)));
  }
  return {
    outcomes,
    failures: outcomes.filter((o) => !o.blocked),
    sentinelConnections: fx.sentinel.connections.slice(before),
  };
}

/** The cases with a host form, for connectors and host-based routes (`{hostname, port}` bodies). */
export const SSRF_TARGET_CASES: readonly SsrfCase[] = SSRF_CASES.filter((c) => c.target !== undefined);

/** Like runSsrfTable, with each case's host and port instead of its URL. */
export async function runSsrfTargets(
  fx: SsrfFixtures,
  send: (host: string, port: number, c: SsrfCase) => Promise<SsrfResponse>,
  cases: readonly SsrfCase[] = SSRF_TARGET_CASES,
): Promise<SsrfRun> {
  const before = fx.sentinel.connections.length;
  const outcomes: SsrfOutcome[] = [];
  for (const c of cases) {
    const { host, port } = c.target!(fx);
    outcomes.push(judge(c.id, `${host} port ${port}`, await send(host, port, c)));
  }
  return {
    outcomes,
    failures: outcomes.filter((o) => !o.blocked),
    sentinelConnections: fx.sentinel.connections.slice(before),
  };
}
