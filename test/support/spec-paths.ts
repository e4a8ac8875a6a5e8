import { readFileSync } from 'node:fs';

export const SPEC_FILE = new URL('../../../shared/SPEC.md', import.meta.url);

/** Every `| METHOD | \`/path\` |` row of SPEC.md's endpoint tables, as `METHOD /path`, deduplicated. */
export function specRoutes(text = readFileSync(SPEC_FILE, 'utf8')): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`/gm))
    found.add(`${m[1]} ${m[2]}`);
  return [...found].sort();
}
