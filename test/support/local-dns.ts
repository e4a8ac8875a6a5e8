import type { Socket } from 'node:net';
import { Packet, TCPServer, UDPServer } from 'dns2';

/**
 * A real DNS server on 127.0.0.1, port 0, for tests that resolve names (outbound SSRF suite, DNS checker,
 * monitors): UDP and TCP on the same port, as clients expect of a name server, answering from a table.
 *
 *   const dns = await startLocalDns({
 *     'example.test': { A: ['93.184.216.34'], MX: [{ exchange: 'mx.example.test', priority: 10 }], ttl: 60 },
 *     'www.example.test': { CNAME: 'example.test' },
 *     'broken.test': { rcode: 'SERVFAIL' },
 *     'flip.test': ({ count }) => ({ A: [count === 1 ? '93.184.216.34' : '10.0.0.1'], ttl: 0 }),
 *   });
 *   new Resolver().setServers([dns.server]);   // or DNS_SERVERS=dns.server
 *
 * Answers, like a recursive resolver would give them:
 * - a name in the table: its records of the asked type (NOERROR, possibly with no answer: NODATA);
 * - a name with a CNAME: the CNAME, followed through the table (chain in the answer section, at most 8 links);
 * - `*.zone` entries answer every name under `zone` that has no entry of its own;
 * - any other name: NXDOMAIN; `rcode` forces an error code; `drop` never answers (client timeouts).
 * Entries may be functions of the query (`count` is 1 for the first query of that name and type), e.g. for DNS
 * rebinding. Names are case-insensitive, without a final dot. Every query is logged in `queries`.
 */
export interface MxRecord {
  readonly exchange: string;
  readonly priority: number;
}

export interface SoaRecord {
  readonly primary: string;
  readonly admin: string;
  readonly serial: number;
  readonly refresh: number;
  readonly retry: number;
  readonly expiration: number;
  readonly minimum: number;
}

export interface SrvRecord {
  readonly priority: number;
  readonly weight: number;
  readonly port: number;
  readonly target: string;
}

export type DnsRecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'CNAME' | 'NS' | 'SOA' | 'SRV';

export type DnsRcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

export interface DnsEntry {
  readonly A?: readonly string[];
  readonly AAAA?: readonly string[];
  readonly MX?: readonly MxRecord[];
  /** One TXT record per item; an array item is one record of several character-strings. */
  readonly TXT?: readonly (string | readonly string[])[];
  /** The name is an alias: other types are answered from the target. */
  readonly CNAME?: string;
  readonly NS?: readonly string[];
  readonly SOA?: SoaRecord;
  readonly SRV?: readonly SrvRecord[];
  /** Seconds; default the server's `ttl` option (300). */
  readonly ttl?: number;
  /** Answer with this code and no records (e.g. SERVFAIL). */
  readonly rcode?: DnsRcode;
  /** Never answer. */
  readonly drop?: boolean;
}

export interface DnsQuery {
  /** Lower-case, no final dot. */
  readonly name: string;
  readonly type: DnsRecordType | string;
  readonly transport: 'udp' | 'tcp';
  /** 1 for the first query of this name and type, then 2, 3, … */
  readonly count: number;
}

export type DnsTable = Record<string, DnsEntry | ((query: DnsQuery) => DnsEntry)>;

export interface LocalDnsOptions {
  /** Default TTL in seconds. */
  readonly ttl?: number;
  /** Milliseconds before every answer. */
  readonly delayMs?: number;
}

export interface LocalDns {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** `127.0.0.1:<port>`: for DNS_SERVERS, `Resolver.setServers`, OutboundPolicy.dnsServers. */
  readonly server: string;
  /** The table; change it freely while the server runs. */
  readonly table: DnsTable;
  /** Every query received, in order. */
  readonly queries: DnsQuery[];
  /** Queries for `name` (and `type` when given). */
  queryCount(name: string, type?: DnsRecordType): number;
  close(): Promise<void>;
}

const TYPE_CODE: Record<DnsRecordType, number> = {
  A: Packet.TYPE.A,
  AAAA: Packet.TYPE.AAAA,
  MX: Packet.TYPE.MX,
  TXT: Packet.TYPE.TXT,
  CNAME: Packet.TYPE.CNAME,
  NS: Packet.TYPE.NS,
  SOA: Packet.TYPE.SOA,
  SRV: Packet.TYPE.SRV,
};
const TYPE_NAME = new Map<number, string>(Object.entries(Packet.TYPE).map(([k, v]) => [v as number, k]));
// dns2 has RCODE at runtime but not in its types.
const RCODE: Record<DnsRcode, number> = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
};

const normalize = (name: string): string => name.toLowerCase().replace(/\.$/, '');

type Resource = Packet['answers'][number];

function recordsOf(entry: DnsEntry, type: DnsRecordType, name: string, ttl: number): Partial<Resource>[] {
  const base = { name, type: TYPE_CODE[type], class: Packet.CLASS.IN, ttl };
  switch (type) {
    case 'A':
    case 'AAAA':
      return (entry[type] ?? []).map((address) => ({ ...base, address }));
    case 'MX':
      return (entry.MX ?? []).map((mx) => ({ ...base, exchange: mx.exchange, priority: mx.priority }));
    case 'TXT':
      return (entry.TXT ?? []).map((t) => ({ ...base, data: typeof t === 'string' ? [t] : [...t] }));
    case 'CNAME':
      return entry.CNAME ? [{ ...base, domain: entry.CNAME }] : [];
    case 'NS':
      return (entry.NS ?? []).map((ns) => ({ ...base, ns }));
    case 'SOA':
      return entry.SOA ? [{ ...base, ...entry.SOA }] : [];
    case 'SRV':
      return (entry.SRV ?? []).map((srv) => ({ ...base, ...srv }));
  }
}

export async function startLocalDns(table: DnsTable = {}, options: LocalDnsOptions = {}): Promise<LocalDns> {
  const defaultTtl = options.ttl ?? 300;
  const queries: DnsQuery[] = [];
  const counts = new Map<string, number>();

  const lookup = (name: string, query: DnsQuery): DnsEntry | undefined => {
    const own = table[name];
    const found =
      own ??
      (() => {
        const labels = name.split('.');
        for (let i = 1; i < labels.length; i++) {
          const wildcard = table[`*.${labels.slice(i).join('.')}`];
          if (wildcard) return wildcard;
        }
        return undefined;
      })();
    return typeof found === 'function' ? found({ ...query, name }) : found;
  };

  const answer = (request: Packet, transport: 'udp' | 'tcp'): Packet | null => {
    const response = Packet.createResponseFromRequest(request);
    response.header.ra = 1;
    const [question] = request.questions;
    if (!question) {
      response.header.rcode = RCODE.FORMERR;
      return response;
    }
    const name = normalize(question.name);
    const type = TYPE_NAME.get(question.type) ?? String(question.type);
    const key = `${name} ${type}`;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    const query: DnsQuery = { name, type, transport, count };
    queries.push(query);

    let current = name;
    for (let hops = 0; hops < 8; hops++) {
      const entry = lookup(current, query);
      if (!entry) {
        // NXDOMAIN only for the asked name; a dangling CNAME target leaves the chain as the answer.
        if (hops === 0) response.header.rcode = RCODE.NXDOMAIN;
        break;
      }
      if (entry.drop) return null;
      if (entry.rcode) {
        response.header.rcode = RCODE[entry.rcode];
        response.answers = [];
        break;
      }
      const ttl = entry.ttl ?? defaultTtl;
      const asked = type in TYPE_CODE ? (type as DnsRecordType) : null;
      if (entry.CNAME && asked !== 'CNAME') {
        response.answers.push(...(recordsOf(entry, 'CNAME', current, ttl) as Resource[]));
        current = normalize(entry.CNAME);
        continue;
      }
      if (asked) response.answers.push(...(recordsOf(entry, asked, current, ttl) as Resource[]));
      break;
    }
    return response;
  };

  const respond = (request: Packet, send: (r: Packet) => unknown, transport: 'udp' | 'tcp') => {
    const response = answer(request, transport);
    if (!response) return;
    const go = () => {
      // A client that gave up may have closed its TCP connection; that is not the server's failure.
      Promise.resolve(send(response)).catch(() => {});
    };
    if (options.delayMs) setTimeout(go, options.delayMs);
    else go();
  };

  const { udp, tcp, port } = await listenBoth(respond);
  const connections = new Set<Socket>();
  tcp.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });

  return {
    host: '127.0.0.1',
    port,
    server: `127.0.0.1:${port}`,
    table,
    queries,
    queryCount: (name, type) =>
      queries.filter((q) => q.name === normalize(name) && (type === undefined || q.type === type)).length,
    close: async () => {
      // dns2 keeps idle TCP connections for 10 s; a test's server must not outlive the test.
      for (const socket of connections) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

type Respond = (request: Packet, send: (r: Packet) => unknown, transport: 'udp' | 'tcp') => void;

/** UDP on a free port, then TCP on the same port; a few tries, since another process may hold that TCP port. */
async function listenBoth(respond: Respond): Promise<{ udp: UDPServer; tcp: TCPServer; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const udp = new UDPServer({ type: 'udp4' });
    udp.on('request', (request, send) => respond(request, send, 'udp'));
    udp.on('requestError', () => {});
    await udp.listen(0, '127.0.0.1');
    const port = udp.address().port;
    const tcp = new TCPServer();
    tcp.on('request', (request, send) => respond(request, send, 'tcp'));
    tcp.on('requestError', () => {});
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, tcp, port };
    } catch (err) {
      udp.close();
      if (attempt >= 5) throw new Error(`local DNS: no port free for both UDP and TCP: ${String(err)}`);
    }
  }
}
