import { createRequire } from 'node:module';
import { type BreachCorpus, memoryCorpus } from './corpus.js';
import { sha1Hex } from './hashes.js';

const PACKAGE = '@zxcvbn-ts/language-common';

/**
 * The bundled default: the `passwords-common` list of @zxcvbn-ts/language-common, ordered most common first.
 * The list carries ranks, not breach counts, so each entry's count is derived from its rank (list length −
 * rank + 1: the most common password has the highest count, the last one 1). Counts are therefore NOT the
 * number of times a password was seen in breaches; import the published dataset for real counts.
 */
export function defaultCorpusEntries(passwords: readonly string[]): { sha1: string; count: number }[] {
  return passwords.map((password, i) => ({ sha1: sha1Hex(password), count: passwords.length - i }));
}

let built: Promise<BreachCorpus> | null = null;

/**
 * Built in memory on first use (about 50k hashes, 1 MiB of records plus the 8 MiB index), once per process.
 */
export function defaultCorpus(): Promise<BreachCorpus> {
  built ??= build().catch((err: unknown) => {
    built = null;
    throw err;
  });
  return built;
}

async function build(): Promise<BreachCorpus> {
  const { dictionary } = await import('@zxcvbn-ts/language-common');
  const { version } = createRequire(import.meta.url)(`${PACKAGE}/package.json`) as { version: string };
  const corpus = memoryCorpus(defaultCorpusEntries(dictionary['passwords-common']), {
    source: `bundled ${PACKAGE}@${version} passwords-common (rank-derived counts)`,
  });
  // Shared by every caller in the process: closing one handle must not close it for the others.
  return {
    range: (prefix) => corpus.range(prefix),
    count: (hash) => corpus.count(hash),
    info: () => corpus.info(),
    close: async () => {},
  };
}
