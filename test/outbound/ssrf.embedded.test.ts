/**
 * The SSRF suite against the outbound module itself: every case of the shared table (test/support/ssrf-cases.ts)
 * is refused with SSRF_BLOCKED by fetch, connectTcp, connectTls and vet, and the sentinel listening on every
 * local address sees no connection. Positive controls show each proof can fail: the same targets ARE reached
 * when the allow-list names them, and a naive client IS fooled by the rebinding name.
 */
import { Resolver } from 'node:dns/promises';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { createOutboundClient } from '../../core/outbound/client.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import {
  responseFromError,
  runSsrfTable,
  runSsrfTargets,
  SSRF_CASES,
  SSRF_PUBLIC_IP,
  SSRF_TARGET_CASES,
  type SsrfFixtures,
  type SsrfResponse,
  startSsrfFixtures,
} from '../support/ssrf-cases.js';

const UA = 'Toolgate/test (+http://localhost:8080)';
let fx: SsrfFixtures;
let client: OutboundClient;

beforeAll(async () => {
  fx = await startSsrfFixtures();
  client = createOutboundClient({ ...fx.policy, userAgent: UA });
});
afterAll(() => fx?.close());

/** Lets the sentinel's accept callbacks run before its log is read. */
const settle = () => new Promise((r) => setTimeout(r, 50));

const outcome = async (call: () => Promise<unknown>): Promise<SsrfResponse> => {
  try {
    await call();
    return { status: 200, body: null };
  } catch (err) {
    return responseFromError(err);
  }
};

describe('the table', () => {
  it('has at least 40 cases with unique ids, covering the spellings the issue names', () => {
    expect(SSRF_CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(SSRF_CASES.map((c) => c.id)).size).toBe(SSRF_CASES.length);
    const urls = SSRF_CASES.map((c) => c.url(fx));
    for (const spelling of [
      '//127.1:',
      '//0x7f.1:',
      '//0177.0.0.1:',
      '//017700000001:',
      '//2130706433:',
      '//[::ffff:7f00:1]:',
      '//[000:0:0000::01]:',
      '//public@127.0.0.1:',
      '//169.254.169.254',
      '//100.64.0.1',
      '//0.0.0.0:',
      '//[::]:',
    ]) {
      expect(
        urls.some((u) => u.includes(spelling)),
        spelling,
      ).toBe(true);
    }
    for (const group of ['redirect', 'dns', 'port', 'userinfo', 'allow-list', 'embedded', 'range']) {
      expect(
        SSRF_CASES.some((c) => c.group === group),
        group,
      ).toBe(true);
    }
  });
});

describe('fetch refuses every case with 403 SSRF_BLOCKED before connecting', () => {
  afterEach(async () => {
    await settle();
    expect(fx.sentinel.connections).toEqual([]);
  });

  it.each(SSRF_CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const err = await client.fetch({ url: c.url(fx) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'SSRF_BLOCKED', status: 403 });
    expect((err as AppError).message).toMatch(
      /^url: (resolves|redirects) to a non-(public address|HTTP\(S\) URL)$/,
    );
  });

  it('runSsrfTable reports the same through its send callback', async () => {
    const run = await runSsrfTable(fx, (url) => outcome(() => client.fetch({ url })));
    expect(run.outcomes).toHaveLength(SSRF_CASES.length);
    expect(run.failures).toEqual([]);
    expect(run.sentinelConnections).toEqual([]);
  });

  it('redirect cases reached the public-looking server first, and stopped there', () => {
    const redirects = SSRF_CASES.filter((c) => c.group === 'redirect').length;
    expect(fx.publicHttp.requests.filter((r) => r.startsWith('GET /redirect')).length).toBeGreaterThanOrEqual(
      redirects,
    );
  });
});

describe('connectTcp, connectTls and vet refuse every host-form case', () => {
  afterEach(async () => {
    await settle();
    expect(fx.sentinel.connections).toEqual([]);
  });

  it('has host forms for the spelling, IPv6, embedded, range, name, port, allow-list and DNS cases', () => {
    expect(SSRF_TARGET_CASES.length).toBeGreaterThanOrEqual(40);
  });

  it('connectTcp', async () => {
    const run = await runSsrfTargets(fx, (host, port) => outcome(() => client.connectTcp(host, port)));
    expect(run.failures).toEqual([]);
  });

  it('connectTls', async () => {
    const run = await runSsrfTargets(fx, (host, port) =>
      outcome(() => client.connectTls(host, port, { rejectUnauthorized: true })),
    );
    expect(run.failures).toEqual([]);
  });

  it('vet', async () => {
    const run = await runSsrfTargets(fx, (host) => outcome(() => client.vet(host)));
    expect(run.failures).toEqual([]);
  });

  it('names the host field in connector refusals', async () => {
    await expect(client.connectTcp('0x7f.1', fx.sentinel.port)).rejects.toMatchObject({
      code: 'SSRF_BLOCKED',
      message: 'host: resolves to a non-public address',
      details: { host: '0x7f.1', address: '127.0.0.1', reason: 'Loopback 127.0.0.0/8 (RFC 1122)' },
    });
  });
});

describe('the allow-list lets exactly the listed range through', () => {
  it('the allowed address is reached, by IP and by name, over HTTP and TCP', async () => {
    const res = await client.fetch({ url: `${fx.publicHttp.origin}/ok` });
    expect(res).toMatchObject({ status: 200, remoteAddress: SSRF_PUBLIC_IP });
    const byName = await client.fetch({ url: `http://public.ssrf.test:${fx.publicHttp.port}/ok` });
    expect(byName).toMatchObject({ status: 200, remoteAddress: SSRF_PUBLIC_IP });
    expect(await client.vet('public.ssrf.test')).toBe(SSRF_PUBLIC_IP);

    // Positive control for the sentinel: a connection it should see, it sees.
    const { socket } = await client.connectTcp(SSRF_PUBLIC_IP, fx.sentinel.port);
    socket.destroy();
    await settle();
    expect(fx.sentinel.connections).toEqual([expect.stringMatching(/-> (::ffff:)?127\.0\.0\.100$/)]);
    fx.sentinel.connections.length = 0;
  });

  it('a wider range opens exactly that range: the table targets in it get through, the rest stay refused', async () => {
    const wide = createOutboundClient({
      allowCidrs: ['127.0.0.0/24', '::1/128'],
      dnsServers: fx.policy.dnsServers,
      userAgent: UA,
    });
    // The sentinel closes every connection at once: reaching it is a connection failure, not a refusal.
    for (const url of [
      `http://127.0.0.1:${fx.sentinel.port}/`,
      `http://0x7f.1:${fx.sentinel.port}/`,
      `http://127.0.0.255:${fx.sentinel.port}/`,
      `http://[::1]:${fx.sentinel.port}/`,
      `http://private.ssrf.test:${fx.sentinel.port}/`,
    ]) {
      await expect(wide.fetch({ url }), url).rejects.toMatchObject({ name: 'OutboundError' });
    }
    await settle();
    expect(fx.sentinel.connections).toHaveLength(5);
    fx.sentinel.connections.length = 0;

    for (const url of [
      `http://127.0.1.1:${fx.sentinel.port}/`,
      `http://127.1.0.1:${fx.sentinel.port}/`,
      `http://0.0.0.0:${fx.sentinel.port}/`,
      `http://[::2]:${fx.sentinel.port}/`,
      'http://10.0.0.1/',
      'http://169.254.169.254/',
    ]) {
      await expect(wide.fetch({ url }), url).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
    }
    await settle();
    expect(fx.sentinel.connections).toEqual([]);
  });

  it('with an empty allow-list even the suite\'s "public" address is refused', async () => {
    const strict = createOutboundClient({ allowCidrs: [], dnsServers: fx.policy.dnsServers, userAgent: UA });
    await expect(strict.fetch({ url: `${fx.publicHttp.origin}/ok` })).rejects.toMatchObject({
      code: 'SSRF_BLOCKED',
    });
    await expect(strict.connectTcp('public.ssrf.test', fx.publicHttp.port)).rejects.toMatchObject({
      code: 'SSRF_BLOCKED',
    });
  });
});

describe('DNS rebinding: one resolution per connection, and the connection goes to what was vetted', () => {
  let trap: Server;
  const trapped: string[] = [];
  const NAME = 'rebind.ssrf.test';

  beforeAll(async () => {
    // A private listener on the public server's port: a second lookup would land here.
    trap = createServer((s) => {
      trapped.push(s.remoteAddress ?? '');
      s.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(fx.publicHttp.port, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => trap.close(() => resolve())));

  /** From now on: the first A query answers the public address, every later one 127.0.0.1 (TTL 0). */
  const flip = () => {
    const before = fx.dns.queryCount(NAME, 'A');
    fx.dns.table[NAME] = ({ type, count }) =>
      type === 'A' ? { A: [count - before === 1 ? SSRF_PUBLIC_IP : '127.0.0.1'], ttl: 0 } : {};
  };

  it('the first answer (public) is used for the whole request; the private second answer is never asked for', async () => {
    flip();
    const before = fx.dns.queryCount(NAME, 'A');
    const res = await client.fetch({ url: `http://${NAME}:${fx.publicHttp.port}/ok` });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('ok');
    expect(res.remoteAddress).toBe(SSRF_PUBLIC_IP);
    expect(fx.dns.queryCount(NAME, 'A') - before).toBe(1);
    expect(trapped).toEqual([]);
  });

  it('the next request resolves again, sees the private answer and is refused', async () => {
    await expect(client.fetch({ url: `http://${NAME}:${fx.publicHttp.port}/ok` })).rejects.toMatchObject({
      code: 'SSRF_BLOCKED',
    });
    await settle();
    expect(trapped).toEqual([]);
  });

  it('positive control: a client that vets one lookup and connects by name is fooled', async () => {
    flip();
    const resolver = new Resolver();
    resolver.setServers([fx.dns.server]);
    const first = await resolver.resolve4(NAME);
    expect(first).toEqual([SSRF_PUBLIC_IP]);
    await new Promise<void>((resolve) => {
      const req = get(
        {
          host: NAME,
          port: fx.publicHttp.port,
          path: '/ok',
          // What a naive guard does: vet one lookup, then let the socket look the name up again.
          lookup: (hostname, options, callback) => {
            const done = callback as (e: Error | null, a?: unknown, f?: number) => void;
            resolver.resolve4(hostname).then(
              (a) => (options.all ? done(null, [{ address: a[0], family: 4 }]) : done(null, a[0], 4)),
              (e: Error) => done(e),
            );
          },
        },
        () => resolve(),
      );
      req.on('error', () => resolve());
    });
    await settle();
    expect(trapped).toHaveLength(1);
    trapped.length = 0;
  });
});
