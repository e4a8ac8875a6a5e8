import { AppError } from '../../core/errors/catalogue.js';
import { findJsonSyntaxError } from './json-syntax.js';
import type { SchemaCompiler } from './schema-compiler.js';

/**
 * The validator's domain: a JSON text (convention D, R syntax) or an already parsed value (R) in, issues out.
 * Pure apart from the compiler's cache; no clock, no I/O.
 */

export const MODES = ['SYNTAX', 'SCHEMA', 'FULL'] as const;
export type Mode = (typeof MODES)[number];

export interface Issue {
  /** Every finding makes the document invalid, so every issue is an ERROR. */
  readonly severity: 'ERROR';
  readonly category: 'SYNTAX' | 'SCHEMA';
  /** JSON Pointer of the value ('' for the document); null for syntax issues. */
  readonly path: string | null;
  readonly message: string;
  /** Syntax issues only: 1-based, columns in Unicode code points. */
  readonly line?: number;
  readonly column?: number;
}

export interface Outcome {
  readonly valid: boolean;
  /** Every issue found, also those beyond the MAX_ISSUES listed. */
  readonly issueCount: number;
  readonly issues: Issue[];
}

/** Arrays and objects nested deeper than this are refused (documents and schemas). */
export const MAX_DEPTH = 256;
/** Issues listed per response; `issueCount` still counts them all. */
export const MAX_ISSUES = 100;

/** True when `value` nests arrays/objects deeper than `limit` (iterative: any depth is safe to measure). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

function checkDepth(field: string, value: unknown): void {
  if (nestsDeeperThan(value, MAX_DEPTH)) {
    throw new AppError(
      'VALIDATION_ERROR',
      `${field}: must not nest arrays and objects deeper than ${MAX_DEPTH} levels`,
    );
  }
}

const outcome = (issues: Issue[]): Outcome => ({
  valid: issues.length === 0,
  issueCount: issues.length,
  issues: issues.slice(0, MAX_ISSUES),
});

type Parsed = { ok: true; value: unknown } | { ok: false; issue: Issue };

/** JSON.parse decides; the strict scanner explains a failure with line and column. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const found = findJsonSyntaxError(text);
    // The scanner follows the same grammar; should it ever disagree, the text is still reported invalid.
    const { message, line, column } = found ?? { message: 'The text is not valid JSON', line: 1, column: 1 };
    return { ok: false, issue: { severity: 'ERROR', category: 'SYNTAX', path: null, message, line, column } };
  }
}

async function schemaIssues(value: unknown, schema: unknown, compiler: SchemaCompiler): Promise<Issue[]> {
  const compiled = await compiler.compile(schema);
  const found = compiled.ok ? compiled.validate(value) : compiled.problems;
  return found.map((f) => ({ severity: 'ERROR', category: 'SCHEMA', path: f.path, message: f.message }));
}

/** R syntax check, and D's SYNTAX mode. */
export function checkSyntax(json: string): Outcome {
  const parsed = parseJson(json);
  if (!parsed.ok) return outcome([parsed.issue]);
  checkDepth('json', parsed.value);
  return outcome([]);
}

export interface TextRequest {
  readonly json: string;
  readonly mode: Mode;
  /** The inline schema or the profile's; required for SCHEMA and FULL. */
  readonly schema?: unknown;
}

/**
 * SYNTAX parses only; SCHEMA and FULL also validate against the schema. A text that does not parse cannot be
 * validated, so SCHEMA reports its syntax issue too (the document is not valid either way).
 */
export async function validateText(request: TextRequest, compiler: SchemaCompiler): Promise<Outcome> {
  const parsed = parseJson(request.json);
  if (!parsed.ok) return outcome([parsed.issue]);
  checkDepth('json', parsed.value);
  if (request.mode === 'SYNTAX') return outcome([]);
  checkDepth('schema', request.schema);
  return outcome(await schemaIssues(parsed.value, request.schema, compiler));
}

/** R: the document is the JSON value itself (a string is a JSON string, not a text to parse). */
export async function validateValue(
  document: unknown,
  schema: unknown,
  compiler: SchemaCompiler,
): Promise<Outcome> {
  checkDepth('document', document);
  checkDepth('schema', schema);
  return outcome(await schemaIssues(document, schema, compiler));
}
