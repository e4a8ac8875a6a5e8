import { randomInt } from 'node:crypto';
import { type RecordType, TYPE_CODES } from './record-types.js';
import { selectAnswers } from './records.js';
import type { NameServer } from './servers.js';
import { type Exchange, exchangeTcp, exchangeUdp, TransportError } from './transport.js';
import { encodeQuery, type Message, type ResourceRecord, rcodeName } from './wire.js';

/** Why a query got no usable answer. */
export type FailureCode = 'TIMEOUT' | 'SERVER_ERROR' | 'NETWORK_ERROR';

export interface Answered {
  readonly ok: true;
  readonly rcode: 'NOERROR' | 'NXDOMAIN';
  /** Records of the asked type on the name's CNAME chain (for CNAME: the chain itself). */
  readonly records: readonly ResourceRecord[];
  /** CNAME links from the name that the answer carried. */
  readonly chain: readonly ResourceRecord[];
  readonly server: NameServer;
}

export interface Failed {
  readonly ok: false;
  readonly error: FailureCode;
  readonly message: string;
  readonly server: NameServer | null;
}

export type Outcome = Answered | Failed;

export interface ResolverOptions {
  /** Asked in order; the next one when a server fails, times out or answers SERVFAIL, REFUSED or the like. */
  readonly servers: readonly NameServer[];
  /** One UDP or TCP exchange with one server. */
  readonly attemptTimeoutMs: number;
}

/** Rounds over the server list: a lost datagram is retried once, as resolv.conf's `attempts:2` does. */
const ROUNDS = 2;
/** RFC 1034 does not bound CNAME chains; resolvers stop at about this many links. */
export const MAX_CHAIN = 8;

/**
 * A stub resolver speaking the wire protocol itself, so the response code, every TTL, the SOA fields and the
 * server that answered are reported exactly (node's dns module hides or folds these).
 */
export class Resolver {
  constructor(
    private readonly options: ResolverOptions,
    private readonly udp: Exchange = exchangeUdp,
    private readonly tcp: Exchange = exchangeTcp,
  ) {}

  /** `deadline` is a performance.now() instant; nothing is sent after it. */
  async query(name: string, type: RecordType, deadline: number): Promise<Outcome> {
    const qtype = TYPE_CODES[type];
    const failures: Failed[] = [];
    const gaveUp = new Set<NameServer>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of this.options.servers) {
        if (gaveUp.has(server)) continue;
        const left = Math.floor(deadline - performance.now());
        if (left <= 0) return summarizeFailures(failures, server);
        try {
          const message = await this.ask(server, name, qtype, Math.min(this.options.attemptTimeoutMs, left));
          if (message.rcode === 0 || message.rcode === 3) {
            const { records, chain } = selectAnswers(message.answers, name, qtype);
            return {
              ok: true,
              rcode: message.rcode === 0 ? 'NOERROR' : 'NXDOMAIN',
              records,
              chain,
              server,
            };
          }
          // SERVFAIL, REFUSED, NOTIMP…: this server will say the same again; the next one may not.
          gaveUp.add(server);
          failures.push({
            ok: false,
            error: 'SERVER_ERROR',
            message: `${server.label} answered ${rcodeName(message.rcode)}`,
            server,
          });
        } catch (err) {
          if (!(err instanceof TransportError)) throw err;
          failures.push({ ok: false, error: err.code, message: err.message, server });
        }
      }
    }
    return summarizeFailures(failures, this.options.servers[0] ?? null);
  }

  /**
   * Follows a CNAME chain link by link (a resolver answers a CNAME query with one link only), up to MAX_CHAIN
   * links; a link back to a name already on the chain is listed and ends it. The outcome is the first query's;
   * a later failure just ends the chain.
   */
  async chain(name: string, deadline: number): Promise<Outcome> {
    const first = await this.query(name, 'CNAME', deadline);
    if (!first.ok || first.records.length === 0) return first;
    const links = first.records.slice(0, MAX_CHAIN);
    const owners = new Set([name.toLowerCase(), ...links.map((l) => l.name.toLowerCase())]);
    while (links.length < MAX_CHAIN) {
      const end = target(links[links.length - 1]!);
      if (owners.has(end.toLowerCase())) break;
      const next = await this.query(end, 'CNAME', deadline);
      if (!next.ok || next.records.length === 0) break;
      for (const link of next.records.slice(0, MAX_CHAIN - links.length)) {
        links.push(link);
        owners.add(link.name.toLowerCase());
      }
    }
    return { ...first, records: links, chain: links };
  }

  private async ask(server: NameServer, name: string, qtype: number, timeoutMs: number): Promise<Message> {
    const started = performance.now();
    const expected = { id: randomInt(0x10000), name, type: qtype };
    let message = await this.udp(server, encodeQuery({ ...expected, edns: true }), expected, timeoutMs);
    const left = () => Math.max(1, Math.floor(timeoutMs - (performance.now() - started)));
    if (message.rcode === 1) {
      // FORMERR to an OPT record: a server from before EDNS (RFC 6891 7). Ask again in plain RFC 1035.
      const plain = { ...expected, id: randomInt(0x10000) };
      message = await this.udp(server, encodeQuery({ ...plain, edns: false }), plain, left());
    }
    if (message.truncated) {
      const overTcp = { ...expected, id: randomInt(0x10000) };
      message = await this.tcp(server, encodeQuery({ ...overTcp, edns: false }), overTcp, left());
    }
    return message;
  }
}

const target = (link: ResourceRecord): string => (link.data.kind === 'name' ? link.data.name : link.name);

function summarizeFailures(failures: readonly Failed[], fallback: NameServer | null): Failed {
  if (failures.length === 0) {
    return { ok: false, error: 'TIMEOUT', message: 'no time left to ask a server', server: fallback };
  }
  // A server's own error answer says more than silence or a network error.
  const worst =
    failures.find((f) => f.error === 'SERVER_ERROR') ??
    failures.find((f) => f.error === 'TIMEOUT') ??
    failures[0]!;
  const messages = [...new Set(failures.map((f) => f.message))];
  return { ok: false, error: worst.error, message: messages.join('; '), server: worst.server };
}
