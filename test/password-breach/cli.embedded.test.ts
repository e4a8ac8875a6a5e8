/**
 * `toolgate passwords import` as runPasswordsImport: arguments, exit codes, the summary, the progress display
 * for terminals and for logs, standard input, and error lines that never quote the input.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { type ImportIo, runPasswordsImport } from '../../cli/passwords-import.js';
import { openCorpusFile } from '../../services/password-breach/corpus.js';
import { sha1Hex } from '../../services/password-breach/hashes.js';
import { importedCorpusPath } from '../../services/password-breach/open-corpus.js';

const root = mkdtempSync(join(tmpdir(), 'tg-pw-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dir = () => {
  const d = join(root, `case-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

const LINES = Array.from({ length: 20_000 }, (_, i) => sha1Hex(`pw-${i}`))
  .sort()
  .map((h, i) => `${h}:${i + 1}\r\n`)
  .join('');

function capture(options: { tty?: boolean; stdin?: Readable; logIntervalMs?: number } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: options.tty ?? false });
  stdout.on('data', (d) => out.push(String(d)));
  stderr.on('data', (d) => err.push(String(d)));
  const io: ImportIo = {
    stdin: options.stdin ?? Readable.from([]),
    stdout,
    stderr,
    ...(options.logIntervalMs !== undefined ? { logIntervalMs: options.logIntervalMs } : {}),
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('toolgate passwords import', () => {
  it('imports FILE into DATA_DIR/passwords/pwned-passwords.bin by default and prints a summary', async () => {
    const dataDir = dir();
    const input = join(dir(), 'pwned-passwords-sha1.txt');
    writeFileSync(input, LINES);
    const c = capture();
    expect(await runPasswordsImport([input], { dataDir }, c.io)).toBe(0);
    expect(c.stdout()).toMatch(
      new RegExp(
        `^imported 20,000 hashes from ${input} into ${importedCorpusPath(dataDir)} in \\d+\\.\\d s\\n$`,
      ),
    );
    const corpus = await openCorpusFile(importedCorpusPath(dataDir));
    expect(await corpus.count(sha1Hex('pw-123'))).toBeGreaterThan(0);
    expect(corpus.info().source).toBe('pwned-passwords-sha1.txt');
    await corpus.close();
  });

  it('writes --output, reads - (standard input), logs progress lines off a terminal', async () => {
    const output = join(dir(), 'out', 'corpus.bin');
    const c = capture({ stdin: Readable.from([Buffer.from(LINES)]), logIntervalMs: 0 });
    expect(await runPasswordsImport(['-', '--output', output], { dataDir: dir() }, c.io)).toBe(0);
    expect(c.stdout()).toContain('from standard input into');
    const lines = c.stderr().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^importing: [\d,]+ hashes, [\d.]+[kMG]? lines\/s, /);
    expect(c.stderr()).not.toContain('\r');
    const corpus = await openCorpusFile(output);
    expect(corpus.info().entries).toBe(20_000);
    await corpus.close();
  });

  it('draws a bar with a percentage and ETA on a terminal', async () => {
    const input = join(dir(), 'in.txt');
    writeFileSync(input, LINES);
    const c = capture({ tty: true });
    expect(await runPasswordsImport([input, '-o', join(dir(), 'c.bin')], { dataDir: dir() }, c.io)).toBe(0);
    const err = c.stderr();
    const ERASE_LINE = '\x1b[K';
    expect(err.endsWith(`${ERASE_LINE}\n`)).toBe(true);
    const last = err.slice(err.lastIndexOf('\r') + 1, -ERASE_LINE.length - 1);
    expect(last).toMatch(/^100\.0% \[#{24}\] 20,000 hashes {2}\S+ lines\/s {2}ETA 0:00$/);
  });

  it('exits 2 on bad usage, with the usage text', async () => {
    for (const argv of [[], ['a', 'b'], ['--bogus', 'a']]) {
      const c = capture();
      expect(await runPasswordsImport(argv, { dataDir: dir() }, c.io), JSON.stringify(argv)).toBe(2);
      expect(c.stderr()).toContain('Usage: toolgate passwords import FILE');
    }
    const help = capture();
    expect(await runPasswordsImport(['--help'], { dataDir: dir() }, help.io)).toBe(0);
    expect(help.stdout()).toContain('Usage: toolgate passwords import FILE');
  });

  it('exits 1 on a missing file or a refused line, naming the line but never its content', async () => {
    const missing = capture();
    const dataDir = dir();
    expect(await runPasswordsImport([join(dataDir, 'nope.txt')], { dataDir }, missing.io)).toBe(1);
    expect(missing.stderr()).toBe(
      `toolgate: passwords import: ${join(dataDir, 'nope.txt')}: no such file or directory\n`,
    );
    const input = join(dir(), 'plain.txt');
    writeFileSync(input, `${sha1Hex('a')}:1\nhunter2-secret\n`);
    const bad = capture();
    expect(await runPasswordsImport([input], { dataDir }, bad.io)).toBe(1);
    expect(bad.stderr()).toBe(
      `toolgate: passwords import: ${input}: line 2: expected SHA1:COUNT ` +
        '(a 40-digit hexadecimal SHA-1 hash, a colon, a count); nothing was written\n',
    );
    expect(bad.stderr()).not.toContain('hunter2');
  });
});
