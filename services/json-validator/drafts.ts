import { createRequire } from 'node:module';
import { Ajv, type AnySchemaObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

/** The JSON Schema drafts the service supports (SPEC.md section 9). */
export const DRAFTS = ['draft-04', 'draft-06', 'draft-07', '2019-09', '2020-12'] as const;
export type Draft = (typeof DRAFTS)[number];

/** Without `$schema` a schema is read as the newest draft. */
export const DEFAULT_DRAFT: Draft = '2020-12';

export const DRAFT_LABEL: Record<Draft, string> = {
  'draft-04': 'draft 4',
  'draft-06': 'draft 6',
  'draft-07': 'draft 7',
  '2019-09': 'draft 2019-09',
  '2020-12': 'draft 2020-12',
};

/** The meta-schema ids as ajv registers them (no trailing `#`). */
export const META_SCHEMA: Record<Draft, string> = {
  'draft-04': 'http://json-schema.org/draft-04/schema',
  'draft-06': 'http://json-schema.org/draft-06/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

/**
 * The draft a `$schema` names, tolerating what people write: http or https, with or without `www.`, a
 * trailing `#`. `http://json-schema.org/schema` ("the latest") is the default draft. Anything else: null.
 */
export function draftOfUri(uri: string): Draft | null {
  const m = /^https?:\/\/(?:www\.)?json-schema\.org\/(.+?)#?$/.exec(uri.trim());
  if (!m) return null;
  switch (m[1]) {
    case 'draft-04/schema':
      return 'draft-04';
    case 'draft-06/schema':
      return 'draft-06';
    case 'draft-07/schema':
      return 'draft-07';
    case 'draft/2019-09/schema':
      return '2019-09';
    case 'draft/2020-12/schema':
    case 'schema':
      return '2020-12';
    default:
      return null;
  }
}

const require = createRequire(import.meta.url);
const DRAFT_06_META = require('ajv/dist/refs/json-schema-draft-06.json') as AnySchemaObject;

/** What every instance shares: all errors, the data in type errors, unknown keywords and formats ignored. */
const BASE_OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  // Unknown keywords are annotations in every draft; a strict ajv would refuse schemas the drafts accept.
  strict: false,
  logger: false,
  // The meta-schema check runs separately (metaSchemaValidator), so its errors can be explained.
  validateSchema: false,
  // `{"required": ["constructor"]}` must not be met by what every object inherits.
  ownProperties: true,
};

type AnyAjv = Ajv | Ajv2019 | Ajv2020 | InstanceType<typeof Ajv04.default>;

/** A fresh ajv for one draft: each user schema compiles in its own instance, so `$id`s never collide. */
export function newAjv(draft: Draft, extra: Options = {}): AnyAjv {
  const options = { ...BASE_OPTIONS, ...extra };
  let ajv: AnyAjv;
  switch (draft) {
    case 'draft-04':
      ajv = new Ajv04.default(options);
      break;
    case 'draft-06':
    case 'draft-07':
      ajv = new Ajv(options);
      // Draft 6 is draft 7 without if/then/else and a few annotations; ajv runs both with the draft-7 rules.
      ajv.addMetaSchema(DRAFT_06_META);
      break;
    case '2019-09':
      ajv = new Ajv2019(options);
      break;
    case '2020-12':
      ajv = new Ajv2020(options);
      break;
  }
  addFormats.default(ajv);
  return ajv;
}

const metaValidators = new Map<Draft, ValidateFunction>();

/** Checks a schema against its draft's meta-schema (compiled once per draft and thread). */
export function metaSchemaValidator(draft: Draft): ValidateFunction {
  let validate = metaValidators.get(draft);
  if (!validate) {
    validate = newAjv(draft).getSchema(META_SCHEMA[draft]);
    if (!validate) throw new Error(`no meta-schema for ${draft}`);
    metaValidators.set(draft, validate);
  }
  return validate;
}
