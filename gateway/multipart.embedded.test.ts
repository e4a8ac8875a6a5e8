/**
 * Uploads through the gateway (RouteDefinition.multipart): real multipart/form-data bodies, built by the
 * platform's FormData or by hand, through `inject` and once over a real socket.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config/config.js';
import type { MultipartBody, RouteDefinition, ServiceDefinition } from '../core/service/definition.js';
import { buildApp } from './app.js';
import { buildOpenApi } from './openapi.js';
import { groupRoutes } from './routes.js';

const UPLOAD = '/api/v1/upload';
const JSON_ROUTE = '/api/v1/json';
const MAX = 1024;

const seen = {
  type: 'object',
  properties: {
    filename: { type: 'string' },
    mimeType: { type: 'string' },
    size: { type: 'integer' },
    sha256: { type: 'string' },
    fields: { type: 'object', additionalProperties: { type: 'string' } },
  },
};

const upload: RouteDefinition = {
  convention: 'R',
  method: 'POST',
  path: UPLOAD,
  operationId: 'demoUpload',
  summary: 'upload',
  auth: 'public',
  metered: false,
  multipart: { maxFileBytes: MAX },
  schemas: { response: { 200: seen } },
  async handler({ body }) {
    const { file, fields } = body as MultipartBody;
    return {
      filename: file.filename,
      mimeType: file.mimeType,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      fields,
    };
  },
};

const demo: ServiceDefinition = {
  slug: 'file-type',
  title: 'demo',
  description: 'demo',
  routes: [
    upload,
    {
      convention: 'R',
      method: 'POST',
      path: JSON_ROUTE,
      operationId: 'demoJson',
      summary: 'json',
      auth: 'public',
      metered: false,
      schemas: {
        body: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } },
      },
      handler: async () => ({ ok: true }),
    },
  ],
};

const config = loadConfig({}, { dotenv: false });
const build = (services: ServiceDefinition[] = [demo]) =>
  buildApp({ config, health: async () => ({ status: 'UP', components: {} }), services, logger: false });
let app: Awaited<ReturnType<typeof build>>;

beforeAll(async () => {
  app = await build();
  await app.ready();
});
afterAll(() => app.close());

/** A multipart body as a browser or `fetch` would send it. */
async function form(fill: (fd: FormData) => void): Promise<{ payload: Buffer; contentType: string }> {
  const fd = new FormData();
  fill(fd);
  const req = new Request('http://localhost/', { method: 'POST', body: fd });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type')! };
}

const send = (url: string, body: { payload: Buffer | string; contentType: string }) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': body.contentType }, payload: body.payload });

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function expectProblem(res: Awaited<ReturnType<typeof send>>, status: number, code: string, detail: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toMatchObject({
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    status,
    detail,
  });
}

describe('an upload route', () => {
  it('hands the handler the file part whole, its declared base name and type, and the fields', async () => {
    const bytes = Buffer.from(Array.from({ length: MAX }, (_, i) => i % 256));
    const res = await send(
      UPLOAD,
      await form((fd) => {
        fd.append('note', 'before the file');
        fd.append('file', new Blob([bytes], { type: 'image/png' }), 'C:\\photos\\cat.png');
        fd.append('after', 'after the file');
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      filename: 'cat.png',
      mimeType: 'image/png',
      size: MAX,
      sha256: sha(bytes),
      fields: { note: 'before the file', after: 'after the file' },
    });
  });

  it('reports a part without Content-Type as text/plain (RFC 7578) and keeps binary bytes intact', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x00]);
    const boundary = 'xYzBoundary42';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="raw.bin"\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await send(UPLOAD, { payload, contentType: `multipart/form-data; boundary=${boundary}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      filename: 'raw.bin',
      mimeType: 'text/plain',
      size: 7,
      sha256: sha(bytes),
    });
  });

  it('refuses a file over maxFileBytes with 413 PAYLOAD_TOO_LARGE', async () => {
    const tooLarge = `file: must be at most ${MAX} bytes`;
    const body = await form((fd) => fd.append('file', new Blob([Buffer.alloc(MAX + 1)]), 'big.bin'));
    expectProblem(await send(UPLOAD, body), 413, 'PAYLOAD_TOO_LARGE', tooLarge);
    // A Content-Length beyond the file bound and the form's overhead is refused unread (this body is no form).
    const unread = {
      payload: Buffer.alloc(MAX + 300 * 1024),
      contentType: 'multipart/form-data; boundary=b',
    };
    expectProblem(await send(UPLOAD, unread), 413, 'PAYLOAD_TOO_LARGE', tooLarge);
  });

  it('answers 400 when there is no file: fields only, an empty form, JSON, or no body at all', async () => {
    const blank = 'file: must not be blank';
    expectProblem(
      await send(UPLOAD, await form((fd) => fd.append('note', 'x'))),
      400,
      'VALIDATION_ERROR',
      blank,
    );
    expectProblem(await send(UPLOAD, await form(() => {})), 400, 'VALIDATION_ERROR', blank);
    const notMultipart = 'Content-Type: must be multipart/form-data';
    const json = await app.inject({ method: 'POST', url: UPLOAD, payload: { file: 'aGVsbG8=' } });
    expectProblem(json, 400, 'VALIDATION_ERROR', notMultipart);
    expectProblem(await app.inject({ method: 'POST', url: UPLOAD }), 400, 'VALIDATION_ERROR', notMultipart);
  });

  it('refuses a file under another name, a second file, and too many or too long fields', async () => {
    const other = await form((fd) => fd.append('upload', new Blob(['x']), 'a.txt'));
    expectProblem(await send(UPLOAD, other), 400, 'VALIDATION_ERROR', 'upload: is not a known field');
    const two = await form((fd) => {
      fd.append('file', new Blob(['a']), 'a.txt');
      fd.append('file', new Blob(['b']), 'b.txt');
    });
    expectProblem(await send(UPLOAD, two), 400, 'VALIDATION_ERROR', 'file: must be a single file');
    const many = await form((fd) => {
      for (let i = 0; i < 21; i++) fd.append(`f${i}`, 'v');
      fd.append('file', new Blob(['a']), 'a.txt');
    });
    expectProblem(
      await send(UPLOAD, many),
      413,
      'PAYLOAD_TOO_LARGE',
      'body: must have at most 20 fields besides the file',
    );
    const long = await form((fd) => {
      fd.append('note', 'n'.repeat(8 * 1024 + 1));
      fd.append('file', new Blob(['a']), 'a.txt');
    });
    expectProblem(await send(UPLOAD, long), 413, 'PAYLOAD_TOO_LARGE', 'note: must be at most 8192 bytes');
  });

  it('answers a malformed multipart body with 400, never 500', async () => {
    const cases: [string, string][] = [
      ['multipart/form-data', '--x\r\n\r\n'],
      [
        'multipart/form-data; boundary=abc',
        '--abc\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nunterminated',
      ],
      ['multipart/form-data; boundary=abc', 'no boundary anywhere'],
    ];
    for (const [contentType, payload] of cases) {
      const res = await send(UPLOAD, { payload, contentType });
      expect(res.statusCode, `${contentType} ${payload}: ${res.body}`).toBe(400);
      expect(res.json().type).toBe('/problems/validation-error');
    }
  });
});

describe('routes that are not uploads', () => {
  it('still refuse multipart bodies as not JSON', async () => {
    const body = await form((fd) => fd.append('file', new Blob(['a']), 'a.txt'));
    expectProblem(
      await send(JSON_ROUTE, body),
      400,
      'VALIDATION_ERROR',
      'Content-Type: must be application/json',
    );
    expect((await app.inject({ method: 'POST', url: JSON_ROUTE, payload: { a: 'x' } })).json()).toEqual({
      ok: true,
    });
  });
});

describe('declaration checks and documents', () => {
  it('refuses an upload with a body schema or a limit over 10 MiB', async () => {
    const withBody = { ...upload, schemas: { ...upload.schemas, body: { type: 'object' } } };
    const tooBig = { ...upload, multipart: { maxFileBytes: 10 * 1024 * 1024 + 1 } };
    for (const route of [withBody, tooBig]) {
      await expect(build([{ ...demo, routes: [route] }])).rejects.toThrow(/upload/);
    }
  });

  it('documents the upload as multipart/form-data with a binary file part, and 413', () => {
    const doc = buildOpenApi(groupRoutes([demo]), {
      title: 't',
      version: '1',
      description: 'd',
      serverUrl: 'http://x',
    });
    const op = (doc.paths as Record<string, Record<string, Record<string, unknown>>>)[UPLOAD]!.post!;
    expect(op.requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: {
                type: 'string',
                format: 'binary',
                contentMediaType: 'application/octet-stream',
                description: `The file, at most ${MAX} bytes.`,
              },
            },
          },
        },
      },
    });
    expect(op.responses).toHaveProperty('413');
  });
});

describe('over a real socket', () => {
  it('answers an oversize upload with 413, and keeps serving', async () => {
    const server = await build();
    await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = server.server.address() as AddressInfo;
      const big = new FormData();
      big.append('file', new Blob([Buffer.alloc(3 * 1024 * 1024, 0x41)]), 'big.bin');
      const url = `http://127.0.0.1:${port}${UPLOAD}`;
      // With a Content-Length: refused by it, before the body is read.
      const declared = await fetch(url, { method: 'POST', body: big });
      expect(declared.status).toBe(413);
      expect(((await declared.json()) as { detail: string }).detail).toBe(
        `file: must be at most ${MAX} bytes`,
      );
      // Chunked, without one: the part is read past the limit (and discarded), then refused.
      const { payload, contentType } = await form((fd) =>
        fd.append('file', new Blob([Buffer.alloc(3 << 20)]), 'b'),
      );
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < payload.length; at += 64 * 1024)
            controller.enqueue(payload.subarray(at, at + 65536));
          controller.close();
        },
      });
      const streamed = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: chunks,
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      const small = new FormData();
      small.append('file', new Blob(['ok']), 'ok.txt');
      const again = await fetch(`http://127.0.0.1:${port}${UPLOAD}`, { method: 'POST', body: small });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { size: number }).size).toBe(2);
    } finally {
      await server.close();
    }
  });
});
