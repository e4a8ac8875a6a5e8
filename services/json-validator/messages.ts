import type { ErrorObject } from 'ajv';

/**
 * Turns ajv's errors into sentences for people: "/user/email must match the format "email"", "/name is
 * required", "The document must be an object". Each issue carries the JSON Pointer of the value it is about
 * (for a missing or forbidden property: that property's pointer), '' for the document itself.
 */
export interface ExplainedError {
  readonly path: string;
  readonly message: string;
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
export const escapePointer = (token: string): string => token.replaceAll('~', '~0').replaceAll('/', '~1');

const child = (path: string, name: unknown): string => `${path}/${escapePointer(String(name))}`;

const MAX_RENDERED = 60;
const MAX_LISTED = 12;

/** A JSON value as it would be written, shortened. */
export function render(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_RENDERED ? `${text.slice(0, MAX_RENDERED - 1)}…` : text;
}

function list(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED).map(render).join(', ');
  return values.length > MAX_LISTED ? `${shown} (or ${values.length - MAX_LISTED} more)` : shown;
}

const plural = (n: unknown, word: string) => `${n} ${word}${Number(n) === 1 ? '' : 's'}`;

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  null: 'null',
};

function typeList(types: unknown): string {
  const names = (Array.isArray(types) ? types : String(types).split(',')).map((t) => TYPE_NAMES[t] ?? t);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number with a fraction';
  return TYPE_NAMES[typeof value] ?? typeof value;
}

/** The constraint part of a sentence ("must be at least 3"), for errors that keep the instance path. */
function constraint(e: ErrorObject, found = true): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `must be ${typeList(p.type)}${found ? `, not ${typeOf(e.data)}` : ''}`;
    case 'enum':
      return `must be one of: ${list(p.allowedValues as unknown[])}`;
    case 'const':
      return `must be ${render(p.allowedValue)}`;
    case 'format':
      return `must match the format ${render(p.format)}`;
    case 'pattern':
      return `must match the pattern ${render(p.pattern)}`;
    case 'minLength':
      return `must be at least ${plural(p.limit, 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(p.limit, 'character')} long`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        '>=': `must be at least ${p.limit}`,
        '>': `must be greater than ${p.limit}`,
        '<=': `must be at most ${p.limit}`,
        '<': `must be less than ${p.limit}`,
      }[String(p.comparison)]!;
    case 'multipleOf':
      return `must be a multiple of ${p.multipleOf}`;
    case 'minItems':
      return `must have at least ${plural(p.limit, 'item')}`;
    case 'maxItems':
    case 'items':
    case 'additionalItems':
    case 'unevaluatedItems':
      return `must have at most ${plural(p.limit, 'item')}`;
    case 'uniqueItems': {
      const [first, second] = [Number(p.i), Number(p.j)].sort((a, b) => a - b);
      return `must not contain duplicates (items ${first} and ${second} are equal)`;
    }
    case 'minProperties':
      return `must have at least ${plural(p.limit, 'property').replace('propertys', 'properties')}`;
    case 'maxProperties':
      return `must have at most ${plural(p.limit, 'property').replace('propertys', 'properties')}`;
    case 'contains': {
      const min = Number(p.minContains ?? 1);
      const matching = 'matching the "contains" schema';
      if (p.maxContains === undefined) return `must contain at least ${plural(min, 'item')} ${matching}`;
      return min === 0
        ? `must contain at most ${plural(p.maxContains, 'item')} ${matching}`
        : `must contain between ${min} and ${p.maxContains} items ${matching}`;
    }
    case 'anyOf':
      return 'must match at least one of the schemas in "anyOf"';
    case 'oneOf': {
      const passing = p.passingSchemas as number[] | null;
      return passing
        ? `must match exactly one of the schemas in "oneOf", but matches ${passing.join(' and ')}`
        : 'must match exactly one of the schemas in "oneOf", but matches none';
    }
    case 'not':
      return 'must not match the schema in "not"';
    case 'false schema':
      return 'is not allowed (its schema is false)';
    default:
      return e.message ?? 'is invalid';
  }
}

/** Path and sentence of one error, or null for errors that only summarize others. */
function explainOne(e: ErrorObject, subjectOf: (path: string) => string): ExplainedError | null {
  const p = e.params as Record<string, unknown>;
  const at = e.instancePath;
  switch (e.keyword) {
    case 'if':
    case 'propertyNames':
      // The errors of "then"/"else" and of the property name itself are reported on their own.
      return null;
    case 'required':
      return {
        path: child(at, p.missingProperty),
        message: `${subjectOf(child(at, p.missingProperty))} is required`,
      };
    case 'dependentRequired':
    case 'dependencies': {
      const path = child(at, p.missingProperty);
      return {
        path,
        message: `${subjectOf(path)} is required when ${subjectOf(child(at, p.property))} is present`,
      };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const path = child(at, p.additionalProperty ?? p.unevaluatedProperty);
      return { path, message: `${subjectOf(path)} is not an allowed property` };
    }
  }
  if (e.propertyName !== undefined) {
    const path = child(at, e.propertyName);
    const where = at === '' ? '' : ` at ${at}`;
    return { path, message: `The property name ${render(e.propertyName)}${where} ${constraint(e)}` };
  }
  return { path: at, message: `${subjectOf(at)} ${constraint(e)}` };
}

/** Keywords about the value itself (not its members): their sentences can be joined as alternatives. */
const VALUE_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);

const isUnder = (path: string, parent: string) => path === parent || path.startsWith(`${parent}/`);
const parentOf = (schemaPath: string) => schemaPath.slice(0, schemaPath.lastIndexOf('/'));

/**
 * ajv reports every failing branch of an anyOf/oneOf (and every failing item of a contains) just before the
 * keyword's own error. Those attempts are noise to a reader: they are folded into the keyword's sentence. The
 * branch errors are the run right before it at or below its instance path that are not errors of a sibling
 * keyword of the same schema (which precede it in ajv's order: type, $ref, const, enum, not).
 */
function foldBranches(errors: readonly ErrorObject[]): { error: ErrorObject; branches: ErrorObject[] }[] {
  const out: { error: ErrorObject; branches: ErrorObject[] }[] = [];
  for (const error of errors) {
    const folds = ['anyOf', 'oneOf', 'contains'].includes(error.keyword);
    const branches: ErrorObject[] = [];
    if (folds) {
      const own = `${error.schemaPath}/`;
      const siblings = `${parentOf(error.schemaPath)}/`;
      while (out.length > 0) {
        const prev = out.at(-1)!.error;
        const sibling = prev.schemaPath.startsWith(siblings) && !prev.schemaPath.startsWith(own);
        if (!isUnder(prev.instancePath, error.instancePath) || sibling) break;
        branches.unshift(...out.pop()!.branches, prev);
      }
    }
    out.push({ error, branches });
  }
  return out;
}

/**
 * The errors as sentences, in ajv's order, without duplicates. `subject` names the root (default "The
 * document"); other values are named by their JSON Pointer.
 */
export function explainErrors(errors: readonly ErrorObject[], root = 'The document'): ExplainedError[] {
  const subjectOf = (path: string) => (path === '' ? root : path);
  const seen = new Set<string>();
  const out: ExplainedError[] = [];
  for (const { error, branches } of foldBranches(errors)) {
    let explained = explainOne(error, subjectOf);
    if (!explained) continue;
    // Alternatives for one value ("a string or an array"): say what each one wanted.
    const alternative = (b: ErrorObject) =>
      b.instancePath === error.instancePath && VALUE_KEYWORDS.has(b.keyword) && b.propertyName === undefined;
    if (error.keyword !== 'contains' && error.params.passingSchemas == null && branches.length > 0) {
      const wanted = [...new Set(branches.map((b) => constraint(b, false)))];
      if (branches.every(alternative) && wanted.length <= 3) {
        explained = {
          path: explained.path,
          message: `${subjectOf(error.instancePath)} ${wanted.join(', or ')}`,
        };
      }
    }
    const key = `${explained.path}\u0000${explained.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(explained);
  }
  return out;
}
