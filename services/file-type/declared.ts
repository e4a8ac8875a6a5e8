import { supportedExtensions, supportedMimeTypes } from 'file-type';
import { CATALOG } from './catalog.js';
import type { Detection } from './detect.js';
import { TEXT_MIME } from './text.js';

/** What the sender says the file is: its name, and the Content-Type it came with. */
export interface Declared {
  /** The base name (no directories), null when none was given. */
  readonly filename: string | null;
  /** The name's last extension, lower-case; null without one. */
  readonly extension: string | null;
  /** The Content-Type's `type/subtype`, lower-case, without parameters; null when none or malformed. */
  readonly mimeType: string | null;
}

export type Mismatch = 'EXTENSION' | 'MIME_TYPE';

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

export function declared(filename?: string | null, contentType?: string | null): Declared {
  const base = (filename ?? '').split(/[/\\]/).pop()?.trim() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return {
    filename: base === '' ? null : base,
    extension: /^[a-z0-9_+-]{1,16}$/.test(ext) ? ext : null,
    mimeType: MIME.test(mime) ? mime : null,
  };
}

/** Names and types that claim nothing about the content. */
const GENERIC_EXTENSIONS = new Set(['bin', 'dat', 'data', 'tmp', 'temp', 'raw', 'file', 'download']);
const GENERIC_MIMES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/unknown',
  'application/x-unknown',
  'application/download',
  'application/x-download',
  'application/force-download',
  'unknown/unknown',
]);

/** Extensions of text whose dialect the heuristics do not tell apart from plain text (code, config, markup). */
const TEXT_EXTENSIONS = new Set(
  (
    'txt text md markdown mdown rst adoc asciidoc log ini cfg conf config cnf properties env toml yaml yml ' +
    'csv tsv tab psv lst nfo diz tex bib srt sub sbv po pot strings c h cc cpp cxx hpp hh hxx m mm java kt ' +
    'kts scala groovy gradle go rs swift cs vb fs ts tsx jsx js mjs cjs coffee css scss sass less styl vue ' +
    'svelte sql graphql gql proto thrift py pyi rb pl pm php lua r jl dart ex exs erl hrl hs elm clj cljs edn ' +
    'lisp el scm ml mli nim zig asm s sh bash zsh fish ksh csh ps1 psm1 bat cmd vbs awk sed diff patch mk ' +
    'makefile cmake dockerfile tf hcl nix gitignore htaccess html htm shtml'
  ).split(' '),
);

const XML_EXTENSIONS = new Set(
  (
    'xml xsd xsl xslt rss atom rdf plist kml gpx xaml resx wsdl dae xlf xliff opml svg xhtml xht ' +
    'csproj vbproj props targets nuspec config manifest tld jnlp'
  ).split(' '),
);

/** Extensions and MIME types the service recognizes content for: a name claiming one of them is checkable. */
const KNOWN_EXTENSIONS = new Set<string>([
  ...supportedExtensions,
  ...TEXT_EXTENSIONS,
  ...XML_EXTENSIONS,
  ...Object.keys(CATALOG),
  ...Object.values(CATALOG).flatMap((info) => info.aliases ?? []),
]);
const KNOWN_MIMES = new Set<string>([
  ...supportedMimeTypes,
  ...Object.values(TEXT_MIME),
  ...Object.values(CATALOG).flatMap((info) => info.mimeAliases ?? []),
]);

const isZipContainerMime = (mime: string): boolean =>
  mime.endsWith('+zip') ||
  mime.startsWith('application/vnd.openxmlformats-officedocument.') ||
  mime.startsWith('application/vnd.oasis.opendocument.') ||
  mime.includes('macroenabled') ||
  [
    'application/java-archive',
    'application/vnd.android.package-archive',
    'application/x-xpinstall',
    'application/vnd.visio',
  ].includes(mime);

const ZIP_CONTAINER_EXTENSIONS = new Set(
  Object.entries(CATALOG)
    .filter(([, info]) => info.family === 'zip')
    .flatMap(([ext, info]) => [ext, ...(info.aliases ?? [])]),
);

/** Whether a file named `.ext` may hold what was detected. */
export function extensionFits(d: Detection, ext: string): boolean {
  if (GENERIC_EXTENSIONS.has(ext)) return true;
  if (d.category === 'UNKNOWN') return !KNOWN_EXTENSIONS.has(ext);
  if (ext === d.extension || d.info.aliases?.includes(ext)) return true;
  switch (d.info.family) {
    case 'zip':
      // A container whose telling members were not seen is still a ZIP; any ZIP may be called .zip.
      return ext === 'zip' || (d.extension === 'zip' && ZIP_CONTAINER_EXTENSIONS.has(ext));
    case 'gzip':
      return ext === 'gz' || ext === 'tgz';
    case 'xml':
      return XML_EXTENSIONS.has(ext) || ext === 'txt';
    case 'text':
      if (ext === 'txt' || ext === 'text') return true;
      if (d.extension === 'txt') return TEXT_EXTENSIONS.has(ext);
      return (d.extension === 'csv' || d.extension === 'tsv') && (ext === 'csv' || ext === 'tsv');
    default:
      return false;
  }
}

/** Whether a file sent as `mime` may hold what was detected. */
export function mimeFits(d: Detection, mime: string): boolean {
  if (GENERIC_MIMES.has(mime)) return true;
  if (d.category === 'UNKNOWN') return !KNOWN_MIMES.has(mime) && !mime.startsWith('text/');
  if (mime === d.mimeType || d.info.mimeAliases?.includes(mime)) return true;
  switch (d.info.family) {
    case 'zip':
      return (
        ['application/zip', 'application/x-zip-compressed', 'application/x-zip'].includes(mime) ||
        (d.extension === 'zip' && isZipContainerMime(mime))
      );
    case 'gzip':
      return mime === 'application/gzip' || mime === 'application/x-gzip';
    case 'xml':
      return (
        mime === 'application/xml' || mime === 'text/xml' || mime.endsWith('+xml') || mime === 'text/plain'
      );
    case 'text':
      if (mime === 'text/plain') return true;
      if (d.extension === 'json' || d.extension === 'ndjson') return mime.endsWith('+json');
      return d.extension === 'txt' && (mime.startsWith('text/') || TEXTUAL_APPLICATION_MIMES.has(mime));
    default:
      return false;
  }
}

/** Application types that are text of a kind the heuristics call plain text. */
const TEXTUAL_APPLICATION_MIMES = new Set([
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/x-sh',
  'application/x-csh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/graphql',
  'application/x-tex',
  'application/x-httpd-php',
  'application/x-perl',
  'application/x-python',
]);

/** Where the declared name or Content-Type contradicts the content. */
export function mismatches(d: Detection, claim: Declared): Mismatch[] {
  const found: Mismatch[] = [];
  if (claim.extension !== null && !extensionFits(d, claim.extension)) found.push('EXTENSION');
  if (claim.mimeType !== null && !mimeFits(d, claim.mimeType)) found.push('MIME_TYPE');
  return found;
}
