import { AppError } from '../../core/errors/catalogue.js';
import type { NewEvent } from '../../core/events/envelope.js';
import type { EventStore } from '../../core/events/event-store.js';
import type { CallContext, ServiceDefinition } from '../../core/service/definition.js';
import { reply } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { NOT_AN_ADDRESS, NOT_PUBLIC, parseIpInput } from './address.js';
import { type IpChecked, type IpReported, reputationStreamId } from './events.js';
import type { FeedHit } from './feed-matcher.js';
import { abuseConfidence } from './scoring.js';
import {
  detailedBody,
  type NetworkInfo,
  type ReportFacts,
  reportWindowStart,
  shortBody,
  verdictOf,
} from './verdict.js';

/** What the service reads: the projection's reader (projections/ip-reputation/reader.ts) has this shape. */
export interface ReputationReads {
  reports(ip: string, since: Date): Promise<ReportFacts>;
  lastCheck(accountId: string, ip: string): Promise<IpChecked | null>;
  /** Waits until the stream's events up to `version` are readable; false after the timeout. */
  waitForVersion?(streamId: string, version: number, timeoutMs?: number): Promise<boolean>;
}

export interface IpReputationDeps {
  /** GeoLookup (services/ip-geolocation) fits: only the network fields are read. */
  readonly geo: { lookup(ip: string): Promise<NetworkInfo> };
  /** FeedMatcher fits. */
  readonly feeds: { match(ip: string): Promise<readonly FeedHit[]> };
  readonly store: Pick<EventStore, 'append'>;
  readonly reader: ReputationReads;
  readonly now?: () => Date;
  /** How long a write waits for the read model, so the caller's next read sees it (default 2 s). */
  readonly visibleWithinMs?: number;
}

interface CheckRequest {
  readonly ipAddress: string;
}
interface IpRequest {
  readonly ip: string;
}
interface BatchRequest {
  readonly ips: readonly string[];
}
interface ReportRequest {
  readonly ip: string;
  readonly categories: readonly string[];
  readonly comment?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The canonical public address, or the SPEC message for `field`. */
function publicIp(text: string, field: string): string {
  const parsed = parseIpInput(text);
  if (parsed.kind === 'invalid') throw new AppError('VALIDATION_ERROR', `${field}: ${NOT_AN_ADDRESS}`);
  if (parsed.kind === 'special') throw new AppError('VALIDATION_ERROR', `${field}: ${NOT_PUBLIC}`);
  return parsed.ip;
}

const SIGNALS =
  'Signals: imported feeds (Tor exit lists, proxy and VPN lists, attacker lists such as FireHOL or Spamhaus ' +
  'DROP; each list that holds the address is named with its age), hosting and cloud networks (a curated list ' +
  'of provider ASNs and the ASN database), and abuse reports of the last 90 days from every account ' +
  '(`POST /api/v1/ip/report`). Private (RFC 1918) and other special-purpose addresses are refused. Every ' +
  'check is recorded in the address’s history.';

export function createIpReputationService(deps: IpReputationDeps): ServiceDefinition {
  const clock = (ctx: CallContext) => (deps.now ?? ctx.now)();
  const visibleWithinMs = deps.visibleWithinMs ?? 2_000;

  const append = async (ip: string, event: NewEvent, ctx: CallContext): Promise<void> => {
    const streamId = reputationStreamId(ip);
    const result = await deps.store.append(
      streamId,
      [
        {
          ...event,
          accountId: ctx.accountId,
          metadata: { requestId: ctx.requestId, actor: ctx.accountId ?? '' },
        },
      ],
      'any',
    );
    // Read-your-writes: the caller's next GET or check should already count this event.
    await deps.reader.waitForVersion?.(streamId, result.nextExpectedVersion, visibleWithinMs);
  };

  const check = async (ip: string, ctx: CallContext): Promise<IpChecked> => {
    const now = clock(ctx);
    const [network, hits, reports] = await Promise.all([
      deps.geo.lookup(ip),
      deps.feeds.match(ip),
      deps.reader.reports(ip, reportWindowStart(now)),
    ]);
    const verdict = verdictOf({ ip, accountId: ctx.accountId ?? '', network, hits, reports, now });
    await append(ip, { type: 'IpChecked', data: verdict }, ctx);
    return verdict;
  };

  return {
    slug: 'ip-reputation',
    title: 'IP reputation',
    description:
      'Risk of an IP address: Tor exit, proxy, VPN, hosting network, known attacker, and an ' +
      'AbuseIPDB-style abuse confidence from user reports, with the address’s ISP and country.',
    routes: [
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/check',
        operationId: 'ipReputationCheck',
        summary: 'Check the reputation of an IP address',
        description: `${SIGNALS} The path is shared with the e-mail check: a body with \`ipAddress\` is an IP check.`,
        auth: 'apiKey',
        metered: true,
        match: (body) => isObject(body) && 'ipAddress' in body,
        schemas: {
          body: apiSchema('ip-reputation/check-request.json'),
          response: { 200: apiSchema('ip-reputation/check-response.json') },
        },
        async handler({ body }, ctx) {
          const verdict = await check(publicIp((body as CheckRequest).ipAddress, 'ipAddress'), ctx);
          return detailedBody(verdict, clock(ctx));
        },
      },
      {
        convention: 'D',
        method: 'GET',
        path: '/api/v1/reputation/{ip}',
        operationId: 'ipReputationGet',
        summary: 'The last reputation verdict this account received for an IP address',
        description:
          'Returns the verdict of this account’s most recent check of the address, as it was then. An address ' +
          'this account never checked answers 404 with an empty body.',
        auth: 'apiKey',
        metered: true,
        schemas: {
          params: apiSchema('ip-reputation/reputation-params.json'),
          response: { 200: apiSchema('ip-reputation/reputation-response.json') },
        },
        async handler({ params }, ctx) {
          const ip = publicIp(params.ip ?? '', 'ip');
          const last = await deps.reader.lastCheck(ctx.accountId ?? '', ip);
          // SPEC 7.3: this 404 is the bare status, no error object.
          if (!last) return reply(null, { status: 404 });
          return detailedBody(last, clock(ctx));
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/ip/check',
        operationId: 'ipReputationCheckShort',
        summary: 'Check the reputation of an IP address (short form)',
        description: `${SIGNALS} \`riskScore\` is between 0 and 1.`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('ip-reputation/ip-check-request.json'),
          response: { 200: apiSchema('ip-reputation/ip-check-response.json') },
        },
        async handler({ body }, ctx) {
          const verdict = await check(publicIp((body as IpRequest).ip, 'ip'), ctx);
          return shortBody(verdict, clock(ctx));
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/ip/check/batch',
        operationId: 'ipReputationCheckBatch',
        summary: 'Check up to 100 IP addresses',
        description:
          `${SIGNALS} At most 100 addresses, and at most the plan's batch size. Results keep the request's ` +
          'order; an address that is malformed or not public carries `error` instead of a verdict.',
        auth: 'apiKey',
        metered: true,
        batch: { field: 'ips', max: 100 },
        schemas: {
          body: apiSchema('ip-reputation/ip-check-batch-request.json'),
          response: { 200: apiSchema('ip-reputation/ip-check-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const { ips } = body as BatchRequest;
          const one = async (given: string) => {
            const parsed = parseIpInput(given);
            if (parsed.kind !== 'public') {
              const message = `ip: ${parsed.kind === 'invalid' ? NOT_AN_ADDRESS : NOT_PUBLIC}`;
              return { ip: given, error: { code: 'VALIDATION_ERROR', message } };
            }
            return shortBody(await check(parsed.ip, ctx), clock(ctx));
          };
          const results: unknown[] = [];
          // A few at a time: each check is a lookup, a read and an append.
          for (let i = 0; i < ips.length; i += 10)
            results.push(...(await Promise.all(ips.slice(i, i + 10).map(one))));
          return { results, checkedAt: clock(ctx).toISOString() };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/ip/report',
        operationId: 'ipReputationReport',
        summary: 'Report an IP address for abuse',
        description:
          'Records an abuse report (AbuseIPDB-style categories) in the address’s history. Reports from all ' +
          'accounts make up its abuseConfidenceScore: 25 points per distinct reporting account, full weight ' +
          'for a day and fading to nothing over 90 days; repeated reports from one account count once.',
        auth: 'apiKey',
        metered: true,
        status: 201,
        schemas: {
          body: apiSchema('ip-reputation/report-request.json'),
          response: { 201: apiSchema('ip-reputation/report-response.json') },
        },
        async handler({ body }, ctx) {
          const req = body as ReportRequest;
          const ip = publicIp(req.ip, 'ip');
          const now = clock(ctx);
          const categories = [...new Set(req.categories)].sort();
          const data: IpReported = {
            ip,
            accountId: ctx.accountId ?? '',
            categories,
            ...(req.comment !== undefined && req.comment !== '' ? { comment: req.comment } : {}),
            reportedAt: now.toISOString(),
          };
          await append(ip, { type: 'IpReported', data }, ctx);
          const reports = await deps.reader.reports(ip, reportWindowStart(now));
          return {
            ip,
            categories,
            reportedAt: data.reportedAt,
            abuseConfidenceScore: abuseConfidence(reports.reporters, now),
          };
        },
      },
    ],
  };
}
