import { AppError, type ErrorCode } from '../../core/errors/catalogue.js';
import type { OutboundClient } from '../../core/outbound/outbound.js';
import type { MultipartBody, ServiceDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { decodeBase64 } from './base64.js';
import type { Category, Risk } from './catalog.js';
import { type Classification, classify } from './classify.js';
import { declared } from './declared.js';
import { detect } from './detect.js';
import { fetchHead, REFERENCE_READ_BYTES } from './reference.js';

export interface FileTypeDeps {
  /** Fetches referenced files: the SSRF guard, time and byte caps. */
  readonly outbound: OutboundClient;
  /** The platform's clock, taken like every service's; no route of this one reads the time yet. */
  readonly now?: () => Date;
}

/** Bodies as the gateway hands them over: already validated against the request schemas. */
interface DetectRequest {
  readonly content: string;
}

interface ReferenceRequest {
  readonly url: string;
}

interface BatchRequest {
  readonly items: readonly {
    readonly content: string;
    readonly filename?: string;
    readonly mimeType?: string;
  }[];
}

/** S `data`: SPEC.md 4.2, with the category and the safety verdict of the R results. */
export interface DetectResult {
  readonly detectedType: string;
  readonly extension: string;
  readonly confidence: number;
  readonly magicBytes: string;
  readonly description: string;
  readonly category: Category;
  readonly safe: boolean;
  readonly risks: readonly Risk[];
}

export interface ReferenceResult extends Classification {
  readonly url: string;
  readonly finalUrl: string;
}

export interface ItemError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
}

/** One result of the batch, in request order: the classification, or why that item alone failed. */
export type BatchItem =
  | (Classification & { readonly index: number })
  | { readonly index: number; readonly filename: string | null; readonly error: ItemError };

/** Uploads are read whole, so that a ZIP appended at the end of an image or a PDF is seen. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** Items a batch may carry at most, whatever the plan allows (FREE 10, BASIC 50, PRO 100). */
export const BATCH_MAX = 100;

const RULES =
  'Binary formats are recognized by their signature (the file-type package: images, documents, archives, ' +
  'executables, audio, video, fonts, databases), with confidence 1.0 (0.8 for weak signatures such as MPEG ' +
  'audio frames); text by heuristics at lower confidence: a #! line (scripts, 0.9), XML/SVG/XHTML/HTML markup ' +
  '(0.5-1.0), JSON (0.9 complete, 0.7 cut short, 0.8 JSON Lines), CSV/TSV (0.6-0.7), plain text (0.5). ' +
  '`safe` is false for executables, scripts, macro-capable Office files (macro-enabled OOXML, a vbaProject.bin ' +
  'member, legacy compound files), polyglots (a ZIP inside or after another format, HTML in an image, a PDF ' +
  'header inside another file, GIF89a/*), active content (script in HTML/SVG/XML, JavaScript or launch actions ' +
  'in a PDF) and names or Content-Types that declare an executable or a script; `risks` says which.';

const MISMATCH_RULES =
  'magicBytesMatch is false when the content contradicts the declared file name extension or Content-Type ' +
  '(`mismatches` says which); generic declarations (application/octet-stream, .bin) claim nothing.';

function itemError(err: unknown): ItemError {
  const e = err instanceof AppError ? err : new AppError('INTERNAL_ERROR');
  return { code: e.code, status: e.status, message: e.message };
}

export function createFileTypeService(deps: FileTypeDeps): ServiceDefinition {
  const { outbound } = deps;
  return {
    slug: 'file-type',
    title: 'File type detection',
    description:
      'The real type of a file from its bytes (magic numbers and text heuristics), its category, whether it ' +
      'matches its declared name and Content-Type, and whether it is safe to accept.',
    routes: [
      {
        convention: 'S',
        method: 'POST',
        path: '/api/file-type/detect',
        operationId: 'fileTypeDetect',
        summary: 'Detect the type of a file from its first bytes',
        description:
          'Takes the first bytes of a file as base64 (256 bytes suffice for binary formats; up to 64 KiB ' +
          `are used, which helps the text heuristics and the risk checks). ${RULES}`,
        auth: 'apiKey',
        metered: true,
        bodyLimit: 128 * 1024,
        schemas: {
          body: apiSchema('file-type/detect-request.json'),
          response: { 200: apiSchema('file-type/detect-response.json') },
        },
        async handler({ body }): Promise<DetectResult> {
          const d = await detect(decodeBase64((body as DetectRequest).content, 'content'));
          return {
            detectedType: d.mimeType,
            extension: d.extension,
            confidence: d.confidence,
            magicBytes: d.magicBytes,
            description: d.description,
            category: d.category,
            safe: d.risks.length === 0,
            risks: d.risks,
          };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/file-types/classify/upload',
        operationId: 'fileTypesClassifyUpload',
        summary: 'Classify an uploaded file',
        description:
          'multipart/form-data with the file in the `file` part (at most 10 MiB, read whole). The part’s file ' +
          `name and Content-Type are the declared type. ${RULES} ${MISMATCH_RULES}`,
        auth: 'apiKey',
        metered: true,
        multipart: { maxFileBytes: UPLOAD_MAX_BYTES },
        schemas: { response: { 200: apiSchema('file-type/classify-response.json') } },
        async handler({ body }): Promise<Classification> {
          const { file } = body as MultipartBody;
          if (file.bytes.length === 0) throw new AppError('VALIDATION_ERROR', 'file: must not be empty');
          return classify(await detect(file.bytes), declared(file.filename, file.mimeType));
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/file-types/classify/reference',
        operationId: 'fileTypesClassifyReference',
        summary: 'Classify a file by its URL, without uploading it',
        description:
          'The file is fetched with GET through the outbound guard (http and https only; private, loopback and ' +
          'other internal addresses give 403 SSRF_BLOCKED, on every redirect too) and only its first ' +
          `${REFERENCE_READ_BYTES / 1024} KiB are read. The declared type is the Content-Disposition file name ` +
          '(else the last path segment) and the Content-Type of the response. A file that cannot be fetched, ' +
          `answers other than 2xx or is empty gives 422 UNPROCESSABLE. ${RULES} ${MISMATCH_RULES}`,
        auth: 'apiKey',
        metered: true,
        schemas: {
          body: apiSchema('file-type/classify-reference-request.json'),
          response: { 200: apiSchema('file-type/classify-reference-response.json') },
        },
        async handler({ body }): Promise<ReferenceResult> {
          const { url } = body as ReferenceRequest;
          const head = await fetchHead(outbound, url);
          const result = classify(await detect(head.bytes), declared(head.filename, head.contentType));
          return { url, finalUrl: head.finalUrl, ...result };
        },
      },
      {
        convention: 'R',
        method: 'POST',
        path: '/api/v1/file-types/classify/batch',
        operationId: 'fileTypesClassifyBatch',
        summary: 'Classify several files sent as base64',
        description:
          `Up to the plan's batch size (at most ${BATCH_MAX}) items {content (base64, at most 64 KiB decoded), ` +
          'filename?, mimeType?}, at most 1 MiB in all; one result per item in request order, with its `index`: ' +
          'the classification, or {index, filename, error:{code, status, message}} for that item alone (content ' +
          `that is not base64). A batch counts as one call. ${RULES} ${MISMATCH_RULES}`,
        auth: 'apiKey',
        metered: true,
        batch: { field: 'items', max: BATCH_MAX },
        bodyLimit: 1024 * 1024,
        schemas: {
          body: apiSchema('file-type/classify-batch-request.json'),
          response: { 200: apiSchema('file-type/classify-batch-response.json') },
        },
        async handler({ body }): Promise<{ results: BatchItem[] }> {
          const results: BatchItem[] = [];
          for (const [index, item] of (body as BatchRequest).items.entries()) {
            const claim = declared(item.filename, item.mimeType);
            try {
              const bytes = decodeBase64(item.content, `items[${index}].content`);
              results.push({ index, ...classify(await detect(bytes), claim) });
            } catch (err) {
              results.push({ index, filename: claim.filename, error: itemError(err) });
            }
          }
          return { results };
        },
      },
    ],
  };
}
