import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Profiles are the schema files shipped in ./profiles/: `<name>.schema.json` is the profile `<name>`. Adding
 * a file adds a profile. They are read once per process and never change while it runs.
 */
const PROFILE_DIR = new URL('./profiles/', import.meta.url);
const SUFFIX = '.schema.json';

let loaded: ReadonlyMap<string, unknown> | null = null;

function profiles(): ReadonlyMap<string, unknown> {
  if (!loaded) {
    const dir = fileURLToPath(PROFILE_DIR);
    const names = readdirSync(dir)
      .filter((f) => f.endsWith(SUFFIX))
      .sort();
    loaded = new Map(
      names.map((f) => [f.slice(0, -SUFFIX.length), JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'))]),
    );
  }
  return loaded;
}

/** Names in alphabetical order, as `GET /api/v1/validate/profiles` lists them. */
export const profileNames = (): string[] => [...profiles().keys()];

/** The profile's schema; names match without regard to case. Null when there is no such profile. */
export function profileSchema(name: string): unknown {
  const wanted = name.trim().toLowerCase();
  for (const [key, schema] of profiles()) if (key.toLowerCase() === wanted) return schema;
  return null;
}
