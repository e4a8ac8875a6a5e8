import { CATALOG, type Category, RISKS, type Risk } from './catalog.js';
import { type Declared, type Mismatch, mismatches } from './declared.js';
import type { Detection } from './detect.js';

/** The R result for one file: SPEC.md 4.4's fields, then the mismatch report and the reasons behind `safe`. */
export interface Classification {
  /** The declared base name; null when none was given. */
  readonly filename: string | null;
  readonly mimeType: string;
  readonly category: Category;
  readonly extension: string;
  /** The content agrees with the declared name and Content-Type (no mismatch). */
  readonly magicBytesMatch: boolean;
  /** No risk found. */
  readonly safe: boolean;
  readonly confidence: number;
  readonly description: string;
  readonly magicBytes: string;
  readonly declaredExtension: string | null;
  readonly declaredMimeType: string | null;
  readonly mismatches: readonly Mismatch[];
  readonly risks: readonly Risk[];
}

const executableByType = Object.entries(CATALOG)
  .filter(([, info]) => info.risk === 'EXECUTABLE' || info.risk === 'SCRIPT')
  .flatMap(([ext, info]) => [ext, ...(info.aliases ?? [])]);

/** Names a system runs (or installs) by their extension alone. */
const EXECUTABLE_EXTENSIONS = new Set([
  ...executableByType.filter((ext) => ext !== 'o' && ext !== 'script'),
  ...(
    'pif msi msix msp appx appxbundle vbs vbe jse wsf wsh hta scf ws gadget app pkg mpkg deb rpm ipa dex ' +
    'jsp jspx asp aspx cgi csh fish'
  ).split(' '),
]);

/** Content-Types that announce an executable, an installer or a script. */
const EXECUTABLE_MIMES = new Set([
  'application/x-msdownload',
  'application/x-dosexec',
  'application/vnd.microsoft.portable-executable',
  'application/x-msdos-program',
  'application/x-ms-dos-executable',
  'application/x-executable',
  'application/x-sharedlib',
  'application/x-pie-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-mach-o-executable',
  'application/wasm',
  'application/java-vm',
  'application/java-archive',
  'application/vnd.android.package-archive',
  'application/x-xpinstall',
  'application/x-google-chrome-extension',
  'application/x-shockwave-flash',
  'application/x-ms-shortcut',
  'application/x-msi',
  'application/x-ms-installer',
  'application/hta',
  'application/x-bat',
  'application/bat',
  'application/x-sh',
  'application/x-shellscript',
  'text/x-shellscript',
  'text/x-sh',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'text/javascript',
  'text/ecmascript',
  'application/x-httpd-php',
  'application/x-php',
  'text/x-php',
  'text/x-python',
  'application/x-python',
  'text/x-perl',
  'application/x-perl',
  'text/x-ruby',
  'application/x-ruby',
  'application/x-powershell',
  'text/x-lua',
  'text/vbscript',
  'application/x-vbscript',
  'text/x-script',
  'application/x-ms-regedit',
]);

export function declaresExecutable(claim: Declared): boolean {
  return (
    (claim.extension !== null && EXECUTABLE_EXTENSIONS.has(claim.extension)) ||
    (claim.mimeType !== null && EXECUTABLE_MIMES.has(claim.mimeType))
  );
}

/** The detection held against what was declared: mismatches, and every risk of content and name. */
export function classify(d: Detection, claim: Declared): Classification {
  const found = mismatches(d, claim);
  const risks = new Set<Risk>(d.risks);
  if (declaresExecutable(claim)) risks.add('DECLARED_EXECUTABLE');
  const ordered = RISKS.filter((r) => risks.has(r));
  return {
    filename: claim.filename,
    mimeType: d.mimeType,
    category: d.category,
    extension: d.extension,
    magicBytesMatch: found.length === 0,
    safe: ordered.length === 0,
    confidence: d.confidence,
    description: d.description,
    magicBytes: d.magicBytes,
    declaredExtension: claim.extension,
    declaredMimeType: claim.mimeType,
    mismatches: found,
    risks: ordered,
  };
}
