import type { IncomingMessage } from 'node:http';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  type ZlibOptions,
} from 'node:zlib';
import { OutboundError } from './outbound.js';

export interface BodyLimits {
  /** Bytes off the wire. */
  readonly maxBytes: number;
  /** Bytes after decoding. */
  readonly maxDecompressedBytes: number;
  /** Decoded bytes to keep; more is cut off with `truncated: true` instead of failing. */
  readonly readLimitBytes?: number;
}

/** Tolerates bodies cut short (servers that close early) instead of failing at the end of input. */
const ZLIB: ZlibOptions = { finishFlush: constants.Z_SYNC_FLUSH };

/** HTTP "deflate" is meant to be zlib-wrapped, but some servers send raw deflate: the first two bytes tell. */
function inflateEither(): Transform {
  let inner: Transform | null = null;
  const outer: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!inner) {
        const zlibHeader =
          chunk.length >= 2 && (chunk[0]! & 0x0f) === 8 && ((chunk[0]! << 8) | chunk[1]!) % 31 === 0;
        inner = zlibHeader ? createInflate(ZLIB) : createInflateRaw(ZLIB);
        inner.on('data', (d: Buffer) => outer.push(d));
        inner.on('error', (e) => outer.destroy(e));
      }
      inner.write(chunk, () => callback());
    },
    flush(callback) {
      if (!inner) return callback();
      inner.once('end', () => callback());
      inner.end();
    },
    destroy(err, callback) {
      inner?.destroy();
      callback(err);
    },
  });
  return outer;
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => createGunzip(ZLIB),
  'x-gzip': () => createGunzip(ZLIB),
  deflate: inflateEither,
  br: () => createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH }),
};

/** The decoders for a Content-Encoding, outermost first; none when any coding is unknown (body kept raw). */
export function decodersFor(contentEncoding: string | undefined): (() => Transform)[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (!codings.every((c) => c in DECODERS)) return [];
  return codings.reverse().map((c) => DECODERS[c]!);
}

const TRUNCATED = Symbol('truncated');

const tooLarge = (what: string, limit: number) =>
  new OutboundError('TOO_LARGE', `the response body exceeds ${limit} bytes${what}`);

/**
 * Reads a response body within its caps: wire bytes are counted before decoding and decoded bytes after, so a
 * zip bomb stops at `maxDecompressedBytes` having inflated no more than one chunk past it. Stopping early (cap or
 * `readLimitBytes`) destroys the response, which closes the connection.
 */
export async function readBody(
  res: IncomingMessage,
  limits: BodyLimits,
  signal?: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  const declared = Number(res.headers['content-length']);
  if (limits.readLimitBytes === undefined && Number.isFinite(declared) && declared > limits.maxBytes) {
    res.destroy();
    throw tooLarge('', limits.maxBytes);
  }
  let wire = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      wire += chunk.length;
      if (wire > limits.maxBytes) callback(tooLarge('', limits.maxBytes));
      else callback(null, chunk);
    },
  });
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const keep = limits.readLimitBytes;
      if (keep !== undefined && size + chunk.length > keep) {
        chunks.push(chunk.subarray(0, keep - size));
        size = keep;
        return callback(TRUNCATED as unknown as Error);
      }
      if (size + chunk.length > limits.maxDecompressedBytes) {
        return callback(tooLarge(' after decoding', limits.maxDecompressedBytes));
      }
      chunks.push(chunk);
      size += chunk.length;
      callback();
    },
  });
  const decoders = decodersFor(res.headers['content-encoding']).map((make) => make());
  try {
    await pipeline([res, counter, ...decoders, sink], signal ? { signal } : {});
    return { body: Buffer.concat(chunks), truncated: false };
  } catch (err) {
    if (err === TRUNCATED) return { body: Buffer.concat(chunks), truncated: true };
    res.destroy();
    if (signal?.aborted) throw signal.reason;
    if (err instanceof OutboundError) throw err;
    const code = String((err as { code?: string }).code ?? '');
    if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code === 'ERR__ERROR_FORMAT_PADDING_1') {
      throw new OutboundError('CONNECTION_FAILED', 'the response body could not be decoded');
    }
    throw new OutboundError('CONNECTION_FAILED', 'the connection closed before the response was complete');
  }
}
