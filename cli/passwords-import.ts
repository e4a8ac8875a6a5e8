import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import type { Config } from '../core/config/config.js';
import { HashLineError } from '../services/password-breach/hash-lines.js';
import { type ImportProgress, importHashes } from '../services/password-breach/import.js';
import { importedCorpusPath } from '../services/password-breach/open-corpus.js';
import { formatProgress } from '../services/password-breach/progress.js';

export const PASSWORDS_IMPORT_USAGE = `Usage: toolgate passwords import FILE [--output PATH]

Reads the published Pwned Passwords dataset, SHA-1 hashes ordered by hash, one SHA1:COUNT line each
(FILE, or - for standard input), and writes the breach corpus the password-breach service serves
(default: DATA_DIR/passwords/pwned-passwords.bin, replaced atomically). Restart the server afterwards.`;

export interface ImportIo {
  readonly stdin: Readable;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Between progress lines when stderr is not a terminal (default 5 s). */
  readonly logIntervalMs?: number;
}

const processIo: ImportIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };

/**
 * `toolgate passwords import FILE [--output PATH]`; `argv` is what follows `passwords import`.
 * Exit codes as the rest of the CLI: 0 done, 1 failure (bad input, I/O), 2 bad usage.
 */
export async function runPasswordsImport(
  argv: readonly string[],
  config: Pick<Config, 'dataDir'>,
  io: ImportIo = processIo,
): Promise<number> {
  let file: string | undefined;
  let output: string;
  try {
    const { positionals, values } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.stdout.write(`${PASSWORDS_IMPORT_USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new Error('expected exactly one FILE');
    file = positionals[0]!;
    output = values.output ?? importedCorpusPath(config.dataDir);
  } catch (err) {
    io.stderr.write(`toolgate: passwords import: ${(err as Error).message}\n${PASSWORDS_IMPORT_USAGE}\n`);
    return 2;
  }

  const tty = io.stderr.isTTY === true;
  const logEvery = io.logIntervalMs ?? 5_000;
  let lastLog = 0;
  const onProgress = (p: ImportProgress) => {
    if (tty) io.stderr.write(`\r${formatProgress(p, 'bar')}\x1b[K`);
    else if (p.elapsedMs - lastLog >= logEvery) {
      lastLog = p.elapsedMs;
      io.stderr.write(`${formatProgress(p, 'line')}\n`);
    }
  };
  try {
    const result = await importHashes({
      input: file === '-' ? io.stdin : file,
      output,
      onProgress,
      progressIntervalMs: tty ? 100 : Math.min(1_000, logEvery),
    });
    if (tty) io.stderr.write('\n');
    const seconds = (result.elapsedMs / 1000).toFixed(1);
    const from = file === '-' ? 'standard input' : file;
    const entries = result.entries.toLocaleString('en-US');
    io.stdout.write(`imported ${entries} hashes from ${from} into ${output} in ${seconds} s\n`);
    return 0;
  } catch (err) {
    if (tty) io.stderr.write('\n');
    io.stderr.write(`toolgate: passwords import: ${describe(err, file)}\n`);
    return 1;
  }
}

/** One line, no stack; the input's lines are never quoted (a wrong file could hold plain passwords). */
function describe(err: unknown, file: string): string {
  if (err instanceof HashLineError) return `${file}: ${err.message}; nothing was written`;
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOENT') return `${e.path ?? file}: no such file or directory`;
  if (e?.code === 'EACCES') return `${e.path ?? file}: permission denied`;
  if (e?.code === 'EISDIR') return `${e.path ?? file}: is a directory`;
  if (e?.code === 'ENOSPC') return 'no space left on the device; nothing was written';
  return String(e?.message ?? err).split('\n')[0] ?? 'failed';
}
