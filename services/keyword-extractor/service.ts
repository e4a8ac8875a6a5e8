import { AppError } from '../../core/errors/catalogue.js';
import type { ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { type Extraction, extractKeywords, type Keyword } from './extract.js';
import { stopwordLanguages } from './stopwords.js';
import type { Profile } from './words.js';

/** Bodies as the gateway hands them over: validated, defaults applied. */
interface ExtractRequest {
  readonly text: string;
  readonly maxKeywords?: number;
  readonly profile?: Profile;
}

interface BatchRequest {
  readonly documents: readonly { readonly id: string; readonly text: string }[];
  readonly maxKeywords?: number;
  readonly profile?: Profile;
}

interface V1ExtractRequest {
  readonly text: string;
  readonly maxKeywords?: number;
  readonly language?: string;
}

/** S `data`: SPEC.md 4.2. */
export interface KeywordExtraction {
  readonly keywords: readonly Keyword[];
  readonly profile: Profile;
  readonly wordCount: number;
}

export interface BatchItem {
  readonly id: string;
  readonly keywords: readonly Keyword[];
  readonly error?: { readonly code: 'VALIDATION_ERROR'; readonly message: string };
}

/** R body: SPEC.md 4.4. */
export interface KeywordsExtraction {
  readonly keywords: readonly Keyword[];
  readonly language: string;
}

export const DEFAULT_MAX_KEYWORDS = 10;
export const MAX_KEYWORDS = 50;
/** The batch route's own bound; the gateway applies the smaller of it and the plan's batch size. */
export const BATCH_MAX = 100;
const PROFILES: readonly Profile[] = ['GENERAL', 'TECHNICAL'];

/** The schemas refuse these already; the checks keep the handlers correct for any caller. */
function options(body: { maxKeywords?: number; profile?: Profile }) {
  const maxKeywords = body.maxKeywords ?? DEFAULT_MAX_KEYWORDS;
  if (!Number.isInteger(maxKeywords) || maxKeywords < 1 || maxKeywords > MAX_KEYWORDS) {
    throw new AppError('VALIDATION_ERROR', `maxKeywords: must be an integer from 1 to ${MAX_KEYWORDS}`);
  }
  const profile = body.profile ?? 'GENERAL';
  if (!PROFILES.includes(profile)) {
    throw new AppError('VALIDATION_ERROR', `profile: must be one of [${PROFILES.join(', ')}]`);
  }
  return { maxKeywords, profile };
}

/** White space only, or no word at all ("!!!", emoji): nothing to extract from. */
function extract(
  text: string,
  maxKeywords: number,
  profile: Profile,
  language: string,
  field = 'text',
): Extraction {
  if (text.trim() === '') throw new AppError('VALIDATION_ERROR', `${field}: must not be blank`);
  const result = extractKeywords(text, { maxKeywords, profile, language });
  if (result.wordCount === 0) {
    throw new AppError('VALIDATION_ERROR', `${field}: must contain at least one word`);
  }
  return result;
}

const METHOD =
  'YAKE, a statistical single-document method: each word is weighed by casing, position of the sentences ' +
  'it occurs in, frequency, the variety of its neighbours and its spread over sentences; candidates are ' +
  'runs of one to three words that neither start nor end with a stop word (stopwords-iso lists), with ' +
  'Chinese, Japanese and Thai cut into words by Unicode word segmentation. Near-duplicates of a better ' +
  'keyword (the same stem, one inside the other, or nearly the same spelling) are left out. A score is the ' +
  "best keyword's YAKE weight over this keyword's: the best scores 1, and scores compare within one text.";

/** `now` is accepted for the platform's uniform factory shape; no result depends on the clock. */
export function createKeywordExtractorService(_deps: { now?: () => Date } = {}): ServiceDefinition {
  const languages = stopwordLanguages();
  return {
    slug: 'keyword-extractor',
    title: 'Keyword extractor',
    description:
      'Keywords and key phrases of a text, scored 0..1, in 58 languages, with a TECHNICAL profile that ' +
      'keeps identifiers, versions, acronyms and code tokens.',
    routes: [
      {
        convention: 'S',
        method: 'POST',
        path: '/api/keyword-extractor/extract',
        operationId: 'keywordExtractorExtract',
        summary: 'Extract keywords from a text',
        description: `Returns up to maxKeywords keywords, best first, with the profile used and the word count. ${METHOD}`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('keyword-extractor/extract-request.json'),
          response: { 200: apiSchema('keyword-extractor/extract-response.json') },
        },
        async handler({ body }): Promise<KeywordExtraction> {
          const request = body as ExtractRequest;
          const { maxKeywords, profile } = options(request);
          const { keywords, wordCount } = extract(request.text, maxKeywords, profile, 'auto');
          return { keywords, profile, wordCount };
        },
      },
      {
        convention: 'S',
        method: 'POST',
        path: '/api/keyword-extractor/extract/batch',
        operationId: 'keywordExtractorExtractBatch',
        summary: 'Extract keywords from several texts',
        description:
          'One result per document, in request order; a document that cannot be processed (white space ' +
          'only) gets an `error` and empty keywords while the others are answered. At most the smaller of ' +
          `the plan's batch size and ${BATCH_MAX} documents; the batch counts as one call. ${METHOD}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'documents', max: BATCH_MAX },
        schemas: {
          body: apiSchema('keyword-extractor/extract-batch-request.json'),
          response: { 200: apiSchema('keyword-extractor/extract-batch-response.json') },
        },
        async handler({ body }, ctx): Promise<{ results: BatchItem[] }> {
          const request = body as BatchRequest;
          const { maxKeywords, profile } = options(request);
          if (request.documents.length > ctx.batchLimit) {
            throw new AppError('VALIDATION_ERROR', `documents: must contain at most ${ctx.batchLimit} items`);
          }
          const results = request.documents.map(({ id, text }, i): BatchItem => {
            try {
              return {
                id,
                keywords: extract(text, maxKeywords, profile, 'auto', `documents[${i}].text`).keywords,
              };
            } catch (err) {
              if (!(err instanceof AppError) || err.code !== 'VALIDATION_ERROR') throw err;
              return { id, keywords: [], error: { code: 'VALIDATION_ERROR', message: err.message } };
            }
          });
          return { results };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/keywords/extract',
        operationId: 'keywordsExtract',
        summary: 'Extract keywords from a text in a given or detected language',
        description:
          'Returns up to maxKeywords keywords, best first, and the language used. `language` is an ISO ' +
          '639-1 code with a stop-word list, or "auto" (the default): detected by script, then by ' +
          `stop-word overlap, English when nothing decides. Profile GENERAL. ${METHOD}`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('keyword-extractor/v1-extract-request.json'),
          response: { 200: apiSchema('keyword-extractor/v1-extract-response.json') },
        },
        async handler({ body }): Promise<KeywordsExtraction> {
          const request = body as V1ExtractRequest;
          const { maxKeywords } = options(request);
          const requested = request.language ?? 'auto';
          if (requested !== 'auto' && !languages.includes(requested)) {
            throw new AppError(
              'VALIDATION_ERROR',
              `language: must be one of [auto, ${languages.join(', ')}]`,
            );
          }
          const { keywords, language } = extract(request.text, maxKeywords, 'GENERAL', requested);
          return { keywords, language };
        },
      },
    ],
  };
}
