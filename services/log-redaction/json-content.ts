import { isCardNumber } from './checksums.js';
import { fieldKind, fieldValueFinding } from './fields.js';
import { isVersionName } from './ip.js';
import { lexJson } from './json-lexer.js';
import { resolveOverlaps } from './resolve.js';
import { findCandidates } from './scanner.js';
import { type Finding, RANK, type ScanOptions } from './types.js';

/** A finding in the JSON source text; `quoted` when it replaces a number literal (the token becomes a string). */
export interface JsonFinding extends Finding {
  readonly quoted: boolean;
}

/** A string value's decoded text, placed in the combined text, with the way back to the source. */
interface Segment {
  /** Offset of the decoded text in the combined text. */
  readonly at: number;
  readonly length: number;
  /** Source offset of the literal's first character (after the opening quote). */
  readonly raw: number;
  /** Source offset of each decoded code unit, and of the closing quote; null when nothing was escaped. */
  readonly map: Int32Array | null;
  /** The value of a `version`-like field: a dotted quad there is a version, not an address. */
  readonly version: boolean;
}

/**
 * Findings in JSON (one document or JSON Lines), or null when the text is not JSON. Only values are redacted,
 * never field names: the structure stays, and the redacted text is still valid JSON of the same shape. Each
 * string value is decoded; the decoded values are joined by line breaks into one text that the detectors scan
 * once (so a million tiny strings cost one scan, not a million), and findings are mapped back to source
 * offsets. A string under a secret-looking field name (`password`, `apiKey`, `authorization`, `ssn`) is
 * redacted as a whole. Integer literals are redacted when they are card numbers, or the value of such a field.
 */
export function scanJson(text: string, options: ScanOptions = {}): JsonFinding[] | null {
  const parts: string[] = [];
  const segments: Segment[] = [];
  const direct: Finding[] = [];
  const numbers: JsonFinding[] = [];
  let combined = 0;
  const want = (t: Finding['type']) => !options.types || options.types.has(t);

  const valid = lexJson(text, {
    string(value, raw, map, field) {
      if (parts.length > 0) combined++;
      const version = field !== undefined && isVersionName(field);
      segments.push({ at: combined, length: value.length, raw, map, version });
      parts.push(value);
      const kind = field === undefined ? null : fieldKind(field);
      const whole = kind ? fieldValueFinding(kind, value, 0, value.length) : null;
      if (whole && want(whole.type))
        direct.push({ ...whole, start: whole.start + combined, end: whole.end + combined });
      combined += value.length;
    },
    number(start, end, field) {
      const found = numberFinding(text, start, end, field);
      if (found && want(found.type)) numbers.push(found);
    },
  });
  if (!valid) return null;

  const all = parts.join('\n');
  const candidates = [...findCandidates(all, options), ...direct];
  const clipped = clipToSegments(candidates, segments);
  const found: JsonFinding[] = resolveOverlaps(clipped, all.length).map((f) => toSource(f, segments));
  return [...found, ...numbers].sort((a, b) => a.start - b.start);
}

/** An integer literal that is a card number, or the value of a secret field (`"pin": 1234` is not named). */
function numberFinding(text: string, s: number, e: number, field: string | undefined): JsonFinding | null {
  const kind = field === undefined ? null : fieldKind(field);
  if (kind && kind !== 'AUTHORIZATION') {
    const f = fieldValueFinding(kind, text, s, e);
    if (f) return { ...f, quoted: true };
  }
  const literal = e - s <= 19 ? text.slice(s, e) : '';
  if (/^[0-9]{13,19}$/.test(literal) && isCardNumber(literal)) {
    return {
      type: 'CREDIT_CARD',
      start: s,
      end: e,
      confidence: 'HIGH',
      rank: RANK.CREDIT_CARD,
      quoted: true,
    };
  }
  return null;
}

/** Index of the segment holding combined offset `pos` (segments are in order). */
function segmentAt(segments: readonly Segment[], pos: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segments[mid]!.at <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A finding never leaves its string value (a PEM body read across the line break that joins two values), and
 * the value of a version field holds no address.
 */
function clipToSegments(findings: readonly Finding[], segments: readonly Segment[]): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const seg = segments[segmentAt(segments, f.start)]!;
    if (seg.version && f.type === 'IP_ADDRESS') continue;
    const end = Math.min(f.end, seg.at + seg.length);
    if (f.start >= seg.at && end > f.start) out.push(end === f.end ? f : { ...f, end });
  }
  return out;
}

function toSource(f: Finding, segments: readonly Segment[]): JsonFinding {
  const seg = segments[segmentAt(segments, f.start)]!;
  const from = f.start - seg.at;
  const to = f.end - seg.at;
  const start = seg.map ? seg.map[from]! : seg.raw + from;
  const end = seg.map ? seg.map[to]! : seg.raw + to;
  return { ...f, start, end, quoted: false };
}
