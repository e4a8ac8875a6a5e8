import { AppError } from '../../core/errors/catalogue.js';
import type { ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { measureText, type ReadabilityReport, readabilityReport } from './analysis.js';
import { loadSyllableCounter } from './dictionary.js';
import type { GradeLevel } from './formulas.js';

/**
 * Languages whose formulas and syllable source exist; the R request schema's `language` enum lists the same.
 */
export const SUPPORTED_LANGUAGES = ['en'] as const;

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface ScoreRequest {
  readonly text: string;
}

interface AnalyzeRequest {
  readonly text: string;
  readonly language?: string;
}

/** S `data`: SPEC.md 4.2. */
export interface ReadabilityScore {
  readonly fleschKincaid: number;
  readonly fleschReadingEase: number;
  readonly gradeLevel: GradeLevel;
  readonly wordCount: number;
  readonly sentenceCount: number;
}

/** R body: SPEC.md 4.4. */
export interface ReadabilityAnalysis {
  readonly fleschKincaidGrade: number;
  readonly fleschReadingEase: number;
  readonly gunningFog: number;
  readonly colemanLiau: number;
  readonly smogGrade: number;
  readonly ari: number;
  readonly wordCount: number;
  readonly sentenceCount: number;
  readonly avgWordsPerSentence: number;
}

/**
 * The schema refuses "" and non-strings; text that is only white space, or has no word at all ("!!!", emoji),
 * has nothing to score and is refused here with the same code.
 */
async function assess(text: string): Promise<ReadabilityReport> {
  if (text.trim() === '') throw new AppError('VALIDATION_ERROR', 'text: must not be blank');
  const stats = measureText(text, await loadSyllableCounter());
  if (stats.words === 0) throw new AppError('VALIDATION_ERROR', 'text: must contain at least one word');
  return readabilityReport(stats);
}

/** The schema's enum already refuses other values; this keeps the handler correct for any caller. */
function checkLanguage(language: string): void {
  if (!(SUPPORTED_LANGUAGES as readonly string[]).includes(language)) {
    throw new AppError('VALIDATION_ERROR', `language: must be one of [${SUPPORTED_LANGUAGES.join(', ')}]`);
  }
}

const TEXT_RULES =
  'Words are runs of letters and digits; a hyphenated word, a contraction or a figure counts as one. ' +
  'Sentences end at . ! ? and … (not after abbreviations such as "Dr." or "e.g.", nor inside 3.14), ' +
  'at blank lines and at list items. Syllables come from the CMU Pronouncing Dictionary, with English ' +
  'spelling rules for words it lacks; figures are counted as spoken. Scores are rounded to two decimals ' +
  'and are not clamped.';

export const readabilityService: ServiceDefinition = {
  slug: 'readability',
  title: 'Readability',
  description:
    'Readability scores for English text: Flesch reading ease, Flesch–Kincaid grade, Gunning fog, ' +
    'Coleman–Liau, SMOG and the automated readability index, with word and sentence counts.',
  routes: [
    {
      convention: 'S',
      method: 'POST',
      path: '/api/readability/score',
      operationId: 'readabilityScore',
      summary: 'Score English text with the Flesch formulas',
      description:
        'Returns the Flesch–Kincaid grade, the Flesch reading ease, a school-level label for the grade ' +
        '("5th grade" … "Professional"), and the word and sentence counts. ' +
        TEXT_RULES,
      auth: 'apiKey',
      metered: true,
      schemas: {
        body: apiSchema('readability/score-request.json'),
        response: { 200: apiSchema('readability/score-response.json') },
      },
      async handler({ body }): Promise<ReadabilityScore> {
        const report = await assess((body as ScoreRequest).text);
        return {
          fleschKincaid: report.fleschKincaidGrade,
          fleschReadingEase: report.fleschReadingEase,
          gradeLevel: report.gradeLevel,
          wordCount: report.wordCount,
          sentenceCount: report.sentenceCount,
        };
      },
    },
    {
      convention: 'R',
      method: 'POST',
      path: '/api/v1/readability/analyze',
      operationId: 'readabilityAnalyze',
      summary: 'Analyze English text with six readability formulas',
      description:
        'Returns the Flesch–Kincaid grade, Flesch reading ease, Gunning fog index, Coleman–Liau index, ' +
        'SMOG grade and automated readability index of the text, with its word count, sentence count and ' +
        'average sentence length. `language` defaults to "en", the only language supported. ' +
        TEXT_RULES,
      auth: 'apiKey',
      metered: true,
      schemas: {
        body: apiSchema('readability/analyze-request.json'),
        response: { 200: apiSchema('readability/analyze-response.json') },
      },
      async handler({ body }): Promise<ReadabilityAnalysis> {
        const { text, language = 'en' } = body as AnalyzeRequest;
        checkLanguage(language);
        const report = await assess(text);
        return {
          fleschKincaidGrade: report.fleschKincaidGrade,
          fleschReadingEase: report.fleschReadingEase,
          gunningFog: report.gunningFog,
          colemanLiau: report.colemanLiau,
          smogGrade: report.smogGrade,
          ari: report.ari,
          wordCount: report.wordCount,
          sentenceCount: report.sentenceCount,
          avgWordsPerSentence: report.avgWordsPerSentence,
        };
      },
    },
  ],
};
