import {
  ALNUM,
  at,
  BASE64URL,
  CHAR,
  isAlnum,
  isBase64Url,
  isDigit,
  isHex,
  isLower,
  isUpper,
  PLUS,
  runEnd,
  runStart,
  SLASH,
} from './chars.js';
import { type Detector, type Finding, RANK } from './types.js';

interface KnownKey {
  readonly prefix: string;
  /** Characters after the prefix. */
  readonly min: number;
  readonly max: number;
  readonly body: (c: number) => boolean;
  /** Broad prefixes (`sk-`) also need a digit in the body, as every random key has and kebab-case words lack. */
  readonly needsDigit?: boolean;
  /** Offset in the body of the one `_` the format has (Toolgate keys: after the 16-character key id). */
  readonly underscoreAt?: number;
}

const isKeyBody = (c: number): boolean => isAlnum(c);
const isUpperAlnum = (c: number): boolean => isUpper(c) || isDigit(c);
const isLowerHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102);

/**
 * Vendor formats with a fixed prefix, from each vendor's documentation of its key format. Matched against a
 * whole base64url run, never inside one, so `my_sk_live_…` or a hash containing `AKIA` is not a key.
 */
const KNOWN: readonly KnownKey[] = [
  // Toolgate: tg_<16 base62 key id>_<43 base62 secret> (services/apikeys/key.ts).
  { prefix: 'tg_', min: 60, max: 60, body: isAlnum, underscoreAt: 16 },
  // AWS access key ids (IAM users, STS, roles and the other unique-id prefixes).
  ...['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AIPA', 'ANPA', 'ANVA', 'AROA', 'APKA', 'ASCA'].map(
    (prefix) => ({ prefix, min: 16, max: 16, body: isUpperAlnum }),
  ),
  // GitHub: classic tokens and fine-grained personal access tokens.
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((prefix) => ({
    prefix,
    min: 36,
    max: 251,
    body: isKeyBody,
  })),
  { prefix: 'github_pat_', min: 22, max: 255, body: (c) => isAlnum(c) || c === CHAR.UNDERSCORE },
  // Stripe secret and restricted keys, webhook signing secrets.
  ...['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'].map((prefix) => ({
    prefix,
    min: 16,
    max: 255,
    body: isKeyBody,
  })),
  // Slack bot, user, app-level, configuration and refresh tokens.
  ...['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-', 'xapp-'].map((prefix) => ({
    prefix,
    min: 10,
    max: 255,
    body: (c: number) => isAlnum(c) || c === CHAR.DASH,
  })),
  // Google API keys and OAuth client secrets.
  { prefix: 'AIza', min: 35, max: 35, body: isBase64Url },
  { prefix: 'GOCSPX-', min: 20, max: 64, body: isBase64Url },
  // OpenAI and Anthropic (sk-…, sk-proj-…, sk-ant-…).
  { prefix: 'sk-', min: 20, max: 255, body: isBase64Url, needsDigit: true },
  // GitLab, npm, PyPI, Hugging Face, DigitalOcean, Shopify, Mailgun, Twilio API key SIDs.
  { prefix: 'glpat-', min: 20, max: 64, body: isBase64Url },
  { prefix: 'npm_', min: 36, max: 36, body: isKeyBody },
  { prefix: 'pypi-', min: 50, max: 255, body: isBase64Url },
  { prefix: 'hf_', min: 30, max: 40, body: isKeyBody },
  ...['dop_v1_', 'doo_v1_', 'dor_v1_'].map((prefix) => ({ prefix, min: 64, max: 64, body: isLowerHex })),
  ...['shpat_', 'shpca_', 'shppa_', 'shpss_'].map((prefix) => ({ prefix, min: 32, max: 32, body: isHex })),
  { prefix: 'key-', min: 32, max: 32, body: isLowerHex },
  { prefix: 'SK', min: 32, max: 32, body: isLowerHex },
];

/** The shortest known key, so most runs (words, numbers) are dismissed by their length alone. */
const SHORTEST = Math.min(...KNOWN.map((k) => k.prefix.length + k.min));

function knownKey(text: string, start: number, end: number): boolean {
  if (end - start < SHORTEST) return false;
  for (const k of KNOWN) {
    const len = end - start - k.prefix.length;
    if (len < k.min || len > k.max || !text.startsWith(k.prefix, start)) continue;
    let ok = true;
    let digit = !k.needsDigit;
    const body = start + k.prefix.length;
    for (let i = body; ok && i < end; i++) {
      const c = text.charCodeAt(i);
      ok = i - body === k.underscoreAt ? c === CHAR.UNDERSCORE : k.body(c);
      digit ||= isDigit(c);
    }
    if (ok && digit) return true;
  }
  return false;
}

const known = (start: number, end: number): Finding => ({
  type: 'API_KEY',
  start,
  end,
  confidence: 'HIGH',
  rank: RANK.KNOWN_KEY,
});

/**
 * Tokens with a dot in their format: Google OAuth access tokens (`ya29.…`) and SendGrid keys
 * (`SG.<22>.<43>`). Reads at most two more runs after the anchor run.
 */
function dotted(text: string, start: number, end: number): Finding | null {
  if (at(text, end) !== CHAR.DOT) return null;
  if (end - start === 4 && text.startsWith('ya29', start)) {
    const e = runEnd(text, end + 1, BASE64URL);
    return e - end - 1 >= 20 ? known(start, e) : null;
  }
  if (end - start === 2 && text.startsWith('SG', start)) {
    const e1 = runEnd(text, end + 1, BASE64URL);
    if (e1 - end - 1 !== 22 || at(text, e1) !== CHAR.DOT) return null;
    const e2 = runEnd(text, e1 + 1, BASE64URL);
    return e2 - e1 - 1 === 43 ? known(start, e2) : null;
  }
  return null;
}

const SLACK_HOOK = 'hooks.slack.com/services/';

/** Slack incoming-webhook URLs carry their secret in the path: `…/services/T…/B…/<secret>`. */
function slackWebhooks(text: string, out: Finding[]): void {
  for (let p = text.indexOf(SLACK_HOOK); p !== -1; p = text.indexOf(SLACK_HOOK, p + 1)) {
    const start = p + SLACK_HOOK.length;
    const end = runEnd(text, start, ALNUM | SLASH);
    const parts = text.slice(start, end).split('/');
    if (parts.length === 3 && parts.every((x) => x.length >= 8)) out.push(known(start, end));
  }
}

/** Known vendor formats, and Slack webhook paths. */
export const knownKeyDetector: Detector = {
  types: ['API_KEY'],
  scan(text: string, out: Finding[]): void {
    for (let s = runStart(text, 0, BASE64URL); s < text.length; ) {
      const e = runEnd(text, s, BASE64URL);
      const found = knownKey(text, s, e) ? known(s, e) : dotted(text, s, e);
      if (found) out.push(found);
      s = runStart(text, e, BASE64URL);
    }
    slackWebhooks(text, out);
  },
};

// ---------------------------------------------------------------------------------------------------------------

const MIN_SECRET = 32;
const MAX_SECRET = 1024;
const MIN_ENTROPY = 3.5;
const MIN_CLASS_CHANGES = 0.4;

const SECRET = BASE64URL | PLUS | SLASH;

/** Shannon entropy of the characters, in bits per character. */
export function shannonEntropy(text: string, start = 0, end = text.length): number {
  const counts = new Map<number, number>();
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const n = end - start;
  let h = 0;
  for (const k of counts.values()) h -= (k / n) * Math.log2(k / n);
  return h;
}

const classOf = (c: number): number => (isUpper(c) ? 0 : isLower(c) ? 1 : isDigit(c) ? 2 : 3);

/**
 * Looks random enough to be a credential: 32–1,024 base64 characters with upper case, lower case and digits,
 * where the character class (upper, lower, digit, symbol) changes between at least 40% of neighbours and the
 * entropy is at least 3.5 bits per character. Random base64 changes class about 65% of the time (fewer than
 * 1% of random 32-character tokens fall below 40%); identifiers change only at word boundaries
 * (`DispatcherServletAutoConfiguration2`: 24%). Hex strings (hashes, trace ids, UUIDs) never qualify, nor
 * paths (a leading `/`) nor Subresource Integrity hashes (`sha512-…`).
 */
export function looksSecret(text: string, start = 0, end = text.length): boolean {
  const len = end - start;
  if (len < MIN_SECRET || len > MAX_SECRET) return false;
  if (/^sha(1|256|384|512)-/.test(text.slice(start, start + 8))) return false;
  if (text.charCodeAt(start) === CHAR.SLASH) return false;
  const seen = [0, 0, 0, 0];
  let hex = true;
  let changes = 0;
  let previous = -1;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const k = classOf(c);
    seen[k]!++;
    if (previous !== -1 && k !== previous) changes++;
    previous = k;
    if (hex && !isHex(c) && c !== CHAR.DASH && c !== CHAR.UNDERSCORE) hex = false;
  }
  if (hex || seen[0] === 0 || seen[1] === 0 || seen[2] === 0) return false;
  if (changes / (len - 1) < MIN_CLASS_CHANGES) return false;
  return shannonEntropy(text, start, end) >= MIN_ENTROPY;
}

/** High-entropy tokens of no known format. Runs are disjoint and each is measured once: linear. */
export const entropyDetector: Detector = {
  types: ['API_KEY'],
  scan(text: string, out: Finding[]): void {
    for (let s = runStart(text, 0, SECRET); s < text.length; ) {
      const e = runEnd(text, s, SECRET);
      // base64 padding belongs to the token, unless the `=` starts a `key=value`.
      let end = e;
      while (end - e < 2 && at(text, end) === CHAR.EQ) end++;
      if (isAlnum(at(text, end))) end = e;
      if (looksSecret(text, s, e)) {
        out.push({ type: 'API_KEY', start: s, end, confidence: 'MEDIUM', rank: RANK.ENTROPY });
      }
      s = runStart(text, e, SECRET);
    }
  },
};
