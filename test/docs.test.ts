import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeSettings } from '../core/config/config.js';

it('README documents every setting of the configuration schema, and nothing that is not one', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Event sourcing'));
  const documented = new Set([...section.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  const names = describeSettings().map((s) => s.name);
  expect(names.filter((n) => !documented.has(n))).toEqual([]);
  expect([...documented].filter((n) => !names.includes(n!))).toEqual([]);
});
