/**
 * Where the validator (ajv 8.20 with ajv-formats 3.0.1, as configured in services/json-validator/drafts.ts)
 * disagrees with the JSON-Schema-Test-Suite, and why. `group` or `test` left out: every failing test of the
 * file or group. The suite test fails on a failure not listed here, and on an entry that no longer fails.
 */
export interface KnownFailure {
  /** Suite directories: draft4, draft6, draft7, draft2019-09, draft2020-12. */
  readonly dirs: readonly string[];
  /** Under optional/ (the suite's own word for behaviour the specification leaves to implementations). */
  readonly optional: boolean;
  readonly file: string;
  readonly group?: string;
  readonly test?: string;
  readonly reason: string;
}

const ALL = ['draft4', 'draft6', 'draft7', 'draft2019-09', 'draft2020-12'];
const FROM_6 = ['draft6', 'draft7', 'draft2019-09', 'draft2020-12'];
const FROM_7 = ['draft7', 'draft2019-09', 'draft2020-12'];
const MODERN = ['draft2019-09', 'draft2020-12'];
const LATEST = ['draft2020-12'];

const AJV_DYNAMIC_REF =
  'ajv implements $dynamicRef only as a same-document "#anchor" resolved through the dynamic scope of one ' +
  'compiled schema: initial static resolution, scopes across resources and bookending are not implemented';
const AJV_IF_ANNOTATIONS =
  'ajv does not collect the annotations of an "if" that has no matching "then"/"else", so unevaluated* ' +
  'does not see what the "if" evaluated';
const FORMAT_ANNOTATION =
  'By design the service asserts formats in every draft (SPEC: formats checked); draft 2020-12 makes ' +
  '"format" an annotation unless the format-assertion vocabulary is in use';

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  // Required tests
  // --------------------------------------------------------------------------------------------
  {
    dirs: ALL,
    optional: false,
    file: 'properties.json',
    group: 'properties whose names are Javascript object property names',
    test: '__proto__ not valid',
    reason:
      'ajv skips a property named "__proto__" in "properties" (its guard against prototype pollution). ' +
      'Over HTTP such a body never arrives: the gateway refuses "__proto__" keys with 400',
  },
  {
    dirs: ['draft4', 'draft6', 'draft7'],
    optional: false,
    file: 'ref.json',
    group: 'ref overrides any sibling keywords',
    test: 'ref valid, maxItems ignored',
    reason: 'ajv 8 applies the keywords beside "$ref" in every draft; drafts 4 to 7 say to ignore them',
  },
  {
    dirs: ['draft4'],
    optional: false,
    file: 'ref.json',
    group: '$ref prevents a sibling id from changing the base uri',
    reason:
      'ajv lets an "id" beside "$ref" change the base URI the "$ref" resolves against (drafts 4 to 7 say no)',
  },
  {
    dirs: ['draft6', 'draft7'],
    optional: false,
    file: 'ref.json',
    group: '$ref prevents a sibling $id from changing the base uri',
    reason:
      'ajv lets an "$id" beside "$ref" change the base URI the "$ref" resolves against (drafts 4 to 7 say ' +
      'no)',
  },
  {
    dirs: MODERN,
    optional: false,
    file: 'enum.json',
    group: 'empty enum',
    reason:
      'ajv refuses an empty "enum" when compiling; 2019-09 and later allow it (it matches nothing). The ' +
      'service reports the schema as unusable, so the document is invalid, but not for the reason the ' +
      'suite means',
  },
  ...[
    'URN ref with nested pointer ref',
    'refs with relative uris and defs',
    'relative refs with absolute uris and defs',
  ].map((group) => ({
    dirs: MODERN,
    optional: false,
    file: 'ref.json',
    group,
    reason:
      'ajv overflows its stack resolving nested "$id" scopes that refer to each other; the service reports ' +
      'the schema as one it cannot compile',
  })),
  {
    dirs: MODERN,
    optional: false,
    file: 'unevaluatedItems.json',
    group: 'unevaluatedItems can see annotations from if without then and else',
    reason: AJV_IF_ANNOTATIONS,
  },
  {
    dirs: MODERN,
    optional: false,
    file: 'unevaluatedProperties.json',
    group: 'unevaluatedProperties can see annotations from if without then and else',
    reason: AJV_IF_ANNOTATIONS,
  },
  {
    dirs: MODERN,
    optional: false,
    file: 'unevaluatedProperties.json',
    group: 'unevaluatedProperties with if/then/else, then not defined',
    reason: AJV_IF_ANNOTATIONS,
  },
  {
    dirs: MODERN,
    optional: false,
    file: 'unevaluatedItems.json',
    group: 'unevaluatedItems with nested items',
    reason:
      'ajv loses track of the items evaluated inside a nested "anyOf" branch and generates a check on a ' +
      'wrong value (it reports /true)',
  },
  {
    dirs: MODERN,
    optional: false,
    file: 'vocabulary.json',
    reason:
      'ajv does not implement "$vocabulary": a meta-schema without the validation vocabulary still validates',
  },
  {
    dirs: ['draft2019-09'],
    optional: false,
    file: 'recursiveRef.json',
    group: '$recursiveRef with no $recursiveAnchor in the initial target schema resource',
    reason:
      'ajv follows "$recursiveRef" dynamically even when the initially resolved schema has no ' +
      '"$recursiveAnchor": true (it must then behave like "$ref")',
  },
  { dirs: LATEST, optional: false, file: 'dynamicRef.json', reason: AJV_DYNAMIC_REF },
  {
    dirs: LATEST,
    optional: false,
    file: 'unevaluatedItems.json',
    group: 'unevaluatedItems with $dynamicRef',
    reason: AJV_DYNAMIC_REF,
  },
  {
    dirs: LATEST,
    optional: false,
    file: 'unevaluatedProperties.json',
    group: 'unevaluatedProperties with $dynamicRef',
    reason: AJV_DYNAMIC_REF,
  },
  ...[
    'unevaluatedItems and contains interact to control item dependency relationship',
    'unevaluatedItems depends on adjacent contains',
    'unevaluatedItems depends on multiple nested contains',
    'unevaluatedItems with minContains = 0',
  ].map((group) => ({
    dirs: LATEST,
    optional: false,
    file: 'unevaluatedItems.json',
    group,
    reason: 'ajv does not count the items that "contains" matched as evaluated (a 2020-12 rule)',
  })),
  { dirs: LATEST, optional: false, file: 'format.json', reason: FORMAT_ANNOTATION },

  // Optional tests
  // --------------------------------------------------------------------------------------------
  {
    dirs: ALL,
    optional: true,
    file: 'optional/float-overflow.json',
    reason: 'JavaScript numbers are doubles: 1e308 × 10 overflows to Infinity, which is no multiple of 0.5',
  },
  {
    dirs: ['draft4'],
    optional: true,
    file: 'optional/zeroTerminatedFloats.json',
    reason: 'JSON.parse reads 1.0 as the number 1, which is an integer',
  },
  {
    dirs: ALL,
    optional: true,
    file: 'optional/format/date-time.json',
    reason:
      "ajv-formats' date-time accepts an offset without minutes and hour 24 with a leap second, and " +
      'refuses fractions longer than its limit',
  },
  {
    dirs: ALL,
    optional: true,
    file: 'optional/format/hostname.json',
    group: 'validation of host names',
    reason: 'ajv-formats accepts a trailing dot (the DNS root) in a host name',
  },
  {
    dirs: FROM_7,
    optional: true,
    file: 'optional/format/hostname.json',
    group: 'validation of A-label (punycode) host names',
    reason: 'ajv-formats checks host-name syntax only: no Punycode decoding and no IDNA 2008 rules',
  },
  {
    dirs: ALL,
    optional: true,
    file: 'optional/format/uri.json',
    reason: "ajv-formats' URI pattern is more lenient than RFC 3986 about ports, brackets and IPv4 literals",
  },
  {
    dirs: FROM_6,
    optional: true,
    file: 'optional/format/uri-reference.json',
    reason: "ajv-formats' URI-reference pattern is more lenient than RFC 3986",
  },
  {
    dirs: FROM_6,
    optional: true,
    file: 'optional/format/uri-template.json',
    reason: "ajv-formats' URI-template pattern differs from RFC 6570 on literals and dotted variable names",
  },
  {
    dirs: FROM_6,
    optional: true,
    file: 'optional/unknownKeyword.json',
    reason: 'ajv registers an "$id" found inside an unknown keyword, which then collides with the real one',
  },
  {
    dirs: FROM_7,
    optional: true,
    file: 'optional/format/ecmascript-regex.json',
    reason:
      'ajv-formats compiles "regex" values without the u flag, where "\\a" is a harmless identity escape',
  },
  {
    dirs: FROM_7,
    optional: true,
    file: 'optional/format/idn-hostname.json',
    reason: 'ajv-formats has no "idn-hostname" format; unknown formats are not checked',
  },
  {
    dirs: FROM_7,
    optional: true,
    file: 'optional/format/idn-email.json',
    reason: 'ajv-formats has no "idn-email" format; unknown formats are not checked',
  },
  {
    dirs: FROM_7,
    optional: true,
    file: 'optional/format/iri.json',
    reason: 'ajv-formats has no "iri" format; unknown formats are not checked',
  },
  {
    dirs: FROM_7,
    optional: true,
    file: 'optional/format/iri-reference.json',
    reason: 'ajv-formats has no "iri-reference" format; unknown formats are not checked',
  },
  {
    dirs: ['draft7'],
    optional: true,
    file: 'optional/content.json',
    reason: 'contentEncoding and contentMediaType are annotations in ajv, never asserted',
  },
  {
    dirs: ['draft7', 'draft2019-09', 'draft2020-12'],
    optional: true,
    file: 'optional/cross-draft.json',
    reason:
      'A schema is compiled in its own draft; a "$ref" to another draft\'s meta-schema finds no such ' +
      'document (and is never fetched)',
  },
  {
    dirs: MODERN,
    optional: true,
    file: 'optional/format/duration.json',
    reason:
      "ajv-formats' duration pattern accepts years and days without months, hours and seconds without " +
      'minutes',
  },
  {
    dirs: MODERN,
    optional: true,
    file: 'optional/format/uuid.json',
    reason: 'ajv-formats accepts a "urn:uuid:" prefix',
  },
  {
    dirs: LATEST,
    optional: true,
    file: 'optional/format/email.json',
    reason:
      "ajv-formats' e-mail pattern refuses quoted local parts and address literals (RFC 5321 allows them)",
  },
  { dirs: LATEST, optional: true, file: 'optional/dynamicRef.json', reason: AJV_DYNAMIC_REF },
];
