/**
 * Turns Ajv errors into the `<field>: <constraint>` messages of SPEC.md 7.3, so every validation failure reads the
 * same whichever route or convention produced it.
 */
export interface AjvLikeError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, unknown>;
  readonly message?: string;
}

/** `/scopes/0` → `scopes[0]`; `/a/b` → `a.b`; the field named by `required` or `additionalProperties` is added. */
export function fieldName(error: AjvLikeError, root?: string): string {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  const extra =
    (error.params.missingProperty as string | undefined) ??
    (error.params.additionalProperty as string | undefined);
  if (extra !== undefined) parts.push(extra);
  let name = '';
  for (const p of parts) name += /^\d+$/.test(p) ? `[${p}]` : name ? `.${p}` : p;
  return name || root || 'body';
}

const FORMATS: Record<string, string> = {
  email: 'must be a well-formed email address',
  uri: 'must be a valid HTTP or HTTPS URL',
  url: 'must be a valid HTTP or HTTPS URL',
  ipv4: 'must be a valid IPv4 address',
  ipv6: 'must be a valid IPv6 address',
  hostname: 'must be a valid domain name',
  'date-time': 'must be an ISO 8601 date-time',
  date: 'must be a date (YYYY-MM-DD)',
  uuid: 'must be a UUID',
};

export function constraint(error: AjvLikeError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'must not be blank';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type':
      return `must be ${article(String(p.type))}`;
    case 'enum':
      return `must be one of [${(p.allowedValues as unknown[]).join(', ')}]`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return FORMATS[String(p.format)] ?? `must be a valid ${String(p.format)}`;
    case 'minLength':
      return Number(p.limit) <= 1 ? 'must not be blank' : `must be at least ${p.limit} characters`;
    case 'maxLength':
      return `must be at most ${p.limit} characters`;
    case 'minimum':
      return `must be at least ${p.limit}`;
    case 'maximum':
      return `must be at most ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be greater than ${p.limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${p.limit}`;
    case 'minItems':
      return `must contain at least ${p.limit} item${Number(p.limit) === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must contain at most ${p.limit} items`;
    case 'uniqueItems':
      return 'must not contain duplicates';
    case 'pattern':
      return 'has an invalid format';
    case 'multipleOf':
      return `must be a multiple of ${p.multipleOf}`;
    default:
      return error.message ?? 'is invalid';
  }
}

const article = (type: string): string => {
  const t = type.split(',')[0] ?? type;
  return `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`;
};

/** One message for the first (most relevant) error; Ajv lists `required` before nested problems. */
export function validationMessage(errors: readonly AjvLikeError[], root?: string): string {
  const first =
    errors.find((e) => e.keyword !== 'if' && e.keyword !== 'anyOf' && e.keyword !== 'oneOf') ?? errors[0];
  if (!first) return `${root ?? 'body'}: is invalid`;
  return `${fieldName(first, root)}: ${constraint(first)}`;
}
