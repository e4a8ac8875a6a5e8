/**
 * The real lists as the installed packages ship them: well-known disposable services are found, real mailbox
 * providers are not, and the facts the code keeps about the lists (release dates, registry suffixes) still hold
 * for the installed versions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DomainList, SHARED_SUFFIXES } from '../../services/disposable-email/domain-list.js';
import { KNOWN_PROVIDER_DOMAINS } from '../../services/disposable-email/known-providers.js';
import {
  packagedDomainList,
  packagedSources,
  RELEASE_DATES,
  releaseDatesKnown,
} from '../../services/disposable-email/list-sources.js';
import { DISPOSABLE, PROVIDERS } from './domains.js';

const require = createRequire(import.meta.url);
let list: DomainList;
beforeAll(async () => {
  list = await packagedDomainList();
});

describe('the merged packaged lists', () => {
  it('hold both packages, about 147,000 domains, nothing skipped', () => {
    expect(list.sources.map((s) => s.name)).toEqual(['disposable-email-domains', 'mailchecker']);
    expect(list.size).toBeGreaterThan(100_000);
    expect(Object.values(list.skipped).reduce((a, b) => a + b, 0)).toBeLessThan(10);
  });

  it.each(DISPOSABLE)('lists %s', (domain) => {
    expect(list.lookup(domain)).toMatchObject({ kind: 'EXACT', entry: domain });
  });

  it('knows which package lists what, with that release as addedDate', () => {
    const both = list.lookup('mailinator.com')!;
    expect(both.lists.map((l) => l.name)).toEqual(['disposable-email-domains', 'mailchecker']);
    expect(both.addedDate).toBe(RELEASE_DATES['disposable-email-domains']!['1.0.62']);
    // emailondeck.com is on mailchecker's list only (in the installed versions).
    const mcOnly = list.lookup('emailondeck.com')!;
    expect(mcOnly.lists.map((l) => l.name)).toEqual(['mailchecker']);
    expect(mcOnly.addedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(list.lookup('x.mailinator.com')).toMatchObject({ kind: 'WILDCARD', entry: 'mailinator.com' });
    expect(list.lookup('x.guerrillamail.com')).toMatchObject({ kind: 'PARENT', entry: 'guerrillamail.com' });
  });

  it.each(PROVIDERS)('does not list %s (nor a parent of it)', (domain) => {
    expect(list.lookup(domain)).toBeNull();
  });

  it('lists none of the known providers (they win over the lists; a listing would hide a list error)', () => {
    expect(KNOWN_PROVIDER_DOMAINS.filter((d) => list.lookup(d) !== null)).toEqual([]);
  });

  it('takes internationalized entries in punycode, as addresses are looked up', () => {
    expect(list.lookup('xn--gmal-nza.net')).not.toBeNull(); // gmaıl.net, with a dotless ı
  });
});

describe('facts kept about the installed packages', () => {
  it('knows the release date of each installed version', async () => {
    const versions = Object.fromEntries(
      Object.keys(RELEASE_DATES).map((n) => [
        n,
        (require(`${n}/package.json`) as { version: string }).version,
      ]),
    );
    expect(
      Object.entries(versions).filter(([n, v]) => !RELEASE_DATES[n]?.[v]),
      'add the new versions’ release dates to RELEASE_DATES',
    ).toEqual([]);
    expect(await releaseDatesKnown()).toEqual({ 'disposable-email-domains': true, mailchecker: true });
  });

  // The Public Suffix List as Debian ships it; CI machines without the package skip this check.
  const PSL = '/usr/share/publicsuffix/public_suffix_list.dat';
  it.skipIf(!existsSync(PSL))(
    'SHARED_SUFFIXES are exactly the entries that are registry suffixes',
    async () => {
      const icann = new Set<string>();
      const privateSection = new Set<string>();
      let section = icann;
      for (const line of readFileSync(PSL, 'utf8').split('\n')) {
        if (line.includes('===BEGIN PRIVATE DOMAINS===')) section = privateSection;
        const rule = line.trim();
        if (rule && !rule.startsWith('//')) section.add(rule);
      }
      const [ded, mc] = await packagedSources();
      const wildcards = new Set(ded!.wildcards);
      const entries = new Set([...ded!.domains, ...wildcards, ...mc!.domains]);
      const expected = [...entries].filter(
        (d) => icann.has(d) || (privateSection.has(d) && !wildcards.has(d)),
      );
      expect([...SHARED_SUFFIXES].sort()).toEqual(expected.sort());
    },
  );
});
