import { Resolver } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import type { AddressPolicy, Verdict } from './address-policy.js';
import { invalidHost, ssrfBlocked } from './errors.js';
import { isLocalhostName, parseHost } from './host.js';
import { OutboundError } from './outbound.js';

/** A host that passed the policy: the one address to connect to, and every address its name had. */
export interface VettedHost {
  /** The host as parsed: DNS name (lower-case ASCII, no trailing dot) or canonical IP literal. */
  readonly host: string;
  readonly isName: boolean;
  /** Connect here and nowhere else: the first IPv4 answer, else the first IPv6 answer. */
  readonly address: string;
  readonly addresses: readonly string[];
  readonly dnsMs: number;
}

export interface VetOptions {
  /** Field named in error messages: `url` for fetches, `host` for connectors. */
  readonly field: string;
  /** `resolves` (the caller's own target) or `redirects` (a hop the target chose). */
  readonly verb?: 'resolves' | 'redirects';
  /** Per DNS attempt. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface HostVetter {
  vet(host: string, options: VetOptions): Promise<VettedHost>;
}

/**
 * Resolves a host once and vets every answer. A name is resolved with c-ares (A and AAAA, in parallel), never
 * the system's getaddrinfo, so `/etc/hosts` and the OS resolver cannot answer differently from what was vetted.
 * If ANY answer is refused the host is refused: which answer a connection would use is the attacker's choice.
 */
export function createHostVetter(policy: AddressPolicy, dnsServers?: readonly string[]): HostVetter {
  if (dnsServers && dnsServers.length > 0) {
    // Fails fast on a bad DNS_SERVERS entry, at composition time rather than on the first request.
    new Resolver().setServers([...dnsServers]);
  }

  const refuse = (host: string, options: VetOptions, verdict?: Verdict, reason?: string): never => {
    throw ssrfBlocked(`${options.field}: ${options.verb ?? 'resolves'} to a non-public address`, {
      host,
      ...(verdict ? { address: verdict.address } : {}),
      reason: reason ?? verdict?.reason ?? 'refused',
    });
  };

  return {
    async vet(host, options) {
      const target = parseHost(host);
      if (!target) throw invalidHost(options.field);
      if (target.kind === 'ip') {
        const verdict = policy.check(target.literal.address);
        if (!verdict.allowed) refuse(host, options, verdict);
        return {
          host: target.literal.address,
          isName: false,
          address: verdict.connectAddress,
          addresses: [verdict.connectAddress],
          dnsMs: 0,
        };
      }
      const { name } = target;
      if (isLocalhostName(name)) refuse(name, options, undefined, 'localhost name (RFC 6761)');

      const started = performance.now();
      const answers = await resolveBoth(name, options, dnsServers);
      const dnsMs = performance.now() - started;
      const verdicts = answers.map((a) => policy.check(a));
      const blocked = verdicts.find((v) => !v.allowed);
      if (blocked) refuse(name, options, blocked);
      const addresses = [...new Set(verdicts.map((v) => v.connectAddress))].sort(
        (a, b) => Number(a.includes(':')) - Number(b.includes(':')),
      );
      return { host: name, isName: true, address: addresses[0]!, addresses, dnsMs };
    },
  };
}

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME']);

async function resolveBoth(
  name: string,
  options: VetOptions,
  dnsServers?: readonly string[],
): Promise<string[]> {
  const resolver = new Resolver({ timeout: Math.max(100, Math.min(options.timeoutMs, 2_000)), tries: 2 });
  if (dnsServers && dnsServers.length > 0) resolver.setServers([...dnsServers]);
  const cancel = () => resolver.cancel();
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    if (options.signal?.aborted) throw options.signal.reason;
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    if (options.signal?.aborted) throw options.signal.reason;
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value : []),
      ...(v6.status === 'fulfilled' ? v6.value : []),
    ];
    if (found.length > 0) return found;
    const codes = [v4, v6].map((r) => (r.status === 'rejected' ? String(r.reason?.code ?? '') : 'ENODATA'));
    if (codes.includes('ENOTFOUND'))
      throw new OutboundError('DNS_FAILURE', `${name} does not exist (NXDOMAIN)`);
    if (codes.every((c) => NO_ANSWER.has(c))) {
      throw new OutboundError('DNS_FAILURE', `${name} has no A or AAAA record`);
    }
    if (codes.includes('ETIMEOUT')) throw new OutboundError('DNS_FAILURE', `DNS lookup of ${name} timed out`);
    if (codes.includes('ESERVFAIL'))
      throw new OutboundError('DNS_FAILURE', `DNS lookup of ${name} failed (SERVFAIL)`);
    throw new OutboundError('DNS_FAILURE', `DNS lookup of ${name} failed`);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
}
