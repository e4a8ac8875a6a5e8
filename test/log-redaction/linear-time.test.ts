/**
 * Redaction works in time linear in the input (the issue: "no regex that backtracks catastrophically"): for
 * inputs crafted against each detector, 1 MiB must take at most 5 times as long as 256 KiB (linear work gives
 * 4, quadratic 16). Ratios of CPU time, not absolute times, so the test holds on a slow or busy machine; each
 * figure is the best of several runs, and a ratio is measured again before it fails, so one hiccup cannot fail it.
 */
import { describe, expect, it } from 'vitest';
import { detect } from '../../services/log-redaction/redaction.js';

const SMALL = 256 * 1024;
const LARGE = 1024 * 1024;
// Four times the input: linear work gives ~4, quadratic ~16. The bound leaves room for garbage collection, which
// grows unevenly with allocation-heavy inputs (many tiny JSON strings), while still failing any quadratic scan.
const MAX_RATIO = 8;
/** Each case runs several megabytes of scanning: generous on a busy machine. */
const TIMEOUT_MS = 60_000;

const repeat = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
/** A flat string, as a parsed request body is (`repeat` builds ropes that V8 reads more slowly). */
const flat = (s: string): string => JSON.parse(JSON.stringify(s)) as string;
/** A JSON array of `unit` elements close to `size` characters. */
const jsonArray = (unit: string, size: number) =>
  `[${Array(Math.max(1, Math.floor(size / (unit.length + 1))))
    .fill(unit)
    .join(',')}]`;

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const randomBase64 = (n: number) => Array.from({ length: n }, () => B64[Math.floor(random() * 64)]).join('');
const header = Buffer.from('{"alg":"HS256"}').toString('base64url');
const payload = Buffer.from('{"sub":"x"}').toString('base64url');

/** Inputs against each detector: many anchors, long runs, unterminated structures. */
const TEXT: Record<string, (size: number) => string> = {
  'e-mail anchors a@a@a@…': (n) => repeat('a@', n),
  'e-mail: 64-character local parts, long domains': (n) => repeat(`${'a'.repeat(64)}@${'b'.repeat(60)}.`, n),
  'URL-encoded e-mail anchors x%40x%40…': (n) => repeat('x%40', n),
  'one digit run': (n) => repeat('4', n),
  'space-separated card groups 4111 4111 …': (n) => repeat('4111 ', n),
  'dash-joined digits 1-1-1-…': (n) => repeat('1-', n),
  'dotted digits 1.1.1.…': (n) => repeat('1.', n),
  'eyJ repeated in one run': (n) => repeat('eyJ', n),
  'eyJ.eyJ.…': (n) => repeat('eyJ.', n),
  'valid JWT headers chained by dots': (n) => repeat(`${header}.${payload}.`, n),
  'one random base64 run': (n) => randomBase64(n),
  'random 40-character tokens': (n) => repeat(`${randomBase64(40)} `, n),
  'password= repeated': (n) => repeat('password=', n),
  'unterminated "password":" repeated': (n) => repeat('"password":"', n),
  'password: on every line': (n) => repeat('\npassword: ', n),
  'Authorization: Bearer repeated': (n) => repeat('Authorization: Bearer ', n),
  ':: repeated': (n) => repeat('::', n),
  'hex and colons 1:a:1:a:…': (n) => repeat('1:a:', n),
  'dotted quads glued 1.1.1.1.': (n) => repeat('1.1.1.1.', n),
  'BEGIN PRIVATE KEY without END': (n) => repeat('-----BEGIN PRIVATE KEY-----', n),
  'one private key body': (n) => `-----BEGIN PRIVATE KEY-----\n${repeat('A', n)}`.slice(0, n),
  'URL credentials ://a: repeated': (n) => repeat('://a:', n),
  '+1 repeated': (n) => repeat('+1 ', n),
  '( and (415 repeated': (n) => repeat('((415', n),
  'IBAN prefixes DE89 DE89 …': (n) => repeat('DE89 ', n),
  'known-key prefixes ghp_ghp_…': (n) => repeat('ghp_', n),
  '= and a= repeated': (n) => repeat('a==', n),
};

const JSON_INPUTS: Record<string, (size: number) => string> = {
  'JSON: many tiny strings': (n) => jsonArray('"a"', n),
  'JSON: deep nesting': (n) => `${'['.repeat(n / 2 - 1)}${']'.repeat(n / 2 - 1)}`,
  'JSON: password fields': (n) => jsonArray('{"password":"hunter22"}', n),
  'JSON: one string of escapes': (n) => `["${repeat('\\n', n - 4)}"]`,
  'JSON: card-number literals': (n) => jsonArray('4111111111111111', n),
  'JSON Lines of e-mail values': (n) => '{"e":"a@b.io"}\n'.repeat(Math.floor(n / 15)),
};

/**
 * CPU time of one call, in milliseconds: this process's own CPU, so time spent preempted by other processes on
 * a busy machine (wall-clock time would count it) does not distort the ratio.
 */
function cpuTime(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * Best times of `work` on the two sizes, measured alternately so that a busy spell of the machine slows both
 * alike; measured again (up to three times) while the ratio is over the bound.
 */
function ratio(
  work: (input: string) => unknown,
  make: (size: number) => string,
): { ratio: number; small: number; large: number } {
  const small = flat(make(SMALL));
  const large = flat(make(LARGE));
  work(flat(make(16 * 1024))); // warm the JIT
  let best = { ratio: Number.POSITIVE_INFINITY, small: 0, large: 0 };
  for (let attempt = 0; attempt < 3 && best.ratio > MAX_RATIO; attempt++) {
    let s = Number.POSITIVE_INFINITY;
    let l = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 2; round++) {
      s = Math.min(
        s,
        cpuTime(() => work(small)),
      );
      l = Math.min(
        l,
        cpuTime(() => work(large)),
      );
      s = Math.min(
        s,
        cpuTime(() => work(small)),
      );
    }
    const r = l / Math.max(s, 0.05);
    if (r < best.ratio) best = { ratio: r, small: s, large: l };
  }
  return best;
}

const checkLinear = (work: (input: string) => unknown, make: (size: number) => string) => {
  const r = ratio(work, make);
  expect(
    r.ratio,
    `${r.small.toFixed(1)} ms for 256 KiB, ${r.large.toFixed(1)} ms for 1 MiB`,
  ).toBeLessThanOrEqual(MAX_RATIO);
};

describe('redaction time is linear in the input', () => {
  for (const [name, make] of Object.entries(TEXT)) {
    it(
      `TEXT: ${name}`,
      () => {
        expect(make(LARGE).length).toBe(LARGE);
        checkLinear((input) => detect(input, 'TEXT'), make);
      },
      TIMEOUT_MS,
    );
  }
  for (const [name, make] of Object.entries(JSON_INPUTS)) {
    it(
      name,
      () => {
        expect(() => JSON.parse(make(SMALL).split('\n')[0]!)).not.toThrow();
        checkLinear((input) => detect(input, 'JSON'), make);
      },
      TIMEOUT_MS,
    );
  }

  it(
    'the measure can fail: a quadratic scan is caught',
    () => {
      // Every 64th position searches the rest of the input for a character it does not hold: n²/64.
      const quadratic = (input: string) => {
        let sum = 0;
        for (let i = 0; i < input.length; i += 64) sum += input.indexOf('@', i);
        return sum;
      };
      expect(() => checkLinear(quadratic, (n) => repeat('a', n))).toThrow(/to be less than or equal to 8/);
    },
    TIMEOUT_MS,
  );
});
