import { AppError } from '../../core/errors/catalogue.js';
import type { KvStore } from '../../core/kv/kv.js';
import { type CallContext, reply, type ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { type AddressResult, EmailChecker } from './checker.js';
import { type EmailAddress, normalizeDomain, parseEmail } from './email-address.js';
import { packagedDomainList } from './list-sources.js';
import { MailHostChecker } from './mail-host.js';
import { type Override, type OverrideAction, OverrideStore } from './overrides.js';

export interface DisposableEmailDeps {
  /** Where the accounts' allow/deny overrides live. */
  readonly kv: KvStore;
  /** DNS_SERVERS: `ip`, `ip:port` or `[ipv6]:port`; default the system's resolvers. */
  readonly dnsServers?: readonly string[];
  /** Clock for `checkedAt` and overrides' `createdAt`; default the call's clock. */
  readonly now?: () => Date;
  /** Budget for the DNS lookups of one domain (default 2,000 ms). */
  readonly dnsTimeoutMs?: number;
}

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface CheckRequest {
  readonly email: string;
}
interface BatchRequest {
  readonly emails: readonly string[];
}
interface OverrideRequest {
  readonly domain: string;
  readonly action: OverrideAction;
  readonly note?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const BAD_EMAIL = 'must be a well-formed email address';
const BAD_DOMAIN = 'must be a valid domain name';

function address(input: string, field: string): EmailAddress {
  const parsed = parseEmail(input);
  if (!parsed) throw new AppError('VALIDATION_ERROR', `${field}: ${BAD_EMAIL}`);
  return parsed;
}

function domainOf(input: string, field: string): string {
  const domain = normalizeDomain(input, { trailingDot: true });
  if (!domain) throw new AppError('VALIDATION_ERROR', `${field}: ${BAD_DOMAIN}`);
  return domain;
}

/** D and R fields of one address (union: both conventions share `/api/v1/check`). */
const checkBody = (r: AddressResult, checkedAt: string) => ({
  email: r.address.input,
  domain: r.address.domain,
  disposable: r.disposable,
  confidence: r.confidence,
  detectionLayers: r.detectionLayers,
  reason: r.reason,
  score: r.score,
  reasons: r.reasons,
  checkedAt,
});

const LAYERS =
  'Layers: the account’s allow/deny overrides (for the domain or a parent); well-known mailbox providers ' +
  '(Gmail, Outlook, Yahoo, iCloud, Proton, GMX …: never disposable); the merged lists of ' +
  '`disposable-email-domains` and `mailchecker` (about 147,000 domains); DNS (MX, else A/AAAA: a domain that ' +
  'does not exist, has no mail host or publishes a null MX is suspicious); patterns (a sub-domain of a listed ' +
  'domain, a randomly generated domain name or local part). Findings add up to `score`; from 0.5 the address ' +
  'is disposable.';

/** `createDisposableEmailService({ kv: rt.kv, dnsServers: config.DNS_SERVERS })` (issue 6). */
export function createDisposableEmailService(deps: DisposableEmailDeps): ServiceDefinition {
  const overrides = new OverrideStore(deps.kv);
  const checker = new EmailChecker({
    lists: packagedDomainList,
    mailHosts: new MailHostChecker({
      ...(deps.dnsServers ? { servers: deps.dnsServers } : {}),
      ...(deps.dnsTimeoutMs ? { timeoutMs: deps.dnsTimeoutMs } : {}),
    }),
    overrides,
  });
  const now = (ctx: CallContext) => (deps.now ?? ctx.now)();

  return {
    slug: 'disposable-email',
    title: 'Disposable e-mail detection',
    description:
      'Tells whether an e-mail address belongs to a disposable (throwaway, temporary or forwarding) mail ' +
      'service: static lists, DNS and name patterns, with per-account allow/deny overrides.',
    routes: [
      {
        convention: 'S',
        method: 'GET',
        path: '/api/disposable-email/check',
        operationId: 'disposableEmailCheck',
        summary: 'Check whether an e-mail address is disposable',
        description: `${LAYERS} \`provider\` names the listed disposable domain or the known mailbox provider.`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          query: apiSchema('disposable-email/check-query.json'),
          response: { 200: apiSchema('disposable-email/check-s-response.json') },
        },
        async handler({ query }, ctx) {
          const email = String(query.email ?? '');
          const r = await checker.check(address(email, 'email'), ctx.accountId);
          return { email, disposable: r.disposable, provider: r.provider };
        },
      },
      {
        convention: 'D',
        alsoConvention: 'R',
        method: 'POST',
        path: '/api/v1/check',
        operationId: 'disposableEmailCheckAddress',
        summary: 'Check an e-mail address with every detection layer',
        description:
          `${LAYERS} The path is shared with the IP reputation check: a body with \`email\` is an e-mail ` +
          'check. The response carries D’s and R’s fields together.',
        auth: 'apiKey',
        metered: true,
        match: (body) => isObject(body) && 'email' in body,
        schemas: {
          body: apiSchema('disposable-email/check-request.json'),
          response: { 200: apiSchema('disposable-email/check-response.json') },
        },
        async handler({ body }, ctx) {
          const r = await checker.check(address((body as CheckRequest).email, 'email'), ctx.accountId);
          return checkBody(r, now(ctx).toISOString());
        },
      },
      {
        convention: 'D',
        alsoConvention: 'R',
        method: 'POST',
        path: '/api/v1/check/batch',
        operationId: 'disposableEmailCheckBatch',
        summary: 'Check up to 100 e-mail addresses',
        description:
          'At most the smaller of 100 addresses and the plan’s batch size (FREE 10, BASIC 50); more is 400. ' +
          'Each address gets a result item in request order; a malformed one fails alone (`error`, ' +
          '`message`, null verdict fields). Each distinct domain is looked up once. ' +
          LAYERS,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'emails', max: 100 },
        match: (body) => isObject(body) && 'emails' in body,
        schemas: {
          body: apiSchema('disposable-email/check-batch-request.json'),
          response: { 200: apiSchema('disposable-email/check-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const { emails } = body as BatchRequest;
          if (emails.length > ctx.batchLimit) {
            throw new AppError('VALIDATION_ERROR', `emails: must contain at most ${ctx.batchLimit} items`);
          }
          const results = await checker.checkMany(
            emails.map((e) => parseEmail(e)),
            ctx.accountId,
          );
          const items = results.map((r, i) =>
            r
              ? { email: emails[i]!, disposable: r.disposable, confidence: r.confidence, score: r.score }
              : {
                  email: emails[i]!,
                  disposable: null,
                  confidence: null,
                  score: null,
                  error: 'VALIDATION_ERROR',
                  message: `emails[${i}]: ${BAD_EMAIL}`,
                },
          );
          return {
            totalChecked: items.length,
            disposableCount: items.filter((i) => i.disposable === true).length,
            results: items,
            checkedAt: now(ctx).toISOString(),
          };
        },
      },
      {
        convention: 'D',
        alsoConvention: 'R',
        method: 'GET',
        path: '/api/v1/domains/{domain}',
        operationId: 'disposableEmailDomainStatus',
        summary: 'Look up a domain on the disposable-domain lists',
        description:
          'The domain’s standing on the merged lists and in the account’s overrides, with the list entry that ' +
          'matched and when it was listed. No DNS lookup and no guess from the name: use /api/v1/check for ' +
          'the full verdict on an address. An unlisted domain is 200 with `disposable` false and `source` null.',
        auth: 'apiKey',
        metered: true,
        schemas: {
          params: apiSchema('disposable-email/domain-params.json'),
          response: { 200: apiSchema('disposable-email/domain-response.json') },
        },
        async handler({ params }, ctx) {
          const status = await checker.domainStatus(domainOf(params.domain ?? '', 'domain'), ctx.accountId);
          return { ...status, checkedAt: now(ctx).toISOString() };
        },
      },
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/domains/overrides',
        operationId: 'disposableEmailOverrideSet',
        summary: 'Allow or deny a domain for this account',
        description:
          'ALLOW makes the domain and its sub-domains not disposable for this account’s checks (fixes a false ' +
          'positive at once); DENY makes them disposable. The most specific override wins. A second call for ' +
          'the same domain replaces the first (201 again). At most 10,000 overrides per account (then 422).',
        auth: 'apiKey',
        metered: true,
        status: 201,
        schemas: {
          body: apiSchema('disposable-email/override-request.json'),
          response: { 201: apiSchema('disposable-email/override-response.json') },
        },
        async handler({ body }, ctx) {
          const { domain, action, note } = body as OverrideRequest;
          const override: Override = {
            domain: domainOf(domain, 'domain'),
            action,
            note: note ?? null,
            createdAt: now(ctx).toISOString(),
          };
          return overrides.put(accountOf(ctx), override);
        },
      },
      {
        convention: 'D',
        method: 'DELETE',
        path: '/api/v1/domains/overrides/{domain}',
        operationId: 'disposableEmailOverrideDelete',
        summary: 'Remove this account’s override for a domain',
        description: '204 when removed; 404 when this account has no override for exactly that domain.',
        auth: 'apiKey',
        metered: true,
        status: 204,
        schemas: {
          params: apiSchema('disposable-email/domain-params.json'),
          response: { 204: { type: 'null', description: 'Removed; no content' } },
        },
        async handler({ params }, ctx) {
          const domain = domainOf(params.domain ?? '', 'domain');
          if (!(await overrides.remove(accountOf(ctx), domain))) {
            throw new AppError('NOT_FOUND', `domain: this account has no override for ${domain}`);
          }
          return reply(null, { status: 204 });
        },
      },
    ],
  };
}

function accountOf(ctx: CallContext): string {
  if (!ctx.accountId) throw new AppError('UNAUTHORIZED', 'an API key is required');
  return ctx.accountId;
}
