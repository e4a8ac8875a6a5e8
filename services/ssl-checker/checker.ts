import type { OutboundClient } from '../../core/outbound/outbound.js';
import type { TrustStore } from './chain.js';
import { acceptedVersions, ConnectionFailure, type HandshakeTimeouts, observe } from './handshake.js';
import type { CheckTarget } from './hostname.js';
import { buildReport, type SslReport } from './report.js';
import { fromNodeProtocol } from './tls-versions.js';

export interface CheckerDeps {
  readonly outbound: OutboundClient;
  readonly trust: TrustStore;
  readonly now: () => Date;
  readonly timeouts: HandshakeTimeouts;
}

export interface CheckRequest {
  /** As the caller wrote it; echoed in the result. */
  readonly hostname: string;
  readonly target: CheckTarget;
  readonly port: number;
  /** Probe which TLS versions the server accepts (needed for R's `protocols` and `grade`). */
  readonly probeVersions: boolean;
}

export type CheckOutcome =
  | { readonly ok: true; readonly report: SslReport }
  | { readonly ok: false; readonly message: string };

/**
 * One check: a handshake, the version probes when asked, then the pure analysis. A connection that cannot be
 * made is an outcome (CONNECTION_FAILED); a refusal by the outbound guard (SSRF_BLOCKED) is thrown.
 */
export async function checkEndpoint(deps: CheckerDeps, request: CheckRequest): Promise<CheckOutcome> {
  const { outbound, timeouts } = deps;
  try {
    const seen = await observe(outbound, request.target, request.port, timeouts.handshakeMs);
    const protocols = request.probeVersions
      ? await acceptedVersions(
          outbound,
          request.target,
          request.port,
          fromNodeProtocol(seen.protocol),
          timeouts.probeMs,
        )
      : undefined;
    const observation = protocols ? { ...seen, protocols } : seen;
    return { ok: true, report: buildReport(request, observation, deps.trust, deps.now()) };
  } catch (error) {
    if (error instanceof ConnectionFailure) return { ok: false, message: error.message };
    throw error;
  }
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the input order in the results. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
