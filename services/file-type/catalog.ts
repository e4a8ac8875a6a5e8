/**
 * What the service knows about each type it can name: category, description, how long its signature is, the
 * other extensions and MIME types it goes by, and the risk the type carries by itself. Keyed by the extension the
 * `file-type` package (or a text heuristic) reports; types missing here are described generically.
 */

export const CATEGORIES = [
  'IMAGE',
  'DOCUMENT',
  'ARCHIVE',
  'EXECUTABLE',
  'SCRIPT',
  'AUDIO',
  'VIDEO',
  'TEXT',
  'DATA',
  'FONT',
  'UNKNOWN',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Why a file is not `safe`; the README says when each applies. */
export const RISKS = [
  'EXECUTABLE',
  'SCRIPT',
  'MACRO_CAPABLE',
  'POLYGLOT',
  'ACTIVE_CONTENT',
  'DECLARED_EXECUTABLE',
] as const;
export type Risk = (typeof RISKS)[number];

/** Containers whose members decide the type (a DOCX is a ZIP); names within a family are lenient. */
export type Family = 'zip' | 'xml' | 'text' | 'gzip';

export interface TypeInfo {
  readonly category: Category;
  readonly description: string;
  /** Bytes of the signature at offset 0 (reported as `magicBytes`); 8 when unknown or not at offset 0. */
  readonly magicLength?: number;
  /** Other extensions files of this type commonly carry. */
  readonly aliases?: readonly string[];
  /** Other MIME types that name this type. */
  readonly mimeAliases?: readonly string[];
  readonly family?: Family;
  /** A risk the type carries whatever its content. */
  readonly risk?: Risk;
}

type Opts = Omit<TypeInfo, 'category' | 'description'>;
const t = (category: Category, description: string, opts: Opts = {}): TypeInfo => ({
  category,
  description,
  ...opts,
});
const zip = (category: Category, description: string, opts: Opts = {}) =>
  t(category, description, { magicLength: 4, family: 'zip', ...opts });
const macro = (description: string, aliases: string[] = []) =>
  zip('DOCUMENT', description, { risk: 'MACRO_CAPABLE', aliases });

export const CATALOG: Readonly<Record<string, TypeInfo>> = {
  // Images
  jpg: t('IMAGE', 'JPEG image', {
    magicLength: 3,
    aliases: ['jpeg', 'jpe', 'jfif'],
    mimeAliases: ['image/jpg', 'image/pjpeg'],
  }),
  png: t('IMAGE', 'PNG image', { magicLength: 8, mimeAliases: ['image/x-png'] }),
  apng: t('IMAGE', 'Animated PNG image', { magicLength: 8, aliases: ['png'], mimeAliases: ['image/png'] }),
  gif: t('IMAGE', 'GIF image', { magicLength: 6 }),
  webp: t('IMAGE', 'WebP image', { magicLength: 12 }),
  bmp: t('IMAGE', 'BMP image', {
    magicLength: 2,
    aliases: ['dib'],
    mimeAliases: ['image/x-ms-bmp', 'image/x-bmp'],
  }),
  tif: t('IMAGE', 'TIFF image', { magicLength: 4, aliases: ['tiff'] }),
  ico: t('IMAGE', 'Windows icon', { magicLength: 4, mimeAliases: ['image/vnd.microsoft.icon'] }),
  cur: t('IMAGE', 'Windows cursor', { magicLength: 4 }),
  icns: t('IMAGE', 'Apple icon image', { magicLength: 4 }),
  psd: t('IMAGE', 'Adobe Photoshop image', { magicLength: 4 }),
  heic: t('IMAGE', 'HEIC image', { aliases: ['heif'] }),
  avif: t('IMAGE', 'AVIF image'),
  jxl: t('IMAGE', 'JPEG XL image'),
  jp2: t('IMAGE', 'JPEG 2000 image', { magicLength: 12, aliases: ['j2k', 'jpf'] }),
  svg: t('IMAGE', 'SVG vector image', { family: 'xml' }),
  // Documents
  pdf: t('DOCUMENT', 'PDF document', { magicLength: 5, mimeAliases: ['application/x-pdf'] }),
  rtf: t('DOCUMENT', 'Rich Text Format document', { magicLength: 5, mimeAliases: ['text/rtf'] }),
  docx: zip('DOCUMENT', 'Microsoft Word document (Office Open XML)'),
  dotx: zip('DOCUMENT', 'Microsoft Word template (Office Open XML)'),
  xlsx: zip('DOCUMENT', 'Microsoft Excel workbook (Office Open XML)'),
  xltx: zip('DOCUMENT', 'Microsoft Excel template (Office Open XML)'),
  pptx: zip('DOCUMENT', 'Microsoft PowerPoint presentation (Office Open XML)'),
  ppsx: zip('DOCUMENT', 'Microsoft PowerPoint slide show (Office Open XML)'),
  potx: zip('DOCUMENT', 'Microsoft PowerPoint template (Office Open XML)'),
  docm: macro('Microsoft Word macro-enabled document'),
  dotm: macro('Microsoft Word macro-enabled template'),
  xlsm: macro('Microsoft Excel macro-enabled workbook', ['xlam']),
  xltm: macro('Microsoft Excel macro-enabled template'),
  pptm: macro('Microsoft PowerPoint macro-enabled presentation'),
  ppsm: macro('Microsoft PowerPoint macro-enabled slide show'),
  potm: macro('Microsoft PowerPoint macro-enabled template'),
  vsdx: zip('DOCUMENT', 'Microsoft Visio drawing'),
  odt: zip('DOCUMENT', 'OpenDocument text'),
  ott: zip('DOCUMENT', 'OpenDocument text template'),
  ods: zip('DOCUMENT', 'OpenDocument spreadsheet'),
  ots: zip('DOCUMENT', 'OpenDocument spreadsheet template'),
  odp: zip('DOCUMENT', 'OpenDocument presentation'),
  otp: zip('DOCUMENT', 'OpenDocument presentation template'),
  odg: zip('DOCUMENT', 'OpenDocument drawing'),
  otg: zip('DOCUMENT', 'OpenDocument drawing template'),
  epub: zip('DOCUMENT', 'EPUB e-book'),
  mobi: t('DOCUMENT', 'Mobipocket e-book', { aliases: ['azw'] }),
  ps: t('DOCUMENT', 'PostScript document', { magicLength: 2 }),
  eps: t('DOCUMENT', 'Encapsulated PostScript', { aliases: ['ps'], mimeAliases: ['application/postscript'] }),
  cfb: t('DOCUMENT', 'Microsoft Compound File (legacy Office document, MSI installer or Outlook message)', {
    magicLength: 8,
    risk: 'MACRO_CAPABLE',
    aliases: ['doc', 'dot', 'xls', 'xlt', 'xla', 'ppt', 'pps', 'pot', 'msi', 'msg', 'vsd', 'pub'],
    mimeAliases: [
      'application/msword',
      'application/vnd.ms-excel',
      'application/vnd.ms-powerpoint',
      'application/x-msi',
      'application/vnd.ms-outlook',
      'application/vnd.visio',
    ],
  }),
  chm: t('DOCUMENT', 'Compiled HTML Help', { magicLength: 4, risk: 'ACTIVE_CONTENT' }),
  html: t('DOCUMENT', 'HTML document', {
    family: 'text',
    aliases: ['htm', 'shtml', 'xhtml'],
    mimeAliases: ['application/xhtml+xml'],
  }),
  xhtml: t('DOCUMENT', 'XHTML document', {
    family: 'xml',
    aliases: ['xht', 'html', 'htm'],
    mimeAliases: ['text/html'],
  }),
  indd: t('DOCUMENT', 'Adobe InDesign document'),
  // Text and data
  txt: t('TEXT', 'Plain text', { family: 'text', aliases: ['text'] }),
  vtt: t('TEXT', 'WebVTT subtitles', { family: 'text' }),
  json: t('DATA', 'JSON data', {
    family: 'text',
    aliases: ['geojson', 'jsonld', 'webmanifest', 'har', 'map'],
    mimeAliases: ['text/json', 'application/x-json'],
  }),
  ndjson: t('DATA', 'Newline-delimited JSON', {
    family: 'text',
    aliases: ['jsonl', 'json'],
    mimeAliases: ['application/jsonl', 'application/x-jsonlines', 'application/json'],
  }),
  xml: t('DATA', 'XML document', { magicLength: 5, family: 'xml', mimeAliases: ['text/xml'] }),
  csv: t('DATA', 'Comma-separated values', {
    family: 'text',
    mimeAliases: ['application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel'],
  }),
  tsv: t('DATA', 'Tab-separated values', {
    family: 'text',
    aliases: ['tab', 'csv'],
    mimeAliases: ['text/csv'],
  }),
  ics: t('DATA', 'iCalendar data', { aliases: ['ical', 'ifb'] }),
  vcf: t('DATA', 'vCard contact', { aliases: ['vcard'], mimeAliases: ['text/x-vcard'] }),
  sqlite: t('DATA', 'SQLite 3 database', {
    magicLength: 16,
    aliases: ['db', 'sqlite3', 'db3', 's3db'],
    mimeAliases: ['application/vnd.sqlite3', 'application/x-sqlite'],
  }),
  parquet: t('DATA', 'Apache Parquet data', { magicLength: 4 }),
  arrow: t('DATA', 'Apache Arrow data', { magicLength: 6 }),
  avro: t('DATA', 'Apache Avro data', { magicLength: 4 }),
  pcap: t('DATA', 'Packet capture (pcap)', { magicLength: 4 }),
  pst: t('DATA', 'Microsoft Outlook data file', { magicLength: 4, aliases: ['ost'] }),
  // Archives and compressed data
  zip: zip('ARCHIVE', 'ZIP archive', { mimeAliases: ['application/x-zip-compressed', 'application/x-zip'] }),
  tar: t('ARCHIVE', 'TAR archive', { mimeAliases: ['application/x-gtar'] }),
  'tar.gz': t('ARCHIVE', 'Gzip-compressed TAR archive', {
    magicLength: 2,
    family: 'gzip',
    aliases: ['tgz', 'gz'],
    mimeAliases: ['application/x-gzip', 'application/x-gtar', 'application/x-tar'],
  }),
  gz: t('ARCHIVE', 'Gzip-compressed data', {
    magicLength: 2,
    family: 'gzip',
    aliases: ['tgz', 'gzip'],
    mimeAliases: ['application/x-gzip'],
  }),
  bz2: t('ARCHIVE', 'Bzip2-compressed data', {
    magicLength: 3,
    aliases: ['tbz2', 'tbz'],
    mimeAliases: ['application/x-bzip'],
  }),
  xz: t('ARCHIVE', 'XZ-compressed data', { magicLength: 6, aliases: ['txz'] }),
  '7z': t('ARCHIVE', '7-Zip archive', { magicLength: 6 }),
  rar: t('ARCHIVE', 'RAR archive', {
    magicLength: 7,
    mimeAliases: ['application/vnd.rar', 'application/x-rar'],
  }),
  zst: t('ARCHIVE', 'Zstandard-compressed data', { magicLength: 4 }),
  lz4: t('ARCHIVE', 'LZ4-compressed data', { magicLength: 4 }),
  cab: t('ARCHIVE', 'Microsoft Cabinet archive', { magicLength: 4 }),
  dmg: t('ARCHIVE', 'Apple disk image'),
  deb: t('ARCHIVE', 'Debian package', { magicLength: 8 }),
  rpm: t('ARCHIVE', 'RPM package', { magicLength: 4 }),
  ar: t('ARCHIVE', 'Unix ar archive', { magicLength: 8, aliases: ['a', 'lib'] }),
  // Executables and executable packages
  exe: t('EXECUTABLE', 'Windows or DOS executable (MZ/PE: EXE, DLL, SYS, SCR)', {
    magicLength: 2,
    risk: 'EXECUTABLE',
    aliases: ['dll', 'sys', 'scr', 'com', 'ocx', 'cpl', 'drv', 'efi', 'mui'],
    mimeAliases: [
      'application/x-dosexec',
      'application/vnd.microsoft.portable-executable',
      'application/x-msdos-program',
      'application/x-ms-dos-executable',
      'application/x-executable',
    ],
  }),
  elf: t('EXECUTABLE', 'ELF executable, shared library or object (Linux, BSD)', {
    magicLength: 4,
    risk: 'EXECUTABLE',
    aliases: ['so', 'o', 'ko', 'out', 'axf', 'run'],
    mimeAliases: [
      'application/x-executable',
      'application/x-sharedlib',
      'application/x-pie-executable',
      'application/x-object',
    ],
  }),
  macho: t('EXECUTABLE', 'Mach-O executable or library (macOS, iOS)', {
    magicLength: 4,
    risk: 'EXECUTABLE',
    aliases: ['dylib', 'bundle', 'o'],
    mimeAliases: ['application/x-mach-o-executable'],
  }),
  wasm: t('EXECUTABLE', 'WebAssembly binary module', { magicLength: 4, risk: 'EXECUTABLE' }),
  class: t('EXECUTABLE', 'Java class file', { magicLength: 4, risk: 'EXECUTABLE' }),
  jar: zip('EXECUTABLE', 'Java archive (JAR)', { risk: 'EXECUTABLE', aliases: ['war', 'ear'] }),
  apk: zip('EXECUTABLE', 'Android application package', { risk: 'EXECUTABLE', aliases: ['aab'] }),
  xpi: zip('EXECUTABLE', 'Firefox extension', { risk: 'EXECUTABLE' }),
  crx: t('EXECUTABLE', 'Chrome extension', { magicLength: 4, risk: 'EXECUTABLE' }),
  swf: t('EXECUTABLE', 'Adobe Flash movie (SWF)', { magicLength: 3, risk: 'EXECUTABLE' }),
  lnk: t('EXECUTABLE', 'Windows shortcut', { magicLength: 20, risk: 'EXECUTABLE' }),
  // Scripts (recognized by a #! line, `<?php` or `@echo off`)
  sh: t('SCRIPT', 'Shell script', {
    family: 'text',
    risk: 'SCRIPT',
    aliases: ['bash', 'zsh', 'ksh', 'command'],
    mimeAliases: ['application/x-sh', 'application/x-shellscript', 'text/x-sh'],
  }),
  py: t('SCRIPT', 'Python script', {
    family: 'text',
    risk: 'SCRIPT',
    aliases: ['pyw'],
    mimeAliases: ['text/x-script.python', 'application/x-python', 'application/x-python-code'],
  }),
  js: t('SCRIPT', 'JavaScript', {
    family: 'text',
    risk: 'SCRIPT',
    aliases: ['mjs', 'cjs'],
    mimeAliases: ['application/javascript', 'application/x-javascript', 'application/ecmascript'],
  }),
  pl: t('SCRIPT', 'Perl script', { family: 'text', risk: 'SCRIPT', aliases: ['pm'] }),
  rb: t('SCRIPT', 'Ruby script', { family: 'text', risk: 'SCRIPT' }),
  php: t('SCRIPT', 'PHP script', {
    family: 'text',
    risk: 'SCRIPT',
    aliases: ['phtml', 'php3', 'php4', 'php5', 'phps'],
    mimeAliases: ['application/x-php', 'text/x-php'],
  }),
  ps1: t('SCRIPT', 'PowerShell script', { family: 'text', risk: 'SCRIPT', aliases: ['psm1'] }),
  lua: t('SCRIPT', 'Lua script', { family: 'text', risk: 'SCRIPT' }),
  bat: t('SCRIPT', 'Windows batch script', {
    family: 'text',
    risk: 'SCRIPT',
    aliases: ['cmd'],
    mimeAliases: ['application/bat', 'application/x-msdos-program'],
  }),
  script: t('SCRIPT', 'Script for an interpreter named by its #! line', { family: 'text', risk: 'SCRIPT' }),
  reg: t('SCRIPT', 'Windows Registry script', { risk: 'SCRIPT' }),
  // Audio
  mp3: t('AUDIO', 'MP3 audio', { mimeAliases: ['audio/mp3', 'audio/x-mpeg'] }),
  m4a: t('AUDIO', 'MPEG-4 audio', { aliases: ['mp4', 'm4b'], mimeAliases: ['audio/mp4'] }),
  ogg: t('AUDIO', 'Ogg audio', { magicLength: 4, aliases: ['oga'] }),
  oga: t('AUDIO', 'Ogg audio', { magicLength: 4, aliases: ['ogg'] }),
  opus: t('AUDIO', 'Opus audio', { magicLength: 4, aliases: ['ogg'] }),
  flac: t('AUDIO', 'FLAC audio', { magicLength: 4, mimeAliases: ['audio/x-flac'] }),
  wav: t('AUDIO', 'WAVE audio', {
    magicLength: 12,
    aliases: ['wave'],
    mimeAliases: ['audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  }),
  aif: t('AUDIO', 'AIFF audio', {
    magicLength: 12,
    aliases: ['aiff', 'aifc'],
    mimeAliases: ['audio/x-aiff'],
  }),
  mid: t('AUDIO', 'MIDI audio', { magicLength: 4, aliases: ['midi'], mimeAliases: ['audio/x-midi'] }),
  aac: t('AUDIO', 'AAC audio'),
  amr: t('AUDIO', 'AMR audio', { magicLength: 5 }),
  // Video
  mp4: t('VIDEO', 'MPEG-4 video', { aliases: ['m4v', 'm4a'] }),
  m4v: t('VIDEO', 'MPEG-4 video', { aliases: ['mp4'] }),
  mov: t('VIDEO', 'QuickTime video', { aliases: ['qt'] }),
  mkv: t('VIDEO', 'Matroska video', {
    magicLength: 4,
    aliases: ['mka', 'mk3d'],
    mimeAliases: ['video/x-matroska'],
  }),
  webm: t('VIDEO', 'WebM video', { magicLength: 4 }),
  avi: t('VIDEO', 'AVI video', { magicLength: 12, mimeAliases: ['video/x-msvideo', 'video/avi'] }),
  mpg: t('VIDEO', 'MPEG video', { magicLength: 4, aliases: ['mpeg', 'mpe', 'vob'] }),
  flv: t('VIDEO', 'Flash video', { magicLength: 3 }),
  '3gp': t('VIDEO', '3GPP video', { aliases: ['3gpp'] }),
  ogv: t('VIDEO', 'Ogg video', { magicLength: 4, aliases: ['ogg'] }),
  mts: t('VIDEO', 'MPEG transport stream', { aliases: ['m2ts', 'ts'] }),
  // Fonts
  ttf: t('FONT', 'TrueType font', { magicLength: 5 }),
  otf: t('FONT', 'OpenType font', { magicLength: 4 }),
  ttc: t('FONT', 'TrueType font collection', { magicLength: 4 }),
  woff: t('FONT', 'Web Open Font Format', { magicLength: 4 }),
  woff2: t('FONT', 'Web Open Font Format 2', { magicLength: 4 }),
  eot: t('FONT', 'Embedded OpenType font'),
};

/** Signatures that only suggest a type (MPEG audio frame sync, transport stream): below 1.0 confidence. */
export const WEAK_SIGNATURES: ReadonlySet<string> = new Set(['mp1', 'mp2', 'mp3', 'aac', 'ac3', 'mts', 'Z']);

const ARCHIVE_EXTENSIONS = new Set(['Z', 'lz', 'lzh', 'arj', 'cpio', 'ace', 'asar']);

/** The entry for `ext`, or a generic one from the MIME type's top-level type. */
export function typeInfo(ext: string, mime: string): TypeInfo {
  const known = CATALOG[ext];
  if (known) return known;
  const top = mime.split('/')[0];
  const category: Category =
    top === 'image'
      ? 'IMAGE'
      : top === 'audio'
        ? 'AUDIO'
        : top === 'video'
          ? 'VIDEO'
          : top === 'font'
            ? 'FONT'
            : ARCHIVE_EXTENSIONS.has(ext)
              ? 'ARCHIVE'
              : 'DATA';
  return { category, description: `${ext.toUpperCase()} file (${mime})` };
}
