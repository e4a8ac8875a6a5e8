import { getServers } from 'node:dns';
import { AppError } from '../../core/errors/catalogue.js';
import { type CheckResult, checkName } from './check.js';
import { mapLimit } from './concurrency.js';
import { toQueryName } from './domain-name.js';
import { RECORD_TYPES, type RecordType } from './record-types.js';
import type { DnsRecord } from './records.js';
import { Resolver } from './resolver.js';
import { type NameServer, parseNameServers } from './servers.js';

export interface DnsTimeouts {
  /** One exchange with one server (UDP, or TCP after truncation). Default 3,000 ms. */
  readonly attemptMs: number;
  /** Everything for one name: all types, retries, other servers, CNAME links. Default 5,000 ms. */
  readonly checkMs: number;
  /** A whole batch; names not finished by then report a timeout. Default 25,000 ms. */
  readonly batchMs: number;
}

export const DEFAULT_TIMEOUTS: DnsTimeouts = { attemptMs: 3_000, checkMs: 5_000, batchMs: 25_000 };
/** Names resolved at once in a batch: at most 8 queries each, so about 128 sockets in flight. */
export const BATCH_CONCURRENCY = 16;

export const INVALID_NAME = 'must be a valid domain name';

/** One name's result, or why it was not looked up (batches only: a single lookup answers 400 instead). */
export type NamedResult =
  | ({ readonly queryName: string } & CheckResult)
  | {
      readonly queryName: null;
      readonly status: null;
      readonly records: Partial<Record<RecordType, DnsRecord[]>>;
      readonly nameserver: null;
      readonly queryTimeMs: 0;
      readonly error: 'VALIDATION_ERROR';
      readonly message: string;
    };

/**
 * The servers from DNS_SERVERS, else the system's; with neither, the local resolver, as c-ares and glibc do
 * when resolv.conf names none.
 */
export function configuredServers(dnsServers: readonly string[] | undefined): NameServer[] {
  const specs = dnsServers && dnsServers.length > 0 ? dnsServers : getServers();
  return parseNameServers(specs.length > 0 ? specs : ['127.0.0.1']);
}

/** The record types a request asked for, checked again here so the handler is right for any caller. */
export function requestedTypes(types: readonly string[] | undefined, field: string): RecordType[] {
  const wanted = types && types.length > 0 ? types : RECORD_TYPES;
  const index = wanted.findIndex((t) => !(RECORD_TYPES as readonly string[]).includes(t));
  if (index !== -1) {
    throw new AppError('VALIDATION_ERROR', `${field}[${index}]: must be one of [${RECORD_TYPES.join(', ')}]`);
  }
  return RECORD_TYPES.filter((t) => wanted.includes(t));
}

/** Looks names up through the configured servers within the configured time limits. */
export class DnsLookups {
  private readonly resolver: Resolver;

  constructor(
    private readonly servers: readonly NameServer[],
    private readonly timeouts: DnsTimeouts,
  ) {
    this.resolver = new Resolver({ servers, attemptTimeoutMs: timeouts.attemptMs });
  }

  /** One name; 400 `<field>: must be a valid domain name` when it is not one. */
  async one(input: string, types: readonly RecordType[], field: string): Promise<NamedResult> {
    const queryName = toQueryName(input);
    if (queryName === null) throw new AppError('VALIDATION_ERROR', `${field}: ${INVALID_NAME}`);
    return this.resolve(queryName, types, performance.now() + this.timeouts.checkMs);
  }

  /** Many names, each with its own result, in input order; an invalid name fails only its own item. */
  async many(
    inputs: readonly { readonly name: string; readonly types: readonly RecordType[] }[],
    field: string,
  ): Promise<NamedResult[]> {
    const batchDeadline = performance.now() + this.timeouts.batchMs;
    return mapLimit(inputs, BATCH_CONCURRENCY, async ({ name, types }) => {
      const queryName = toQueryName(name);
      if (queryName === null) {
        return {
          queryName: null,
          status: null,
          records: {},
          nameserver: null,
          queryTimeMs: 0,
          error: 'VALIDATION_ERROR',
          message: `${field}: ${INVALID_NAME}`,
        };
      }
      const deadline = Math.min(performance.now() + this.timeouts.checkMs, batchDeadline);
      return this.resolve(queryName, types, deadline);
    });
  }

  private async resolve(queryName: string, types: readonly RecordType[], deadline: number) {
    const result = await checkName(this.resolver, this.servers[0]!, queryName, types, deadline);
    return { queryName, ...result };
  }
}
