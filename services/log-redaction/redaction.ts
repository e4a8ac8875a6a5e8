import { scanJson } from './json-content.js';
import { scan } from './scanner.js';
import { type Confidence, type DetectionType, REPLACEMENTS } from './types.js';

export type ContentType = 'TEXT' | 'JSON';

/** One sensitive value: `content.slice(start, end) === value`, offsets in UTF-16 code units (JS indices). */
export interface Detection {
  readonly type: DetectionType;
  readonly start: number;
  readonly end: number;
  readonly value: string;
  readonly confidence: Confidence;
  /** The token that stands for the value: `[EMAIL_REDACTED]`. */
  readonly replacement: string;
  /** What replaces [start, end) in the redacted text: the token, quoted when it replaces a JSON number. */
  readonly splice: string;
}

export class InvalidJsonContent extends Error {
  constructor() {
    super('content is not JSON');
    this.name = 'InvalidJsonContent';
  }
}

/**
 * Finds what to redact. TEXT: offsets into the text. JSON: the content must be a JSON document or JSON Lines;
 * offsets point into the JSON source, at the characters of the string literal (or number) that hold the value.
 */
export function detect(
  content: string,
  contentType: ContentType,
  types?: ReadonlySet<DetectionType>,
): Detection[] {
  const options = types ? { types } : {};
  if (contentType === 'JSON') {
    const findings = scanJson(content, options);
    if (!findings) throw new InvalidJsonContent();
    return findings.map((f) => {
      const replacement = REPLACEMENTS[f.type];
      return {
        type: f.type,
        start: f.start,
        end: f.end,
        value: content.slice(f.start, f.end),
        confidence: f.confidence,
        replacement,
        splice: f.quoted ? `"${replacement}"` : replacement,
      };
    });
  }
  return scan(content, options).map((f) => ({
    type: f.type,
    start: f.start,
    end: f.end,
    value: content.slice(f.start, f.end),
    confidence: f.confidence,
    replacement: REPLACEMENTS[f.type],
    splice: REPLACEMENTS[f.type],
  }));
}

/** The content with every detection replaced; detections are non-overlapping and in order. */
export function applyRedactions(content: string, detections: readonly Detection[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const d of detections) {
    parts.push(content.slice(from, d.start), d.splice);
    from = d.end;
  }
  parts.push(content.slice(from));
  return parts.join('');
}
