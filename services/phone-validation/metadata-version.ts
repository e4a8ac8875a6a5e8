import { createRequire } from 'node:module';
import metadata from 'libphonenumber-js/max/metadata';

/**
 * Names the phone metadata in use (SPEC.md section 9). libphonenumber-js publishes a release for every update
 * of Google's metadata, so its version identifies the numbering plans; the metadata's own `version` is the
 * format of the file (4 today). Read from the installed package, so an upgrade shows in every result.
 */
export function phoneMetadataVersion(): string {
  const { version } = createRequire(import.meta.url)('libphonenumber-js/package.json') as { version: string };
  const format = (metadata as { version?: number }).version;
  return `libphonenumber-js@${version} (max metadata${format === undefined ? '' : ` v${format}`})`;
}
