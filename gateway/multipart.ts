import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../core/errors/catalogue.js';
import type { MultipartBody, UploadedFile } from '../core/service/definition.js';

/** The part that carries the upload (OpenAPI: the binary `file` field). */
export const FILE_FIELD = 'file';

/** Bounds of every multipart request, whatever the route: one file and a few short text fields. */
export const MULTIPART_LIMITS = Object.freeze({
  files: 1,
  fileSize: 10 * 1024 * 1024,
  fields: 20,
  fieldSize: 8 * 1024,
  fieldNameSize: 100,
  parts: 21,
  headerPairs: 100,
});

/** What a form may add around its file: the text fields, part headers and boundaries. */
const FORM_OVERHEAD_BYTES = MULTIPART_LIMITS.fields * MULTIPART_LIMITS.fieldSize + 64 * 1024;

const tooLarge = (maxFileBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `${FILE_FIELD}: must be at most ${maxFileBytes} bytes`);

/** Registered only in the scope of the upload routes: every other route keeps refusing non-JSON bodies. */
export async function registerMultipart(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyMultipart, { limits: { ...MULTIPART_LIMITS }, throwFileSizeLimit: true });
}

/**
 * Reads the whole form of an upload route: the file of the `file` part (at most `maxFileBytes`) and the text
 * fields. Every part is consumed to its end even when one is refused, so the request stream never stalls.
 */
export async function readMultipart(request: FastifyRequest, maxFileBytes: number): Promise<MultipartBody> {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_ERROR', 'Content-Type: must be multipart/form-data');
  }
  // A declared length far over the bound is refused before a byte of the body is read.
  if (Number(request.headers['content-length']) > maxFileBytes + FORM_OVERHEAD_BYTES)
    throw tooLarge(maxFileBytes);
  let file: UploadedFile | undefined;
  let refusal: AppError | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileBytes } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === FILE_FIELD) {
          file = { filename: part.filename ?? '', mimeType: part.mimetype, bytes };
        } else {
          refusal ??= new AppError('VALIDATION_ERROR', `${part.fieldname}: is not a known field`);
        }
      } else if (part.valueTruncated) {
        refusal ??= new AppError(
          'PAYLOAD_TOO_LARGE',
          `${part.fieldname}: must be at most ${MULTIPART_LIMITS.fieldSize} bytes`,
        );
      } else {
        // A part sent as application/json arrives parsed; it is handed on re-serialized, as text like the rest.
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      }
    }
  } catch (err) {
    throw multipartError(err, maxFileBytes);
  }
  if (refusal) throw refusal;
  if (!file) throw new AppError('VALIDATION_ERROR', `${FILE_FIELD}: must not be blank`);
  return { file, fields };
}

/** The plugin's and busboy's errors in the catalogue's words; any other parse failure is the client's body. */
function multipartError(err: unknown, maxFileBytes: number): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxFileBytes);
    case 'FST_FILES_LIMIT':
      return new AppError('VALIDATION_ERROR', `${FILE_FIELD}: must be a single file`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        `body: must have at most ${MULTIPART_LIMITS.fields} fields besides the file`,
      );
    default:
      return new AppError('VALIDATION_ERROR', 'body: must be valid multipart/form-data');
  }
}
