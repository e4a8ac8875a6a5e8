/**
 * The importer on a generated 10,000,000-line dataset (about 466 MiB), run as `toolgate passwords import -`
 * in a child process so that its memory is measured on its own. The dataset is generated as a stream and
 * piped into the child's standard input, never held in memory nor written to disk. The importer's resident
 * set may grow by at most 150 MB whatever the input size. Then range reads on the result are checked against
 * the generator, which recomputes any prefix's lines independently.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCorpusFile } from '../../services/password-breach/corpus.js';
import { RECORD_SIZE, RECORDS_OFFSET } from '../../services/password-breach/corpus-format.js';
import { formatPrefix } from '../../services/password-breach/hashes.js';
import { datasetChunks, prefixEntries } from './generate.js';

const LINES = 10_000_000;
const MAX_GROWTH = 150 * 1024 * 1024;
const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tg-pw-10m-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ChildReport {
  code: number;
  baselineRss: number;
  sampledPeakRss: number;
  maxRss: number;
  elapsedMs: number;
}

/** Pipes the generated dataset into `toolgate passwords import - --output OUTPUT` in a child process. */
async function importGenerated(
  output: string,
): Promise<{ report: ChildReport; stdout: string; bytes: number }> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, 'import-child.ts'), '-', output],
    { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((done, fail) => {
    child.on('error', fail);
    child.on('close', done);
  });
  // EPIPE when the child stops reading early: its exit status and stderr tell why.
  child.stdin.on('error', () => {});
  let bytes = 0;
  for (const chunk of datasetChunks(LINES)) {
    bytes += chunk.length;
    if (!child.stdin.write(chunk)) {
      const drained = await Promise.race([
        once(child.stdin, 'drain').then(() => true),
        closed.then(() => false),
      ]);
      if (!drained) break;
    }
  }
  child.stdin.end();
  const status = await closed;
  const last = stdout.trim().split('\n').at(-1) ?? '';
  if (status !== 0 || !last.startsWith('{')) throw new Error(`child exited ${status}: ${stderr}`);
  return { report: JSON.parse(last) as ChildReport, stdout, bytes };
}

describe('importing 10 million lines', () => {
  it('runs in bounded memory and yields the generator’s ranges', async () => {
    const output = join(dir, 'corpus.bin');
    const started = performance.now();
    const { report, stdout, bytes } = await importGenerated(output);
    const wallMs = performance.now() - started;
    const growth = report.maxRss - report.baselineRss;
    const sampled = report.sampledPeakRss - report.baselineRss;
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.info(
      `10M-line import of ${mb(bytes)} MiB piped from the generator: ${s(report.elapsedMs)} in the importer ` +
        `(${s(wallMs)} with child start-up); RSS before ${mb(report.baselineRss)} MiB, max ` +
        `${mb(report.maxRss)} MiB (growth ${mb(growth)} MiB; sampled ${mb(sampled)})`,
    );
    expect(bytes).toBeGreaterThan(LINES * 45);
    expect(report.code).toBe(0);
    expect(stdout).toContain('imported 10,000,000 hashes from standard input');
    expect(growth, 'RSS growth of the importer').toBeLessThan(MAX_GROWTH);
    expect(sampled).toBeLessThan(MAX_GROWTH);
    expect(statSync(output).size).toBe(RECORDS_OFFSET + LINES * RECORD_SIZE);

    const corpus = await openCorpusFile(output);
    try {
      expect(corpus.info()).toMatchObject({ entries: LINES, source: 'standard input' });
      const sample = [0, 1, 3, 0x5baa6, 0x7ffff, 0xabcde, 0xffffe, 0xfffff];
      for (let i = 0; i < 200; i++) sample.push((i * 5_243 + 17) % 0x100000);
      let checked = 0;
      for (const prefix of sample) {
        const expected = prefixEntries(prefix, LINES);
        const got = await corpus.range(formatPrefix(prefix).toLowerCase());
        expect(got, formatPrefix(prefix)).toEqual(expected);
        for (const e of expected) {
          expect(await corpus.count(formatPrefix(prefix) + e.suffix)).toBe(e.count);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(sample.length * 9);
    } finally {
      await corpus.close();
    }
  }, 120_000);
});
