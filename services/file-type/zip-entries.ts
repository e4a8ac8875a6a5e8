const LOCAL_HEADER = Buffer.from('PK\x03\x04', 'latin1');
const CENTRAL_HEADER = Buffer.from('PK\x01\x02', 'latin1');
const END_OF_CENTRAL_DIRECTORY = Buffer.from('PK\x05\x06', 'latin1');
/** Headers of each kind read at most, and the longest name taken (longer ones are not real members). */
const MAX_HEADERS = 10_000;
const MAX_NAME_BYTES = 1024;

/** Compression methods of APPNOTE.TXT a real archive uses (stored, deflate, deflate64, bzip2, lzma, zstd, …). */
const METHODS = new Set([0, 1, 6, 8, 9, 12, 14, 19, 93, 95, 96, 97, 98, 99]);

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A local file header at `at` whose fields are plausible: a sane version, method and name. */
export function isLocalHeader(bytes: Uint8Array, at: number): boolean {
  const b = asBuffer(bytes);
  if (at + 30 > b.length || !b.subarray(at, at + 4).equals(LOCAL_HEADER)) return false;
  const version = b.readUInt16LE(at + 4);
  const method = b.readUInt16LE(at + 8);
  const nameLength = b.readUInt16LE(at + 26);
  if (version > 100 || !METHODS.has(method) || nameLength === 0 || nameLength > MAX_NAME_BYTES) return false;
  const name = b.subarray(at + 30, Math.min(b.length, at + 30 + nameLength));
  return name.every((c) => c >= 0x20 && c !== 0x7f);
}

/**
 * Member names of a ZIP archive as far as the bytes go: every local file header (the first bytes of a file
 * carry those of its first members) and, when the end is present, the central directory.
 */
export function zipEntryNames(bytes: Uint8Array): string[] {
  const b = asBuffer(bytes);
  const names = new Set<string>();
  const collect = (signature: Buffer, nameAt: number, lengthAt: number) => {
    let at = b.indexOf(signature);
    // Headers, not names, are counted: bytes that repeat a signature must not make this scan long.
    for (let headers = 0; at >= 0 && headers < MAX_HEADERS; headers++, at = b.indexOf(signature, at + 4)) {
      if (at + nameAt > b.length) break;
      const length = b.readUInt16LE(at + lengthAt);
      if (length === 0 || length > MAX_NAME_BYTES) continue;
      names.add(b.subarray(at + nameAt, Math.min(b.length, at + nameAt + length)).toString('utf8'));
    }
  };
  collect(LOCAL_HEADER, 30, 26);
  collect(CENTRAL_HEADER, 46, 28);
  return [...names];
}

/** Members that hold macros: VBA projects of Office Open XML, Basic modules of OpenDocument. */
export function hasMacroMembers(names: readonly string[]): boolean {
  return names.some(
    (n) =>
      /(^|\/)vbaProject\.bin$/i.test(n) || (/^Basic\/[^/]+\/[^/]+\.xml$/.test(n) && !/-l[bc]\.xml$/.test(n)),
  );
}

/**
 * Offset of an end-of-central-directory record that closes the bytes exactly (its comment reaches the last
 * byte), i.e. a ZIP archive ends here; -1 when none does.
 */
export function zipEndAt(bytes: Uint8Array): number {
  const b = asBuffer(bytes);
  const floor = Math.max(0, b.length - 22 - 0xffff);
  for (let at = b.lastIndexOf(END_OF_CENTRAL_DIRECTORY); at >= floor; ) {
    if (at + 22 <= b.length && at + 22 + b.readUInt16LE(at + 20) === b.length) return at;
    if (at === 0) break;
    at = b.lastIndexOf(END_OF_CENTRAL_DIRECTORY, at - 1);
  }
  return -1;
}

/** Offset of the first plausible local file header after offset 0 (among the first MAX_HEADERS); -1 if none. */
export function embeddedZipAt(bytes: Uint8Array): number {
  const b = asBuffer(bytes);
  let at = b.indexOf(LOCAL_HEADER, 1);
  for (let headers = 0; at >= 0 && headers < MAX_HEADERS; headers++, at = b.indexOf(LOCAL_HEADER, at + 1)) {
    if (isLocalHeader(b, at)) return at;
  }
  return -1;
}
