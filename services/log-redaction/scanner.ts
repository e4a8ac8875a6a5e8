import { entropyDetector, knownKeyDetector } from './api-keys.js';
import { emailDetector } from './email.js';
import { ibanDetector } from './iban.js';
import { ipDetector } from './ip.js';
import { jwtDetector } from './jwt.js';
import { keyValueDetector } from './key-values.js';
import { numbersDetector } from './numbers.js';
import { phoneDetector } from './phone.js';
import { privateKeyDetector } from './private-key.js';
import { resolveOverlaps } from './resolve.js';
import type { Detector, Finding, ScanOptions } from './types.js';
import { urlCredentialsDetector } from './url-credentials.js';

export const DETECTORS: readonly Detector[] = [
  privateKeyDetector,
  jwtDetector,
  knownKeyDetector,
  ibanDetector,
  numbersDetector,
  emailDetector,
  ipDetector,
  phoneDetector,
  urlCredentialsDetector,
  keyValueDetector,
  entropyDetector,
];

/**
 * Every detector's findings in `text`, before overlaps are resolved. Only the detectors that can produce a
 * wanted type run, and only wanted types are kept, before resolution: with `rules: [EMAIL]`, an address
 * inside a `password=` value is still found.
 */
export function findCandidates(text: string, options: ScanOptions = {}): Finding[] {
  const out: Finding[] = [];
  const types = options.types;
  for (const d of DETECTORS) {
    if (types && !d.types.some((t) => types.has(t))) continue;
    d.scan(text, out, options);
  }
  return types ? out.filter((f) => types.has(f.type)) : out;
}

/** The findings that will be redacted: non-overlapping, in text order. */
export function scan(text: string, options: ScanOptions = {}): Finding[] {
  return resolveOverlaps(findCandidates(text, options), text.length);
}
