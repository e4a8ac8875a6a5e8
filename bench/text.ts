/**
 * Text services benchmark (issue 5): per service, requests/s through the gateway (embedded platform in a child
 * process, a real API key, autocannon) against the raw call the route makes, in this process, in the same run;
 * redaction throughput on a 1 MB log; fuzzy deduplication of 10,000 records.
 *
 *   npm run -s bench:text        (about 2 minutes on 2 cores; BENCH_SCALE=0.3 for a quick run)
 *
 * Ratios: gateway req/s ÷ raw calls/s. The raw side runs on one core of this process while the server is idle;
 * the gateway side shares the two cores between autocannon and the server, so the ratio is what an API call
 * costs on top of the work itself, not a pure overhead figure.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fileTypeFromBuffer } from 'file-type';
import type { CallContext } from '../core/service/definition.js';
import { detectDuplicates } from '../services/deduplication/detect.js';
import { SHERLOCK } from '../services/keyword-extractor/fixtures/sherlock.js';
import { createKeywordExtractorService } from '../services/keyword-extractor/service.js';
import { applyRedactions, detect } from '../services/log-redaction/redaction.js';
import { benchScale, Cleanup, latencySummary, machineFacts, type Row, renderTable } from './lib/bench.js';
import { type GatewayMeasure, gatewayVsRaw } from './lib/gateway-vs-raw.js';
import { closedLoopMix, requestMix } from './lib/http-load.js';
import { type LoadResult, mergeResults } from './lib/load.js';
import { startPlatform } from './lib/platform-process.js';
import { contactsOf, fileHeads, logOf } from './lib/text-fixtures.js';

const SCALE = benchScale();
const CONNECTIONS = 16;
/** Seconds of gateway load per case (two ABBA halves). */
const MEASURE_S = 6 * SCALE;
const DEDUP_RECORDS = 10_000;
const LOG_BYTES = 1_000_000;

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
  accountId: null,
  keyId: null,
  roles: [],
  plan: null,
  batchLimit: 100,
  ip: '127.0.0.1',
  now: () => new Date(),
};

/** Latency through the gateway under that load, for the notes. */
const lat = (m: GatewayMeasure): string => `latency ms p50/p95/p99 ${latencySummary(m.load.latenciesMs)}`;

async function gatewayCases(port: number, key: string): Promise<Row[]> {
  const rows: Row[] = [];
  const run = async (c: Omit<Parameters<typeof gatewayVsRaw>[0], 'connections' | 'seconds'>) => {
    progress(`${c.name}`);
    const m = await gatewayVsRaw({ ...c, connections: CONNECTIONS, seconds: MEASURE_S });
    const ratio = m.row.seconds > 0 ? (m.row.baselineSeconds ?? 0) / m.row.seconds : 0;
    // The table rounds ratios to two decimals: a tiny one is spelt out here.
    const small = ratio < 0.05 ? `; ratio ${ratio.toPrecision(2)}` : '';
    rows.push({ ...m.row, notes: `${m.row.notes}; ${lat(m)}${small}` });
    return m;
  };

  // Keyword extraction: the opening of "A Scandal in Bohemia" (about 2,000 characters), YAKE.
  const text = SHERLOCK;
  const kwRoute = createKeywordExtractorService().routes.find(
    (r) => r.operationId === 'keywordExtractorExtract',
  )!;
  const kwBody = { text, maxKeywords: 10 };
  await run({
    name: 'Keyword extraction, POST /api/keyword-extractor/extract',
    mix: requestMix(port, key, [{ method: 'POST', path: '/api/keyword-extractor/extract', body: kwBody }]),
    raw: async (n) => {
      for (let i = 0; i < n; i++) {
        await kwRoute.handler({ params: {}, query: {}, body: kwBody, headers: {} }, CTX);
      }
    },
    probe: 100,
    notes: `req/s; ${text.length.toLocaleString('en-US')} characters of English prose, 10 keywords; raw: the route's handler (extractKeywords) in-process`,
  });

  // Redaction, request-sized: 2 KB of log per call (about 20 lines).
  const chunks = Array.from({ length: 16 }, (_, i) => logOf(2048, 100 + i));
  await run({
    name: 'Log redaction, POST /api/v1/redact (R, {text})',
    mix: requestMix(
      port,
      key,
      chunks.map((t) => ({ method: 'POST' as const, path: '/api/v1/redact', body: { text: t } })),
    ),
    raw: (n) => {
      for (let i = 0; i < n; i++) {
        const t = chunks[i % chunks.length]!;
        applyRedactions(t, detect(t, 'TEXT'));
      }
    },
    probe: 400,
    notes:
      'req/s; 2 KB of application log per call (16 variants, ~25 % of lines with a secret); raw: detect + applyRedactions',
  });

  // Deduplication, request-sized: 100 contacts per call, fuzzy on three fields.
  const records = contactsOf(100, 0.1, 11);
  const dedupBody = { records, matchFields: ['name', 'email', 'phone'] };
  const opts = { strategy: 'FUZZY' as const, matchFields: dedupBody.matchFields, threshold: 0.85 };
  await run({
    name: 'Fuzzy dedup, POST /api/v1/dedup/detect, 100 records',
    mix: requestMix(port, key, [{ method: 'POST', path: '/api/v1/dedup/detect', body: dedupBody }]),
    raw: async (n) => {
      for (let i = 0; i < n; i++) await detectDuplicates(records, opts);
    },
    probe: 200,
    notes: 'req/s; 100 contacts, ~10 % near-duplicates, name/email/phone; raw: detectDuplicates',
  });

  // JSON validation, FULL mode against an inline schema (the route hands it to a worker thread).
  const schema = {
    type: 'object',
    required: ['id', 'email', 'items'],
    properties: {
      id: { type: 'integer', minimum: 1 },
      email: { type: 'string', maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' },
      items: {
        type: 'array',
        maxItems: 50,
        items: {
          type: 'object',
          required: ['sku', 'qty'],
          properties: {
            sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
            qty: { type: 'integer', minimum: 1 },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  };
  const doc = JSON.stringify({
    id: 1042,
    email: 'jane.doe@example.com',
    items: Array.from({ length: 10 }, (_, i) => ({ sku: `ABC-${1000 + i}`, qty: i + 1 })),
  });
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  await run({
    name: 'JSON validation, POST /api/v1/validate (D, FULL)',
    mix: requestMix(port, key, [
      { method: 'POST', path: '/api/v1/validate', body: { json: doc, mode: 'FULL', schema } },
    ]),
    raw: (n) => {
      for (let i = 0; i < n; i++)
        if (!validate(JSON.parse(doc))) throw new Error('the document must be valid');
    },
    probe: 400,
    notes: `req/s; a ${doc.length}-byte order against a 3-level schema with patterns; raw: ajv ${packageVersion('ajv')} (2020-12) compiled once, JSON.parse + validate`,
  });

  // File type: the first 256 bytes of four common formats, base64.
  const heads = fileHeads();
  await run({
    name: 'File type, POST /api/file-type/detect',
    mix: requestMix(
      port,
      key,
      heads.map((h) => ({
        method: 'POST' as const,
        path: '/api/file-type/detect',
        body: { content: h.bytes.toString('base64') },
      })),
    ),
    raw: async (n) => {
      for (let i = 0; i < n; i++) await fileTypeFromBuffer(heads[i % heads.length]!.bytes);
    },
    probe: 400,
    notes: `req/s; 256-byte heads of PNG, JPEG, GIF, PDF; raw: file-type ${packageVersion('file-type')} fileTypeFromBuffer`,
  });
  return rows;
}

/** Redaction of a 1 MB log: in-process MB/s against one regex pass, and the same log through the gateway. */
async function redactionThroughput(port: number, key: string): Promise<Row[]> {
  progress('redaction of a 1 MB log');
  const log = logOf(LOG_BYTES, 3);
  const mb = Buffer.byteLength(log) / 1e6;
  const passes = Math.max(2, Math.round(8 * SCALE));
  let found = 0;
  const ours = (): number => {
    const t0 = performance.now();
    const d = detect(log, 'TEXT');
    applyRedactions(log, d);
    found = d.length;
    return (performance.now() - t0) / 1000;
  };
  // A floor, not a rival: one e-mail regex over the same text, the least any redactor must do.
  const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
  const base = (): number => {
    const t0 = performance.now();
    log.replace(EMAIL, '[EMAIL_REDACTED]');
    return (performance.now() - t0) / 1000;
  };
  const mix = requestMix(port, key, [{ method: 'POST', path: '/api/v1/redact', body: { text: log } }]);
  ours();
  base();
  await closedLoopMix(mix, 1, 2);
  let o = 0;
  let b = 0;
  const runs: LoadResult[] = [];
  // Gateway and in-process runs alternate, so that the busy machine's swings hit both sides alike.
  for (let i = 0; i < passes; i++) {
    runs.push(await closedLoopMix(mix, 1, 1));
    o += ours();
    b += base();
  }
  const viaGateway = mergeResults(runs);
  return [
    {
      case: 'Redaction of a 1 MB log, in-process',
      ops: mb * passes,
      seconds: o,
      baselineSeconds: b,
      notes: `MB/s (ops = MB); ${found.toLocaleString('en-US')} detections in ${mb.toFixed(2)} MB; baseline: one e-mail regex replace over the same log (a floor, not an equivalent)`,
    },
    {
      case: 'Redaction of a 1 MB log, through the gateway',
      ops: mb * viaGateway.ok,
      seconds: viaGateway.seconds,
      baselineSeconds: (o / passes) * viaGateway.ok,
      notes: `MB/s (ops = MB); ${viaGateway.ok} sequential requests of ${mb.toFixed(2)} MB, latency ms p50/p95/p99 ${latencySummary(viaGateway.latenciesMs)}; baseline: the in-process detect + applyRedactions above`,
    },
  ];
}

/** Fuzzy detection over 10,000 contacts: in-process against EXACT on the same records, and through the gateway. */
async function dedupTenThousand(port: number, key: string): Promise<Row[]> {
  progress('fuzzy dedup of 10,000 records');
  const records = contactsOf(DEDUP_RECORDS, 0.1, 5);
  const matchFields = ['name', 'email', 'phone'];
  const time = async (strategy: 'FUZZY' | 'EXACT'): Promise<[number, number]> => {
    const t0 = performance.now();
    const d = await detectDuplicates(records, { strategy, matchFields, threshold: 0.85 });
    return [(performance.now() - t0) / 1000, d.duplicatesFound];
  };
  await time('FUZZY');
  await time('EXACT');
  const passes = Math.max(2, Math.round(4 * SCALE));
  let fuzzy = 0;
  let exact = 0;
  let found = 0;
  const runs: LoadResult[] = [];
  const mix = requestMix(port, key, [
    { method: 'POST', path: '/api/v1/dedup/detect', body: { records, matchFields } },
  ]);
  const bodyMb = Buffer.byteLength(mix.requests[0]!.body!) / 1e6;
  await closedLoopMix(mix, 1, 1);
  // Gateway and in-process runs alternate, so that the busy machine's swings hit both sides alike.
  for (let i = 0; i < passes; i++) {
    runs.push(await closedLoopMix(mix, 1, 1));
    const [f, n] = await time('FUZZY');
    fuzzy += f;
    found = n;
    exact += (await time('EXACT'))[0];
  }
  const viaGateway = mergeResults(runs);
  return [
    {
      case: 'Fuzzy dedup of 10,000 records, in-process',
      ops: DEDUP_RECORDS * passes,
      seconds: fuzzy,
      baselineSeconds: exact,
      notes: `records/s; ${(fuzzy / passes).toFixed(2)} s per 10,000 records, ${found} duplicates found (~10 % planted); baseline: EXACT strategy on the same records (hashing only, a floor)`,
    },
    {
      case: 'Fuzzy dedup of 10,000 records, through the gateway',
      ops: DEDUP_RECORDS * viaGateway.ok,
      seconds: viaGateway.seconds,
      baselineSeconds: (fuzzy / passes) * viaGateway.ok,
      notes: `records/s; ${viaGateway.ok} sequential requests, ${bodyMb.toFixed(2)} MB body, latency ms p50 ${latencySummary(viaGateway.latenciesMs).split('/')[0]}; baseline: in-process FUZZY above`,
    },
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const facts = [
    `date: ${new Date().toISOString()}`,
    'command: cd /work/main && npm run -s bench:text',
    ...machineFacts(),
    `load average at start: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
    `autocannon ${packageVersion('autocannon')}, ${CONNECTIONS} connections, pipelining 1, ${MEASURE_S.toFixed(1)} s per case; platform: embedded profile (SQLite), every role, in a child process`,
  ];
  const cleanup = new Cleanup();
  const dir = mkdtempSync(join(tmpdir(), 'tgbench-text-'));
  cleanup.add(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  let failed = false;
  try {
    progress('starting the embedded platform');
    const { port, key } = await startPlatform(join(dir, 'data'), cleanup);
    const rows = [
      ...(await gatewayCases(port, key)),
      ...(await redactionThroughput(port, key)),
      ...(await dedupTenThousand(port, key)),
    ];
    facts.push(`total run: ${Math.round((performance.now() - started) / 1000)} s`);
    process.stdout.write(`${facts.map((f) => `- ${f}`).join('\n')}\n\n${renderTable(rows)}\n`);
  } catch (err) {
    failed = true;
    process.stderr.write(`bench:text failed: ${err instanceof Error ? (err.stack ?? err.message) : err}\n`);
  } finally {
    const failures = await cleanup.run();
    for (const f of failures) process.stderr.write(`cleanup failed: ${f}\n`);
    if (failures.length > 0) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
