/**
 * Probe benchmark: the services that reach out to other hosts, against servers on this machine, each beside a
 * baseline doing the same network work with Node's own client, measured in the same run.
 *
 *   node --import tsx bench/probes.ts            (BENCH_SCALE=0.2 for a quick run, 2 for a longer one)
 *
 * - DNS check (services/dns-checker, `dnsCheck`: A, AAAA, MX and TXT of one name) against a local DNS server;
 *   baseline: node:dns Resolver (c-ares) asking the same server the same four questions in parallel.
 * - SSL check (services/ssl-checker) against a local TLS server with a generated CA: the S check (one
 *   handshake) and the D check (handshake plus a probe per other TLS version); baseline: tls.connect doing the
 *   same handshakes and reading the certificate chain.
 * - URL metadata (services/url-metadata) of a 1 MB page: extraction alone (decode, parse, collect), against
 *   decoding and tokenizing with iconv-lite and htmlparser2 and no callbacks; and fetch plus extraction over
 *   loopback through the outbound guard, against a plain http.get of the page decoded and tokenized.
 *
 * A service whose module is missing is reported as not measured. The target servers run in a child process
 * (this file with `--targets`), so that they do not share an event loop with the clients measured. Needs
 * `openssl` for the certificates. Removes its temporary directory and stops the child at the end, also on
 * failure. Calls the handlers directly: the gateway's own cost is bench/gateway.ts's subject.
 */
import { execFileSync, fork } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet, createServer as httpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect as tlsConnect, createServer as tlsServer } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { Packet, TCPServer, UDPServer } from 'dns2';
import { Parser } from 'htmlparser2';
import iconv from 'iconv-lite';
import { createOutboundClient } from '../core/outbound/client.js';
import type { OutboundClient } from '../core/outbound/outbound.js';
import type { CallContext, ServiceDefinition } from '../core/service/definition.js';
import { extractMetadata } from '../services/url-metadata/metadata.js';
import { createUrlMetadataService } from '../services/url-metadata/service.js';
import {
  benchScale,
  Cleanup,
  compareAbba,
  latencySummary,
  machineFacts,
  type Row,
  renderTable,
  scaled,
  type Work,
  withTimeout,
} from './lib/bench.js';

const SCALE = benchScale();
const COUNTS = {
  dns: scaled(4000, SCALE, 16),
  sslSimple: scaled(1500, SCALE, 16),
  sslFull: scaled(400, SCALE, 16),
  extract: scaled(40, SCALE, 2),
  fetch: scaled(200, SCALE, 8),
};
const CONCURRENCY = { dns: 16, ssl: 16, fetch: 8 };
const PAGE_BYTES = 1_000_000;
const DNS_NAME = 'bench.example';
const TLS_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;

const progress = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};

const packageVersion = (name: string): string => {
  try {
    const url = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
};

const CTX: CallContext = {
  requestId: 'bench',
  accountId: 'bench',
  keyId: 'bench',
  roles: ['ROLE_USER'],
  plan: 'ENTERPRISE',
  batchLimit: 1000,
  ip: '127.0.0.1',
  now: () => new Date(),
};

function handlerOf(service: ServiceDefinition, operationId: string) {
  const route = service.routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`${service.slug} has no operation ${operationId}`);
  return (input: { body?: unknown; query?: Record<string, unknown> }) =>
    route.handler({ params: {}, query: input.query ?? {}, body: input.body, headers: {} }, CTX);
}

/**
 * A page of about `bytes` bytes shaped like a news article: a head with the usual metadata, then a body of
 * nested markup, links and text, so the parser meets tags, attributes and entities in realistic proportions.
 */
function articlePage(bytes: number): Buffer {
  const head =
    '<!doctype html><html lang="en-US"><head><meta charset="utf-8">' +
    '<title>Benchmark article &amp; friends</title>' +
    '<meta name="description" content="A page of about one megabyte for the URL metadata benchmark.">' +
    '<meta property="og:title" content="Benchmark article"><meta property="og:type" content="article">' +
    '<meta property="og:image" content="/img/cover.jpg"><meta name="twitter:card" content="summary_large_image">' +
    '<link rel="stylesheet" href="/site.css"><link rel="icon" href="/favicon.png" sizes="32x32">' +
    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",' +
    '"headline":"Benchmark article","author":{"@type":"Person","name":"A. Writer"}}</script>' +
    '</head><body><main><article>';
  const block =
    '<section class="story"><h2 id="s">A section heading</h2><p>Paragraph text with <a href="/link?a=1&amp;b=2">' +
    'a link</a>, <em>emphasis</em> and an entity &mdash; repeated to fill the page. Lorem ipsum dolor sit amet, ' +
    'consectetur adipiscing elit.</p><ul><li>One</li><li>Two</li></ul><img src="/i.png" alt="x"></section>\n';
  const tail = '</article></main></body></html>';
  let body = head;
  while (body.length + block.length + tail.length <= bytes) body += block;
  body += `<!--${'x'.repeat(Math.max(0, bytes - body.length - tail.length - 7))}-->${tail}`;
  return Buffer.from(body, 'utf8');
}

// ------------------------------------------------------------------------------------------------ targets (child)

interface TargetPorts {
  readonly dns: string | null;
  readonly dnsError: string | null;
  readonly tlsPort: number;
  readonly httpPort: number;
}

/**
 * A DNS server for DNS_NAME on 127.0.0.1, UDP and TCP on one port (a client retries truncated answers over
 * TCP): A, AAAA, MX and TXT as a recursive resolver would answer them, NXDOMAIN for any other name.
 */
async function startDns(): Promise<{ port: number; close: () => Promise<void> }> {
  const ttl = 300;
  const records: Record<number, Record<string, unknown>[]> = {
    [Packet.TYPE.A]: [{ address: '192.0.2.10' }],
    [Packet.TYPE.AAAA]: [{ address: '2001:db8::10' }],
    [Packet.TYPE.MX]: [{ exchange: `mail.${DNS_NAME}`, priority: 10 }],
    [Packet.TYPE.TXT]: [{ data: ['v=spf1 -all'] }],
  };
  const respond = (request: Packet, send: (response: Packet) => unknown) => {
    const response = Packet.createResponseFromRequest(request);
    response.header.ra = 1;
    const question = request.questions[0];
    const name = question?.name.toLowerCase().replace(/\.$/, '');
    if (!question || name !== DNS_NAME)
      response.header.rcode = 3; // NXDOMAIN
    else {
      for (const data of records[question.type] ?? []) {
        response.answers.push({
          name: DNS_NAME,
          type: question.type,
          class: Packet.CLASS.IN,
          ttl,
          ...data,
        } as Packet['answers'][number]);
      }
    }
    Promise.resolve(send(response)).catch(() => {});
  };
  const udp = new UDPServer({ type: 'udp4' });
  udp.on('request', (request, send) => respond(request, send));
  udp.on('requestError', () => {});
  await udp.listen(0, '127.0.0.1');
  const port = udp.address().port;
  const tcp = new TCPServer();
  tcp.on('request', (request, send) => respond(request, send));
  tcp.on('requestError', () => {});
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port,
    close: async () => {
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

async function runTargets(): Promise<void> {
  const { keyFile, certFile } = JSON.parse(process.argv[process.argv.indexOf('--targets') + 1]!) as {
    keyFile: string;
    certFile: string;
  };
  const closers: (() => Promise<unknown>)[] = [];
  let dns: string | null = null;
  let dnsError: string | null = null;
  try {
    const server = await startDns();
    dns = `127.0.0.1:${server.port}`;
    closers.push(server.close);
  } catch (err) {
    dnsError = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  }

  const tls = tlsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (socket) => {
    socket.on('error', () => {});
    socket.end();
  });
  tls.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => tls.close(resolve)));

  const page = articlePage(PAGE_BYTES);
  const http = httpServer((req, res) => {
    if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(resolve);
      }),
  );

  const ports: TargetPorts = {
    dns,
    dnsError,
    tlsPort: (tls.address() as AddressInfo).port,
    httpPort: (http.address() as AddressInfo).port,
  };
  process.send?.({ ready: ports });
  const stop = async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
    process.exit(0);
  };
  process.on('message', (msg) => {
    if (msg === 'close') void stop();
  });
  process.on('disconnect', () => void stop());
}

// ------------------------------------------------------------------------------------------------ measuring

/** `count` calls of `op`, `concurrency` in flight, each latency recorded. */
function concurrent(op: () => Promise<void>, concurrency: number, latencies: number[]): Work {
  return async (count) => {
    let started = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (started < count) {
          started++;
          const t0 = performance.now();
          await op();
          latencies.push(performance.now() - t0);
        }
      }),
    );
  };
}

interface Case {
  readonly name: string;
  readonly ops: number;
  readonly unit: string;
  readonly concurrency: number;
  readonly ours: () => Promise<void>;
  readonly base: () => Promise<void>;
  readonly baseline: string;
}

async function measure(c: Case): Promise<Row> {
  progress(`${c.name}: ${c.ops} ${c.unit}, ${c.concurrency} at a time`);
  const oursLat: number[] = [];
  const baseLat: number[] = [];
  const warmup = Math.max(c.concurrency, Math.round(c.ops / 10));
  const r = await compareAbba(
    concurrent(c.ours, c.concurrency, oursLat),
    concurrent(c.base, c.concurrency, baseLat),
    c.ops,
    warmup,
  );
  const measured = (xs: number[]) => xs.slice(warmup);
  return {
    case: c.name,
    ops: c.ops,
    seconds: r.ours,
    baselineSeconds: r.base,
    notes: `${c.unit}/s, ${c.concurrency} in flight; latency ms p50/p95/p99 ours ${latencySummary(measured(oursLat))}, baseline ${latencySummary(measured(baseLat))}; baseline: ${c.baseline}`,
  };
}

const notMeasured = (name: string, why: string): Row => ({
  case: name,
  ops: 0,
  seconds: Number.NaN,
  notes: `not measured: ${why}`,
});

/** Loads a service module by path; null (with the reason) when it does not exist or fails to load. */
async function loadService<T>(path: string, factory: string): Promise<{ make: T } | { missing: string }> {
  try {
    const mod = (await import(path)) as Record<string, unknown>;
    if (typeof mod[factory] !== 'function') return { missing: `${path} exports no ${factory}` };
    return { make: mod[factory] as T };
  } catch (err) {
    return {
      missing: `${path} did not load (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
    };
  }
}

// ------------------------------------------------------------------------------------------------ cases

async function dnsCases(targets: TargetPorts): Promise<Row[]> {
  const name = `DNS check: A, AAAA, MX, TXT of one name`;
  if (!targets.dns) return [notMeasured(name, `the local DNS server did not start (${targets.dnsError})`)];
  const loaded = await loadService<(deps: { dnsServers: string[] }) => ServiceDefinition>(
    '../services/dns-checker/service.js',
    'createDnsCheckerService',
  );
  if ('missing' in loaded) return [notMeasured(name, loaded.missing)];
  const check = handlerOf(loaded.make({ dnsServers: [targets.dns] }), 'dnsCheck');
  const body = { hostname: DNS_NAME, recordTypes: ['A', 'AAAA', 'MX', 'TXT'] };
  const resolver = new Resolver({ timeout: 3000, tries: 1 });
  resolver.setServers([targets.dns]);
  return [
    await measure({
      name,
      ops: COUNTS.dns,
      unit: 'checks',
      concurrency: CONCURRENCY.dns,
      ours: async () => {
        const r = (await check({ body })) as { status: string; records: Record<string, unknown[]> };
        if (r.status !== 'NOERROR' || Object.keys(r.records).length !== 4)
          throw new Error(`dnsCheck answered ${JSON.stringify(r).slice(0, 200)}`);
      },
      base: async () => {
        const [a, aaaa, mx, txt] = await Promise.all([
          resolver.resolve4(DNS_NAME, { ttl: true }),
          resolver.resolve6(DNS_NAME, { ttl: true }),
          resolver.resolveMx(DNS_NAME),
          resolver.resolveTxt(DNS_NAME),
        ]);
        if (!a.length || !aaaa.length || !mx.length || !txt.length)
          throw new Error('c-ares: missing records');
      },
      baseline:
        'node:dns Resolver (c-ares) to the same server, the four queries in parallel; DNS server: dns2 in the target process',
    }),
  ];
}

async function sslCases(targets: TargetPorts, ca: string, outbound: OutboundClient): Promise<Row[]> {
  const simpleName = 'SSL check S (one handshake)';
  const fullName = 'SSL check D (handshake + a probe per other TLS version)';
  const loaded = await loadService<
    (deps: { outbound: OutboundClient; trustedCa: string[] }) => ServiceDefinition
  >('../services/ssl-checker/service.js', 'createSslCheckerService');
  if ('missing' in loaded)
    return [notMeasured(simpleName, loaded.missing), notMeasured(fullName, loaded.missing)];
  const service = loaded.make({ outbound, trustedCa: [ca] });
  const simple = handlerOf(service, 'sslCheckerCheck');
  const full = handlerOf(service, 'sslCheckDetailed');
  const port = targets.tlsPort;

  const handshake = (options: { minVersion?: (typeof TLS_VERSIONS)[number]; maxVersion?: string }) =>
    new Promise<boolean>((resolve) => {
      const socket = tlsConnect({
        host: '127.0.0.1',
        port,
        ca,
        rejectUnauthorized: false,
        ...(options.minVersion ? { minVersion: options.minVersion, ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
        ...(options.maxVersion ? { maxVersion: options.maxVersion as 'TLSv1.3' } : {}),
      });
      socket.once('secureConnect', () => {
        const chain = socket.getPeerCertificate(true);
        socket.getCipher();
        socket.getProtocol();
        const ok = socket.authorized && Boolean(chain.raw);
        socket.destroy();
        resolve(ok);
      });
      socket.once('error', () => {
        socket.destroy();
        resolve(false);
      });
    });

  const expectValid = (r: unknown) => {
    const v = r as { valid?: boolean; error?: string };
    if (v.valid !== true) throw new Error(`ssl check answered ${JSON.stringify(r).slice(0, 300)}`);
  };
  return [
    await measure({
      name: simpleName,
      ops: COUNTS.sslSimple,
      unit: 'checks',
      concurrency: CONCURRENCY.ssl,
      ours: async () => expectValid(await simple({ query: { domain: '127.0.0.1', port } })),
      base: async () => {
        if (!(await handshake({}))) throw new Error('baseline handshake failed');
      },
      baseline: 'tls.connect verifying against the same CA, reading the peer chain, cipher and protocol',
    }),
    await measure({
      name: fullName,
      ops: COUNTS.sslFull,
      unit: 'checks',
      concurrency: CONCURRENCY.ssl,
      ours: async () => expectValid(await full({ body: { hostname: '127.0.0.1', port } })),
      base: async () => {
        if (!(await handshake({}))) throw new Error('baseline handshake failed');
        // The server accepts TLS 1.2 and 1.3; the main handshake proved 1.3, the other three are probed.
        await Promise.all(TLS_VERSIONS.slice(0, 3).map((v) => handshake({ minVersion: v, maxVersion: v })));
      },
      baseline:
        'tls.connect: the main handshake, then TLS 1.0, 1.1 and 1.2 each pinned, in parallel (1.0 and 1.1 refused by the server)',
    }),
  ];
}

async function urlMetadataCases(targets: TargetPorts, outbound: OutboundClient): Promise<Row[]> {
  const page = articlePage(PAGE_BYTES);
  const pageUrl = `http://127.0.0.1:${targets.httpPort}/page`;
  const tokenize = (body: Buffer) => {
    const parser = new Parser({}, { decodeEntities: true });
    parser.end(iconv.decode(body, 'utf8'));
  };
  const expectTitle = (title: string) => {
    if (title !== 'Benchmark article & friends') throw new Error(`extracted title ${JSON.stringify(title)}`);
  };
  const fetchPage = handlerOf(createUrlMetadataService({ outbound }), 'urlMetadataFetch');
  const rawGet = () =>
    new Promise<Buffer>((resolve, reject) => {
      httpGet(pageUrl, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      }).on('error', reject);
    });
  return [
    await measure({
      name: `URL metadata: extract from a ${(PAGE_BYTES / 1e6).toFixed(0)} MB page (no network)`,
      ops: COUNTS.extract,
      unit: 'pages',
      concurrency: 1,
      ours: async () => {
        const m = extractMetadata({
          requestedUrl: pageUrl,
          url: pageUrl,
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: page,
          redirectChain: [],
        });
        expectTitle(m.title);
      },
      base: async () => tokenize(page),
      baseline: 'iconv-lite decode + htmlparser2 tokenizing the same bytes with no callbacks',
    }),
    await measure({
      name: `URL metadata: fetch + extract a ${(PAGE_BYTES / 1e6).toFixed(0)} MB page over loopback`,
      ops: COUNTS.fetch,
      unit: 'pages',
      concurrency: CONCURRENCY.fetch,
      ours: async () =>
        expectTitle(((await fetchPage({ body: { url: pageUrl } })) as { title: string }).title),
      base: async () => {
        const body = await rawGet();
        if (body.length !== PAGE_BYTES) throw new Error(`raw GET read ${body.length} bytes`);
        tokenize(body);
      },
      baseline:
        'http.get (new connection each) reading the whole page, then decode + tokenize as above; ours adds the SSRF guard (resolve, vet, pinned connect) and the extraction',
    }),
  ];
}

// ------------------------------------------------------------------------------------------------ main

/** A CA and a leaf for 127.0.0.1 signed by it, made with openssl in `dir`. */
function makeCertificates(dir: string): { ca: string; keyFile: string; certFile: string } {
  const run = (args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Toolgate bench CA',
  ]);
  run(['req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(
    join(dir, 'leaf.ext'),
    'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
  );
  run([
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
  ]);
  const ca = readFileSync(join(dir, 'ca.pem'), 'utf8');
  const certFile = join(dir, 'chain.pem');
  writeFileSync(certFile, readFileSync(join(dir, 'leaf.pem'), 'utf8') + ca);
  return { ca, keyFile: join(dir, 'leaf.key'), certFile };
}

async function startTargets(cleanup: Cleanup, files: { keyFile: string; certFile: string }) {
  const child = fork(fileURLToPath(import.meta.url), ['--targets', JSON.stringify(files)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  cleanup.add(`stop the target servers (pid ${child.pid})`, async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.connected) child.send('close');
    try {
      await withTimeout('target servers exit', 10_000, exited);
    } catch {
      child.kill('SIGKILL');
    }
  });
  return withTimeout(
    'target servers start',
    60_000,
    new Promise<TargetPorts>((resolve, reject) => {
      child.once('message', (msg: { ready?: TargetPorts }) =>
        msg.ready ? resolve(msg.ready) : reject(new Error('unexpected message')),
      );
      child.once('exit', (code) => reject(new Error(`target servers exited with code ${code}`)));
    }),
  );
}

function render(rows: readonly Row[]): string {
  const measured = rows.filter((r) => Number.isFinite(r.seconds));
  const skipped = rows.filter((r) => !Number.isFinite(r.seconds));
  return [
    measured.length > 0 ? renderTable(measured) : '(nothing measured)',
    ...(skipped.length > 0 ? ['', ...skipped.map((r) => `- ${r.case}: ${r.notes}`)] : []),
  ].join('\n');
}

async function main(): Promise<number> {
  const cleanup = new Cleanup();
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    progress('interrupted: cleaning up');
    void cleanup.run().finally(() => process.exit(130));
  });
  const facts = [
    `date: ${new Date().toISOString()}`,
    `command: cd ${process.cwd()} && ${SCALE === 1 ? '' : `BENCH_SCALE=${SCALE} `}node --import tsx bench/probes.ts`,
    ...machineFacts(),
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    `htmlparser2 ${packageVersion('htmlparser2')}, iconv-lite ${packageVersion('iconv-lite')}, dns2 ${packageVersion('dns2')}; ${(() => {
      try {
        return execFileSync('openssl', ['version'], { encoding: 'utf8' }).trim();
      } catch {
        return 'openssl: not found';
      }
    })()}`,
    'target servers (DNS: dns2, TLS: node:tls with an ECDSA P-256 certificate, HTTP: node:http) in a child process; clients and handlers in this one',
  ];
  const rows: Row[] = [];
  let failed = false;
  const t0 = Date.now();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'tgbench-probes-'));
    cleanup.add(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
    const { ca, keyFile, certFile } = makeCertificates(dir);
    const targets = await startTargets(cleanup, { keyFile, certFile });
    // Loopback is what the guard exists to refuse: allowed here as OUTBOUND_ALLOW_CIDRS would allow it.
    const outbound = createOutboundClient({ allowCidrs: ['127.0.0.0/8'], userAgent: 'Toolgate-bench/0.1' });
    for (const cases of [
      () => dnsCases(targets),
      () => sslCases(targets, ca, outbound),
      () => urlMetadataCases(targets, outbound),
    ]) {
      try {
        rows.push(...(await cases()));
      } catch (err) {
        failed = true;
        process.stderr.write(
          `case failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
        );
      }
    }
  } catch (err) {
    failed = true;
    process.stderr.write(
      `benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
  }
  const measured = (Date.now() - t0) / 1000;
  const cleanupFailures = interrupted ? [] : await cleanup.run();
  for (const f of cleanupFailures) process.stderr.write(`cleanup failed: ${f}\n`);
  const out = [
    '## Probes (bench/probes.ts)',
    '',
    ...facts.map((f) => `- ${f}`),
    `- total run: ${measured.toFixed(0)} s${failed ? ' (FAILED: the table is incomplete)' : ''}`,
    '',
    render(rows),
    '',
  ];
  process.stdout.write(out.join('\n'));
  return failed || cleanupFailures.length > 0 ? 1 : 0;
}

if (process.argv.includes('--targets')) {
  runTargets().catch((err: unknown) => {
    process.stderr.write(`target servers failed: ${String(err)}\n`);
    process.exit(1);
  });
} else {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`benchmark crashed: ${String(err)}\n`);
      process.exit(1);
    },
  );
}
