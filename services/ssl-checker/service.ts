import { rootCertificates } from 'node:tls';
import { AppError } from '../../core/errors/catalogue.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import type {
  CallContext,
  RouteDefinition,
  RouteInput,
  ServiceDefinition,
} from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { createTrustStore, type TrustStore } from './chain.js';
import { type CheckerDeps, type CheckOutcome, checkEndpoint, mapLimited } from './checker.js';
import type { HandshakeTimeouts } from './handshake.js';
import { HOSTNAME_CONSTRAINT, parseHostname } from './hostname.js';
import { connectionFailed, dResult, rResult, sConnectionFailed, sResult, unionResult } from './shapes.js';

export interface SslCheckerDeps {
  /** The only way out (DESIGN.md section 6): every handshake goes through its SSRF guard. */
  readonly outbound: OutboundClient;
  /** Extra trust anchors (PEM) beside the system store (`tls.rootCertificates`), e.g. a private or test CA. */
  readonly trustedCa?: readonly string[];
  /** The clock for validity and days until expiry; the gateway's clock when omitted. */
  readonly now?: () => Date;
  /** Defaults: 10 s for the main handshake, 5 s for each version probe. */
  readonly timeouts?: Partial<HandshakeTimeouts>;
}

const DEFAULT_PORT = 443;
const BATCH_MAX = 100;
/** Targets of one batch checked at the same time: each may open five connections (handshake and probes). */
const BATCH_CONCURRENCY = 8;

interface TargetBody {
  readonly hostname: string;
  readonly port?: number;
}

interface BatchBody {
  readonly targets: readonly TargetBody[];
}

interface SQuery {
  readonly domain: string;
  readonly port?: number;
}

/** `X-API-Convention: R` selects R's string `issuer` on the shared path (DESIGN.md section 7). */
const asksForR = (headers: RouteInput['headers']): boolean => {
  const value = headers['x-api-convention'];
  return (Array.isArray(value) ? value[0] : value)?.trim() === 'R';
};

/** Items of a batch that got no report: the input, and why. */
type ItemFailure = {
  readonly hostname: string;
  readonly port: number;
  readonly valid: false;
  readonly error: 'CONNECTION_FAILED' | 'SSRF_BLOCKED' | 'VALIDATION_ERROR';
  readonly message: string;
};

const CHECKS =
  'The handshake offers TLS 1.0 to 1.3 and verification is done here: the chain is built from the ' +
  "server's certificates to a root of the system trust store; the name must match a subjectAltName entry " +
  '(wildcards cover one label; the common name is not used). Every connection goes through the outbound ' +
  'guard: a host resolving to a non-public address is refused with SSRF_BLOCKED.';

export function createSslCheckerService(deps: SslCheckerDeps): ServiceDefinition {
  const trust: TrustStore = createTrustStore([...rootCertificates, ...(deps.trustedCa ?? [])]);
  const timeouts: HandshakeTimeouts = {
    handshakeMs: deps.timeouts?.handshakeMs ?? 10_000,
    probeMs: deps.timeouts?.probeMs ?? 5_000,
  };
  const checker = (ctx: CallContext): CheckerDeps => ({
    outbound: deps.outbound,
    trust,
    now: deps.now ?? ctx.now,
    timeouts,
  });

  const targetOf = (hostname: string, field: string) => {
    const target = parseHostname(hostname);
    if (!target) throw new AppError('VALIDATION_ERROR', `${field}: ${HOSTNAME_CONSTRAINT}`);
    return target;
  };

  /** One batch item: never throws for the item's own trouble, so the other items still get their results. */
  const checkItem = async (
    ctx: CallContext,
    item: TargetBody,
    probeVersions: boolean,
  ): Promise<CheckOutcome | ItemFailure> => {
    const port = item.port ?? DEFAULT_PORT;
    const target = parseHostname(item.hostname);
    const fail = (error: ItemFailure['error'], message: string): ItemFailure => ({
      hostname: item.hostname,
      port,
      valid: false,
      error,
      message,
    });
    if (!target) return fail('VALIDATION_ERROR', `hostname: ${HOSTNAME_CONSTRAINT}`);
    try {
      return await checkEndpoint(checker(ctx), { hostname: item.hostname, target, port, probeVersions });
    } catch (error) {
      if (error instanceof AppError && (error.code === 'SSRF_BLOCKED' || error.code === 'VALIDATION_ERROR')) {
        return fail(error.code, error.message);
      }
      throw error;
    }
  };

  const single = (convention: 'D' | 'R'): RouteDefinition['handler'] =>
    async function handler({ body }, ctx) {
      const { hostname, port = DEFAULT_PORT } = body as TargetBody;
      const target = targetOf(hostname, 'hostname');
      const outcome = await checkEndpoint(checker(ctx), { hostname, target, port, probeVersions: true });
      return outcome.ok
        ? unionResult(outcome.report, convention)
        : connectionFailed(hostname, port, outcome.message);
    };

  const sharedSchemas = (response: string) => ({
    body: apiSchema('ssl-checker/check-request.json'),
    response: { 200: apiSchema(`ssl-checker/${response}`) },
  });

  return {
    slug: 'ssl-checker',
    title: 'SSL checker',
    description:
      'Checks the TLS certificate and configuration of a host: validity, chain of trust, hostname match, ' +
      'self-signed detection, subject alternative names, negotiated protocol and cipher suite, days until ' +
      'expiry, the TLS versions accepted and a grade (A+ to F, T when the certificate is not trusted).',
    routes: [
      {
        convention: 'S',
        method: 'GET',
        path: '/api/ssl-checker/check',
        operationId: 'sslCheckerCheck',
        summary: 'Check the TLS certificate of a domain',
        description:
          'Connects to the domain (port 443 unless `port` is given) and reports whether its certificate is ' +
          'valid (within its dates, trusted chain, matching name), its issuer, its expiry and the days ' +
          'remaining. When no TLS connection can be made, `valid` is false, the certificate fields are ' +
          `null and \`error\` is CONNECTION_FAILED. ${CHECKS}`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          query: apiSchema('ssl-checker/s-check-query.json'),
          response: { 200: apiSchema('ssl-checker/s-check-response.json') },
        },
        async handler({ query }, ctx) {
          const { domain, port = DEFAULT_PORT } = query as unknown as SQuery;
          const target = targetOf(domain, 'domain');
          const outcome = await checkEndpoint(checker(ctx), {
            hostname: domain,
            target,
            port,
            probeVersions: false,
          });
          return outcome.ok ? sResult(outcome.report) : sConnectionFailed(domain, outcome.message);
        },
      },
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/ssl/check',
        operationId: 'sslCheckDetailed',
        summary: 'Check a TLS endpoint (detailed result; R fields included)',
        description:
          'The full certificate report of convention D together with the fields of convention R (grade, ' +
          'accepted protocols, hostname match), since both conventions share this path. `issuer` is an ' +
          'object here; send `X-API-Convention: R` for the string form. When no TLS connection can be made ' +
          `the result is {hostname, port, valid: false, error: CONNECTION_FAILED, message}. ${CHECKS}`,
        auth: 'apiKey',
        metered: true,
        match: (_body, headers) => !asksForR(headers),
        schemas: sharedSchemas('check-response.json'),
        handler: single('D'),
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/ssl/check',
        operationId: 'sslCheckGraded',
        summary: 'Check and grade a TLS endpoint (with X-API-Convention: R)',
        description:
          'Selected by the request header `X-API-Convention: R`: the same union of fields, with `issuer` as ' +
          'one string (organization, else common name). `protocols` lists the TLS versions the server ' +
          'accepts, each probed with its own handshake; `grade` follows the documented rules. ' +
          CHECKS,
        auth: 'apiKey',
        metered: true,
        match: (_body, headers) => asksForR(headers),
        schemas: sharedSchemas('check-response-r.json'),
        handler: single('R'),
      },
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/ssl/check-bulk',
        operationId: 'sslCheckBulk',
        summary: 'Check several TLS endpoints (detailed results)',
        description:
          'One detailed result per target, in request order, each with its own `processingTimeMs`. A target ' +
          'that cannot be checked carries its input, `valid: false`, `error` (CONNECTION_FAILED, ' +
          'SSRF_BLOCKED or VALIDATION_ERROR) and `message`; the other targets are unaffected. ' +
          CHECKS,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'targets', max: BATCH_MAX },
        schemas: {
          body: apiSchema('ssl-checker/check-bulk-request.json'),
          response: { 200: apiSchema('ssl-checker/check-bulk-response.json') },
        },
        async handler({ body }, ctx) {
          const { targets } = body as BatchBody;
          const results = await mapLimited(targets, BATCH_CONCURRENCY, async (item) => {
            const started = performance.now();
            const outcome = await checkItem(ctx, item, false);
            const processingTimeMs = Math.round(performance.now() - started);
            if (!('ok' in outcome)) return outcome;
            return outcome.ok
              ? { ...dResult(outcome.report), processingTimeMs }
              : connectionFailed(item.hostname, item.port ?? DEFAULT_PORT, outcome.message);
          });
          const validCount = results.filter((r) => r.valid).length;
          return {
            totalChecked: results.length,
            validCount,
            invalidCount: results.length - validCount,
            failedCount: results.filter((r) => 'error' in r).length,
            results,
          };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/ssl/check/batch',
        operationId: 'sslCheckBatch',
        summary: 'Check and grade several TLS endpoints',
        description:
          'One R result per target, in request order, with its `hostname` and `port`. A target that cannot ' +
          'be checked carries its input, `valid: false`, `error` (CONNECTION_FAILED, SSRF_BLOCKED or ' +
          `VALIDATION_ERROR) and \`message\`; the other targets are unaffected. ${CHECKS}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'targets', max: BATCH_MAX },
        schemas: {
          body: apiSchema('ssl-checker/check-batch-request.json'),
          response: { 200: apiSchema('ssl-checker/check-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const { targets } = body as BatchBody;
          const results = await mapLimited(targets, BATCH_CONCURRENCY, async (item) => {
            const outcome = await checkItem(ctx, item, true);
            if (!('ok' in outcome)) return outcome;
            return outcome.ok
              ? rResult(outcome.report)
              : connectionFailed(item.hostname, item.port ?? DEFAULT_PORT, outcome.message);
          });
          return { results, checkedAt: (deps.now ?? ctx.now)().toISOString() };
        },
      },
    ],
  };
}
