/**
 * Golden redaction of realistic log fixtures written for this project (test/log-redaction/fixtures/): each
 * `<name>` has its input and its expected redacted text, written by hand. Besides the exact output, every case
 * checks that the values that must NOT be redacted (UUIDs, timestamps, hashes, version strings, identifiers)
 * survive, and the invariants of the detections themselves.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyRedactions, type ContentType, detect } from '../../services/log-redaction/redaction.js';
import { REPLACEMENTS } from '../../services/log-redaction/types.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

interface GoldenCase {
  readonly input: string;
  readonly expected: string;
  readonly contentType: ContentType;
  /** Substrings of the input that must reach the output untouched: the false positives to avoid. */
  readonly keep: readonly string[];
}

const CASES: Record<string, GoldenCase> = {
  'nginx access log (combined format, custom fields)': {
    input: 'nginx-access.log',
    expected: 'nginx-access.redacted.log',
    contentType: 'TEXT',
    keep: [
      '550e8400-e29b-41d4-a716-446655440000',
      '[10/Oct/2023:13:55:36 +0000]',
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'request_id=7f3c9b2a4e1d8f6a0b5c3e9d2a7f4b1c',
      'app.3f9a2c1b.js',
      'toolgate-cli-2.4.1-linux-amd64.tar.gz',
      'Chrome/120.0.0.0',
      'Version/17.1.2',
      'Gecko/20100101',
      'HTTP/2.0" 200 512',
      '10485760',
    ],
  },
  'nginx error log': {
    input: 'nginx-error.log',
    expected: 'nginx-error.redacted.log',
    contentType: 'TEXT',
    keep: [
      '2023/10/10 13:55:36',
      '1234#1234: *5678',
      'error:0A00010B:SSL routines::wrong version number',
      '/proxy_temp/1/00/0000000001',
      'php8.2-fpm.sock',
      'nginx/1.25.3 (built by gcc 12.2.0 (Debian 12.2.0-14))',
      '(using password: YES)',
    ],
  },
  'JSON application logs (JSON Lines) scanned as TEXT': {
    input: 'app.ndjson',
    expected: 'app.text.redacted.ndjson',
    contentType: 'TEXT',
    keep: [
      '"ts":"2024-03-05T09:14:22.481Z"',
      '"version":"2.14.3"',
      '"traceId":"4bf92f3577b34da6a3ce929d0e0e4736"',
      '"spanId":"00f067aa0ba902b7"',
      '"requestId":"b7e2c6d0-3f1a-4c8e-9b2d-7a5e1f0c3d9b"',
      '"build":"1.0.0.4521"',
      '"appVersion":"10.4.0.2"',
      '"commit":"a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"',
      '"epochMs":1709630068250',
      '"userId":1048576',
    ],
  },
  'JSON application logs (JSON Lines) as JSON': {
    input: 'app.ndjson',
    expected: 'app.json.redacted.ndjson',
    contentType: 'JSON',
    keep: [
      '"traceId":"4bf92f3577b34da6a3ce929d0e0e4736"',
      '"appVersion":"10.4.0.2"',
      '"epochMs":1709630068250',
    ],
  },
  'a JSON event document (escapes, nesting, numbers)': {
    input: 'signup-event.json',
    expected: 'signup-event.redacted.json',
    contentType: 'JSON',
    keep: [
      '"0f8fad5b-d9cb-469f-a165-70867728950e"',
      '"2024-03-05T09:20:00Z"',
      '"schemaVersion": "3.1.0"',
      '"Zo\\u00eb M\\u00fcller"',
      '"postcode": "10115"',
      'Gecko/20100101 Firefox/121.0',
    ],
  },
  'a Java (Spring) stack trace': {
    input: 'java-stacktrace.log',
    expected: 'java-stacktrace.redacted.log',
    contentType: 'TEXT',
    keep: [
      'CardService$$EnhancerBySpringCGLIB$$5f3c2a1b',
      'AbstractAutowireCapableBeanFactory.doCreateBean(AbstractAutowireCapableBeanFactory.java:620)',
      'GeneratedMethodAccessor412',
      '[nio-8080-exec-7]',
      '2024-03-05 09:15:02.118 ERROR 4711',
      'Spring Boot v3.2.3, Java 17.0.10+7',
      'cus_9s8d7f6g5h',
    ],
  },
  'a Node.js stack trace with an inspected error object': {
    input: 'node-stacktrace.log',
    expected: 'node-stacktrace.redacted.log',
    contentType: 'TEXT',
    keep: [
      '[2024-03-05T09:16:40.771Z]',
      'api-7d9f8b6c5-x2k4p',
      'axios.cjs:1966:12',
      '(node:events:529:35)',
      "'User-Agent': 'axios/1.6.7'",
      'Node.js v20.11.1',
      '"session":"s_0aa1b2"',
    ],
  },
};

describe('golden redaction of log fixtures', () => {
  for (const [name, c] of Object.entries(CASES)) {
    describe(name, () => {
      const input = fixture(c.input);
      const expected = fixture(c.expected);
      const detections = detect(input, c.contentType);
      const output = applyRedactions(input, detections);

      it('produces exactly the expected redacted text', () => {
        // Line by line first, so a failure names the line.
        const got = output.split('\n');
        const want = expected.split('\n');
        for (let i = 0; i < Math.max(got.length, want.length); i++) {
          expect(got[i], `${c.input} line ${i + 1}`).toBe(want[i]);
        }
        expect(output).toBe(expected);
      });

      it('leaves UUIDs, timestamps, hashes, versions and identifiers alone', () => {
        for (const k of c.keep) {
          expect(input, `fixture holds ${k}`).toContain(k);
          expect(output, `${k} survives`).toContain(k);
        }
      });

      it('reports each detection at its exact offsets, in order, without overlap', () => {
        expect(detections.length).toBeGreaterThan(0);
        let last = 0;
        for (const d of detections) {
          expect(input.slice(d.start, d.end)).toBe(d.value);
          expect(d.start).toBeGreaterThanOrEqual(last);
          expect(d.replacement).toBe(REPLACEMENTS[d.type]);
          last = d.end;
        }
        // Every token in the output is one of ours and there are as many as detections.
        const tokens = output.match(/\[[A-Z_]+_REDACTED\]/g) ?? [];
        expect(tokens.length).toBe(detections.length);
      });

      if (c.contentType === 'JSON') {
        it('keeps the JSON valid and its structure unchanged', () => {
          const docs = (s: string) =>
            s.trim().startsWith('{') && !s.trim().includes('\n{')
              ? [JSON.parse(s)]
              : s
                  .split('\n')
                  .filter((l) => l.trim())
                  .map((l) => JSON.parse(l));
          const shape = (v: unknown): unknown =>
            Array.isArray(v)
              ? v.map(shape)
              : v && typeof v === 'object'
                ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
                : v === null
                  ? 'null'
                  : typeof v === 'number' && detections.some((d) => d.value === String(v))
                    ? 'redacted-number'
                    : typeof v;
          const before = docs(input).map(shape);
          const after = docs(output).map(shape);
          expect(JSON.stringify(after).replaceAll('"string"', '"x"')).toBe(
            JSON.stringify(before).replaceAll('"string"', '"x"').replaceAll('"redacted-number"', '"x"'),
          );
        });
      }
    });
  }
});
