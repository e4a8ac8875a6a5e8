import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { DomainList, type ListSource } from './domain-list.js';

const require = createRequire(import.meta.url);

/**
 * Release dates of the list packages' versions, from the registry's publication times (the packages carry no
 * per-domain dates and no date of their own). A version missing here falls back to the day the package was
 * installed (its package.json's modification time): still a day on which every entry was listed, but later than
 * the truth. test/disposable-email checks that the installed versions are here.
 */
export const RELEASE_DATES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'disposable-email-domains': { '1.0.62': '2024-12-07' },
  mailchecker: { '6.0.21': '2026-07-18' },
};

interface PackageFacts {
  readonly version: string;
  readonly date: string;
  readonly dateKnown: boolean;
}

async function packageFacts(name: string): Promise<PackageFacts> {
  const file = require.resolve(`${name}/package.json`);
  const { version } = JSON.parse(await readFile(file, 'utf8')) as { version: string };
  const released = RELEASE_DATES[name]?.[version];
  if (released) return { version, date: released, dateKnown: true };
  const installed = (await stat(file)).mtime.toISOString().slice(0, 10);
  return { version, date: installed, dateKnown: false };
}

const readJson = async (specifier: string): Promise<string[]> =>
  JSON.parse(await readFile(require.resolve(specifier), 'utf8')) as string[];

/** Both packages as list sources: `disposable-email-domains` (exact and wildcard entries) and `mailchecker`. */
export async function packagedSources(): Promise<ListSource[]> {
  const [ded, mc, domains, wildcards] = await Promise.all([
    packageFacts('disposable-email-domains'),
    packageFacts('mailchecker'),
    readJson('disposable-email-domains'),
    readJson('disposable-email-domains/wildcard.json'),
  ]);
  // mailchecker ships its list inside its code; blacklist() hands out that Set.
  const checker = require('mailchecker') as { blacklist(): Set<string> };
  return [
    { name: 'disposable-email-domains', version: ded.version, date: ded.date, domains, wildcards },
    { name: 'mailchecker', version: mc.version, date: mc.date, domains: checker.blacklist() },
  ];
}

let loaded: Promise<DomainList> | null = null;

/** The merged list, built on first use and shared by the process (about 147,000 entries, 0.3 s, 40 MB). */
export function packagedDomainList(): Promise<DomainList> {
  loaded ??= packagedSources()
    .then((sources) => DomainList.build(sources))
    .catch((err: unknown) => {
      loaded = null;
      throw err;
    });
  return loaded;
}

/** Whether each installed package's date is its release date (false: the install-date fallback was used). */
export async function releaseDatesKnown(): Promise<Record<string, boolean>> {
  const names = Object.keys(RELEASE_DATES);
  const facts = await Promise.all(names.map(packageFacts));
  return Object.fromEntries(names.map((n, i) => [n, facts[i]!.dateKnown]));
}
