import type { CallContext, ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import {
  configuredServers,
  DEFAULT_TIMEOUTS,
  DnsLookups,
  type DnsTimeouts,
  type NamedResult,
  requestedTypes,
} from './lookups.js';
import type { RecordType } from './record-types.js';

export interface DnsCheckerDeps {
  /** DNS_SERVERS: `ip`, `ip:port` or `[ipv6]:port`, asked in order. Default: the system's resolvers. */
  readonly dnsServers?: readonly string[];
  /** Clock for R's `checkedAt`; default the call's clock. */
  readonly now?: () => Date;
  /** Per exchange, per name and per batch; defaults in DEFAULT_TIMEOUTS. */
  readonly timeouts?: Partial<DnsTimeouts>;
}

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface CheckTarget {
  readonly hostname: string;
  readonly recordTypes?: readonly string[];
}
interface LookupRequest {
  readonly domain: string;
  readonly recordTypes?: readonly string[];
}
interface LookupBatchRequest {
  readonly domains: readonly string[];
  readonly recordTypes?: readonly string[];
}

/** The result fields every shape shares; `error` and `message` only when there is one. */
function resultFields(r: NamedResult) {
  return {
    queryName: r.queryName,
    status: r.status,
    records: r.records,
    nameserver: r.nameserver,
    queryTimeMs: r.queryTimeMs,
    ...(r.error ? { error: r.error, message: r.message } : {}),
  };
}

const RESOLUTION =
  'Types A, AAAA, MX, TXT, CNAME, NS, SOA and SRV are resolved in parallel through the configured resolvers ' +
  '(DNS_SERVERS, else the system’s) over UDP, with TCP when an answer is truncated; a server that fails or ' +
  'does not answer within 3 s is replaced by the next, and a name gets 5 s in all. `status` is the response ' +
  'code: NOERROR, NXDOMAIN (the name does not exist: `records` is empty) or SERVFAIL (some types got no ' +
  'answer; `error` and `message` say why). TTLs are in seconds. An alias is followed: CNAME lists the chain ' +
  'link by link, the other types give the records at its end.';
const NAMES =
  'Names: letters, digits, hyphens and underscores, labels of 1 to 63 octets, at most 253 characters, an ' +
  'optional final dot; internationalized names are queried in punycode; IP addresses are refused.';

/** `createDnsCheckerService({ dnsServers: config.DNS_SERVERS })`: DNS records of a name (issue 4). */
export function createDnsCheckerService(deps: DnsCheckerDeps = {}): ServiceDefinition {
  const lookups = new DnsLookups(configuredServers(deps.dnsServers), {
    ...DEFAULT_TIMEOUTS,
    ...deps.timeouts,
  });
  const checkedAt = (ctx: CallContext) => (deps.now ?? ctx.now)().toISOString();
  const lookup = async (domain: string, types: readonly RecordType[], ctx: CallContext) => {
    const result = await lookups.one(domain, types, 'domain');
    return { domain, ...resultFields(result), checkedAt: checkedAt(ctx) };
  };

  return {
    slug: 'dns-checker',
    title: 'DNS checker',
    description:
      'DNS records of a domain name (A, AAAA, MX, TXT, CNAME, NS, SOA, SRV) with their TTLs, the response ' +
      'code and the name server that answered; one name or up to 100 at once.',
    routes: [
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/dns/check',
        operationId: 'dnsCheck',
        summary: 'Resolve the DNS records of a hostname',
        description: `${RESOLUTION} ${NAMES} An invalid hostname is refused with 400.`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('dns-checker/check-request.json'),
          response: { 200: apiSchema('dns-checker/check-response.json') },
        },
        async handler({ body }) {
          const { hostname, recordTypes } = body as CheckTarget;
          const result = await lookups.one(hostname, requestedTypes(recordTypes, 'recordTypes'), 'hostname');
          return { hostname, ...resultFields(result) };
        },
      },
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/dns/check-bulk',
        operationId: 'dnsCheckBulk',
        summary: 'Resolve the DNS records of up to 100 hostnames',
        description:
          'An array with one item per target, in request order, each with its input and its result. A target ' +
          'whose hostname is not a domain name fails alone (error VALIDATION_ERROR, not looked up). At most ' +
          `the smaller of 100 targets and the plan batch size; 16 names are resolved at a time. ${RESOLUTION}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'targets', max: 100 },
        schemas: {
          body: apiSchema('dns-checker/check-bulk-request.json'),
          response: { 200: apiSchema('dns-checker/check-bulk-response.json') },
        },
        async handler({ body }) {
          const { targets } = body as { targets: readonly CheckTarget[] };
          const inputs = targets.map((t, i) => ({
            name: t.hostname,
            types: requestedTypes(t.recordTypes, `targets[${i}].recordTypes`),
          }));
          const results = await lookups.many(inputs, 'hostname');
          return results.map((r, i) => ({
            hostname: targets[i]!.hostname,
            recordTypes: inputs[i]!.types,
            ...resultFields(r),
          }));
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/dns/lookup',
        operationId: 'dnsLookup',
        summary: 'Look up the DNS records of a domain',
        description: `${RESOLUTION} ${NAMES} An invalid domain is refused with 400.`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('dns-checker/lookup-request.json'),
          response: { 200: apiSchema('dns-checker/lookup-response.json') },
        },
        async handler({ body }, ctx) {
          const { domain, recordTypes } = body as LookupRequest;
          return lookup(domain, requestedTypes(recordTypes, 'recordTypes'), ctx);
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/dns/lookup/batch',
        operationId: 'dnsLookupBatch',
        summary: 'Look up the DNS records of up to 100 domains',
        description:
          '`{results}` with one item per domain, in request order, each with its domain and its result. A ' +
          'domain that is not a domain name fails alone (error VALIDATION_ERROR, not looked up). At most the ' +
          `smaller of 100 domains and the plan batch size. ${RESOLUTION}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'domains', max: 100 },
        schemas: {
          body: apiSchema('dns-checker/lookup-batch-request.json'),
          response: { 200: apiSchema('dns-checker/lookup-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const { domains, recordTypes } = body as LookupBatchRequest;
          const types = requestedTypes(recordTypes, 'recordTypes');
          const results = await lookups.many(
            domains.map((name) => ({ name, types })),
            'domain',
          );
          const at = checkedAt(ctx);
          return {
            results: results.map((r, i) => ({ domain: domains[i]!, ...resultFields(r), checkedAt: at })),
          };
        },
      },
      {
        convention: 'R',
        method: 'GET',
        path: '/api/v1/dns/lookup/{domain}',
        operationId: 'dnsLookupAll',
        summary: 'Look up every DNS record type of a domain',
        description: `All eight types. ${RESOLUTION} ${NAMES} An invalid domain is refused with 400.`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          params: apiSchema('dns-checker/lookup-params.json'),
          response: { 200: apiSchema('dns-checker/lookup-response.json') },
        },
        async handler({ params }, ctx) {
          return lookup(params.domain!, requestedTypes(undefined, 'recordTypes'), ctx);
        },
      },
    ],
  };
}
