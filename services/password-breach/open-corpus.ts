import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BreachCorpus, openCorpusFile } from './corpus.js';
import { defaultCorpus } from './default-corpus.js';

/** Where `toolgate passwords import` writes by default, and where the service looks first. */
export const importedCorpusPath = (dataDir: string): string =>
  join(dataDir, 'passwords', 'pwned-passwords.bin');

export interface OpenCorpusOptions {
  /** A corpus file from `toolgate passwords import`; it must exist when given. */
  readonly file?: string;
  /** Looked in for `passwords/pwned-passwords.bin` when no file is given. */
  readonly dataDir: string;
}

/**
 * The imported corpus when there is one (the given file, else the default path under DATA_DIR), otherwise the
 * bundled default list, built in memory once per process. A running server keeps the corpus it opened: after
 * an import, restart it.
 */
export async function openBreachCorpus(options: OpenCorpusOptions): Promise<BreachCorpus> {
  if (options.file) return openCorpusFile(options.file);
  const imported = importedCorpusPath(options.dataDir);
  if (existsSync(imported)) return openCorpusFile(imported);
  return defaultCorpus();
}
