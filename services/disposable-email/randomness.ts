/**
 * "Random-looking" names: what generators of throwaway addresses produce (`x7kq9z2mvb3p`, `qwxzvbnm`,
 * `3f2a9c41d7e8b605`) and people almost never choose. Tuned to miss rather than to accuse: names, initials,
 * years, phone and QQ numbers, and words in Latin-script languages stay clean (the unit tests list them). A hit is
 * a weak signal; it never makes an address disposable on its own.
 */

const VOWELS = new Set('aeiouy');
const MIN_LENGTH = 8;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/;

/** One run of letters and digits (lower case, no separators). */
export function looksRandom(token: string): boolean {
  if (token.length < MIN_LENGTH || /^\d+$/.test(token)) return false;
  const letters = token.replace(/[^a-z]/g, '');
  const digits = token.length - letters.length;
  // Hashes and hex ids.
  if (token.length >= 16 && digits > 0 && letters.length > 0 && /^[0-9a-f]+$/.test(token)) return true;
  // Letters and digits shuffled together: x7kq9z2mvb3p. Names with a number ("john2doe85") switch fewer times.
  let switches = 0;
  for (let i = 1; i < token.length; i++) {
    if (/\d/.test(token[i]!) !== /\d/.test(token[i - 1]!)) switches++;
  }
  if (switches >= 4 && digits >= 3) return true;
  if (letters.length >= 6) {
    let vowels = 0;
    let run = 0;
    let longestRun = 0;
    for (const c of letters) {
      if (VOWELS.has(c)) {
        vowels++;
        run = 0;
      } else longestRun = Math.max(longestRun, ++run);
    }
    // Unpronounceable: almost no vowels, or seven consonants in a row (German "Hirschsprung" has 7: rare enough).
    if (vowels / letters.length < 0.15 || longestRun >= 7) return true;
  }
  return false;
}

/** The part before `@`, without a `+tag`; each run between separators judged alone, and UUIDs as a whole. */
export function randomLocalPart(localPart: string): boolean {
  const base = localPart.toLowerCase().split('+')[0]!;
  if (UUID.test(base)) return true;
  return base
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .some(looksRandom);
}

/** Labels below a registry's own second level (`co.uk`, `com.br`): the label someone registered is one further. */
const GENERIC_SECOND_LEVEL = new Set([
  'co',
  'com',
  'net',
  'org',
  'ac',
  'edu',
  'gov',
  'ne',
  'or',
  'go',
  'gob',
]);

/** The registered name of the domain (`mail.xk7q9zmv2p.co.uk` → `xk7q9zmv2p`), judged label part by part. */
export function randomDomain(domain: string): boolean {
  const labels = domain.split('.');
  let i = labels.length - 2;
  if (i > 0 && GENERIC_SECOND_LEVEL.has(labels[i]!)) i--;
  const name = labels[i] ?? '';
  if (name.startsWith('xn--')) return false;
  return name.split('-').filter(Boolean).some(looksRandom);
}
