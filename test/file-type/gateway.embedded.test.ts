/**
 * file-type through the real gateway of an embedded platform: the S detect call, uploads as real multipart
 * requests, the batch and its plan bounds, request validation and its messages, each convention's error body,
 * credentials and scopes, metering, and the generated OpenAPI document.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPlatform, type TestPlatform } from '../support/platform.js';
import * as f from './fixtures.js';
import { fileTypeApp, multipart } from './gateway-app.js';

const DETECT = '/api/file-type/detect';
const UPLOAD = '/api/v1/file-types/classify/upload';
const REFERENCE = '/api/v1/file-types/classify/reference';
const BATCH = '/api/v1/file-types/classify/batch';

const TINY = { perMinute: 2, perDay: 1_000, perMonth: 1_000, batchSize: 10 };
let tp: TestPlatform;
let app: FastifyInstance;
let freeKey: string;
let basicKey: string;
let meterKey: string;
let meterToken: string;
let otherScopeKey: string;
let tinyKey: string;

beforeAll(async () => {
  // The plans' batch sizes as shipped; rate windows wide enough for the many calls of this file.
  const wide = { perMinute: 100_000, perDay: 1_000_000, perMonth: 1_000_000 };
  tp = await openTestPlatform({ plans: { FREE: wide, BASIC: wide, PRO: wide, TINY } });
  app = await fileTypeApp(tp);
  const [free, basic, meter, tiny] = await Promise.all([
    tp.createAccount(),
    tp.createAccount({ plan: 'BASIC' }),
    tp.createAccount({ plan: 'PRO' }),
    tp.createAccount({ plan: 'TINY' }),
  ]);
  const keyOf = async (token: string, scope = 'file-type') =>
    (await tp.createApiKey(token, { scopes: [scope] })).key;
  [freeKey, basicKey, meterKey, otherScopeKey, tinyKey] = await Promise.all([
    keyOf(free.token),
    keyOf(basic.token),
    keyOf(meter.token),
    keyOf(free.token, 'readability'),
    keyOf(tiny.token),
  ]);
  meterToken = meter.token;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await tp?.close();
});

const post = (url: string, payload: unknown, key = freeKey) =>
  app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload: payload as object });

const upload = async (file: Buffer, filename: string, type?: string, key = freeKey) => {
  const body = await multipart(file, filename, type);
  return app.inject({
    method: 'POST',
    url: UPLOAD,
    headers: { ...body.headers, 'x-api-key': key },
    payload: body.payload,
  });
};

const b64 = (b: Buffer) => b.toString('base64');

function expectS(res: LightMyRequestResponse, status: number, code: string, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ status: 'ERROR', error: { code, message: message ?? expect.any(String) } });
}

function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  path: string,
  detail?: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
  expect(body).toMatchObject({
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    status,
    instance: path,
  });
  if (detail !== undefined) expect(body.detail).toBe(detail);
}

const CLASSIFICATION_KEYS = [
  'category',
  'confidence',
  'declaredExtension',
  'declaredMimeType',
  'description',
  'extension',
  'filename',
  'magicBytes',
  'magicBytesMatch',
  'mimeType',
  'mismatches',
  'risks',
  'safe',
];

describe('S POST /api/file-type/detect', () => {
  it('answers the SPEC fields in the envelope, with category and the safety verdict', async () => {
    const res = await post(DETECT, { content: b64(f.png().subarray(0, 256)) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'OK',
      data: {
        detectedType: 'image/png',
        extension: 'png',
        confidence: 1,
        magicBytes: '89504E470D0A1A0A',
        description: 'PNG image',
        category: 'IMAGE',
        safe: true,
        risks: [],
      },
    });
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('detects the generated files from their first 256 bytes', async () => {
    const cases: [Buffer, string, string][] = [
      [f.jpeg(), 'image/jpeg', 'jpg'],
      [f.gif(), 'image/gif', 'gif'],
      [f.pdf(), 'application/pdf', 'pdf'],
      [f.zip([{ name: 'a.txt', data: 'a' }]), 'application/zip', 'zip'],
      [f.elf(), 'application/x-elf', 'elf'],
      [f.gzip(), 'application/gzip', 'gz'],
      [f.wasm(), 'application/wasm', 'wasm'],
      [f.sqlite(), 'application/x-sqlite3', 'sqlite'],
    ];
    for (const [bytes, detectedType, extension] of cases) {
      const res = await post(DETECT, { content: b64(bytes.subarray(0, 256)) }, basicKey);
      expect(res.json().data, extension).toMatchObject({ detectedType, extension, confidence: 1 });
    }
    const script = (await post(DETECT, { content: b64(f.text(f.SHELL)) })).json().data;
    expect(script).toMatchObject({
      detectedType: 'text/x-shellscript',
      confidence: 0.9,
      safe: false,
      risks: ['SCRIPT'],
    });
  });

  it.each([
    ['no content', {}, 'content: must not be blank'],
    ['an empty content', { content: '' }, 'content: must not be blank'],
    ['a number', { content: 7 }, 'content: must be a string'],
    ['an unknown field', { content: 'AAAA', filename: 'a.png' }, 'filename: is not a known field'],
    ['content that is not base64', { content: 'not base64!' }, 'content: must be valid base64'],
    [
      'content over 64 KiB decoded',
      { content: 'A'.repeat(87_385) },
      'content: must be at most 87384 characters',
    ],
  ])('refuses %s with 400 in the S error body', async (_what, body, message) => {
    expectS(await post(DETECT, body, basicKey), 400, 'VALIDATION_ERROR', message);
  });

  it('refuses a body over 128 KiB with 413', async () => {
    expectS(await post(DETECT, { content: 'A'.repeat(140_000) }, basicKey), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('R POST /api/v1/file-types/classify/upload (multipart)', () => {
  it('classifies a file under its own name: every field, safe', async () => {
    const res = await upload(f.png(), 'photo.png', 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(CLASSIFICATION_KEYS);
    expect(body).toEqual({
      filename: 'photo.png',
      mimeType: 'image/png',
      category: 'IMAGE',
      extension: 'png',
      magicBytesMatch: true,
      safe: true,
      confidence: 1,
      description: 'PNG image',
      magicBytes: '89504E470D0A1A0A',
      declaredExtension: 'png',
      declaredMimeType: 'image/png',
      mismatches: [],
      risks: [],
    });
  });

  it('reports disguised files: an executable named .pdf, a macro document named .docx, a GIFAR', async () => {
    expect((await upload(f.pe(), 'invoice.pdf', 'application/pdf')).json()).toMatchObject({
      extension: 'exe',
      category: 'EXECUTABLE',
      magicBytesMatch: false,
      mismatches: ['EXTENSION', 'MIME_TYPE'],
      safe: false,
      risks: ['EXECUTABLE'],
    });
    const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect((await upload(f.docm(), 'report.docx', docxType)).json()).toMatchObject({
      extension: 'docm',
      magicBytesMatch: false,
      safe: false,
      risks: ['MACRO_CAPABLE'],
    });
    expect((await upload(f.gifar(), 'cat.gif', 'image/gif')).json()).toMatchObject({
      extension: 'gif',
      magicBytesMatch: true,
      safe: false,
      risks: ['POLYGLOT'],
    });
    expect((await upload(f.pdfWithZip(), 'paper.pdf', 'application/pdf')).json()).toMatchObject({
      risks: ['POLYGLOT'],
    });
  });

  it('accepts a file of exactly 10 MiB and refuses one byte more with 413', async () => {
    const limit = 10 * 1024 * 1024;
    const big = Buffer.alloc(limit);
    f.png().copy(big);
    const ok = await upload(big, 'huge.png', 'image/png', basicKey);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ extension: 'png', safe: true });
    const over = await upload(Buffer.alloc(limit + 1), 'huge.bin', undefined, basicKey);
    expectProblem(over, 413, 'PAYLOAD_TOO_LARGE', UPLOAD, `file: must be at most ${limit} bytes`);
  });

  it('answers 400 problems for a missing, misnamed or empty file and for a JSON body', async () => {
    const misnamed = await multipart(f.png(), 'a.png', 'image/png', 'document');
    const res = await app.inject({
      method: 'POST',
      url: UPLOAD,
      headers: { ...misnamed.headers, 'x-api-key': basicKey },
      payload: misnamed.payload,
    });
    expectProblem(res, 400, 'VALIDATION_ERROR', UPLOAD, 'document: is not a known field');
    expectProblem(
      await upload(Buffer.alloc(0), 'empty.txt'),
      400,
      'VALIDATION_ERROR',
      UPLOAD,
      'file: must not be empty',
    );
    expectProblem(
      await post(UPLOAD, { content: b64(f.png()) }, basicKey),
      400,
      'VALIDATION_ERROR',
      UPLOAD,
      'Content-Type: must be multipart/form-data',
    );
  });
});

describe('R POST /api/v1/file-types/classify/batch', () => {
  it('answers one result per item in order, an undecodable item carrying its own error', async () => {
    const res = await post(BATCH, {
      items: [
        { content: b64(f.png()), filename: 'a.png', mimeType: 'image/png' },
        { content: 'not base64!', filename: 'broken.png' },
        { content: b64(f.elf()), filename: 'notes.txt' },
        { content: b64(f.text(f.CSV)) },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json();
    expect(results).toHaveLength(4);
    expect(Object.keys(results[0]).sort()).toEqual(['index', ...CLASSIFICATION_KEYS].sort());
    expect(results[0]).toMatchObject({
      index: 0,
      filename: 'a.png',
      extension: 'png',
      safe: true,
      magicBytesMatch: true,
    });
    expect(results[1]).toEqual({
      index: 1,
      filename: 'broken.png',
      error: { code: 'VALIDATION_ERROR', status: 400, message: 'items[1].content: must be valid base64' },
    });
    expect(results[2]).toMatchObject({
      index: 2,
      extension: 'elf',
      mismatches: ['EXTENSION'],
      risks: ['EXECUTABLE'],
    });
    expect(results[3]).toMatchObject({
      index: 3,
      filename: null,
      mimeType: 'text/csv',
      declaredExtension: null,
    });
  });

  it('bounds the items by the plan (FREE 10, BASIC 50) and by the route (100)', async () => {
    const items = (n: number) => Array.from({ length: n }, () => ({ content: b64(f.gif()) }));
    const tooMany = (n: number) => `items: must contain at most ${n} items`;
    expectProblem(await post(BATCH, { items: items(11) }), 400, 'VALIDATION_ERROR', BATCH, tooMany(10));
    const basic = await post(BATCH, { items: items(11) }, basicKey);
    expect(basic.statusCode, basic.body).toBe(200);
    expect(basic.json().results).toHaveLength(11);
    expectProblem(
      await post(BATCH, { items: items(101) }, meterKey),
      400,
      'VALIDATION_ERROR',
      BATCH,
      tooMany(100),
    );
  });

  it.each([
    ['no items', { items: [] }, 'items: must contain at least 1 item'],
    ['an item without content', { items: [{ filename: 'a' }] }, 'items[0].content: must not be blank'],
    [
      'an unknown item field',
      { items: [{ content: 'AAAA', size: 3 }] },
      'items[0].size: is not a known field',
    ],
    ['no items field', {}, 'items: must not be blank'],
  ])('refuses %s with a 400 problem', async (_what, body, detail) => {
    expectProblem(await post(BATCH, body, basicKey), 400, 'VALIDATION_ERROR', BATCH, detail);
  });
});

describe('credentials and scopes', () => {
  const routes: [string, string, 'S' | 'R'][] = [
    ['POST', DETECT, 'S'],
    ['POST', UPLOAD, 'R'],
    ['POST', REFERENCE, 'R'],
    ['POST', BATCH, 'R'],
  ];

  it.each(routes)(
    '%s %s: no key → 401, a key for another service → 403, in the route’s convention',
    async (_m, path, c) => {
      const none = await app.inject({ method: 'POST', url: path, payload: {} });
      const scoped = await app.inject({
        method: 'POST',
        url: path,
        headers: { 'x-api-key': otherScopeKey },
        payload: {},
      });
      if (c === 'S') {
        expectS(none, 401, 'UNAUTHORIZED');
        expectS(scoped, 403, 'INSUFFICIENT_SCOPE');
      } else {
        expectProblem(none, 401, 'UNAUTHORIZED', path);
        expectProblem(scoped, 403, 'INSUFFICIENT_SCOPE', path);
      }
    },
  );

  it('refuses an upload without a key before reading it, and rate-limits uploads like any call', async () => {
    const body = await multipart(Buffer.alloc(1024 * 1024), 'a.bin');
    const none = await app.inject({
      method: 'POST',
      url: UPLOAD,
      headers: body.headers,
      payload: body.payload,
    });
    expectProblem(none, 401, 'UNAUTHORIZED', UPLOAD);
    let res = await upload(f.png(), 'a.png', 'image/png', tinyKey);
    for (let i = 0; i < TINY.perMinute && res.statusCode !== 429; i++)
      res = await upload(f.png(), 'a.png', 'image/png', tinyKey);
    expectProblem(res, 429, 'RATE_LIMIT_EXCEEDED', UPLOAD);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('metering', () => {
  it('counts answered 2xx calls under the file-type slug; a batch is one call, a refusal none', async () => {
    const usage = async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/portal/usage',
        headers: { authorization: `Bearer ${meterToken}` },
      });
      return (res.json().data.breakdown['file-type'] as number | undefined) ?? 0;
    };
    const before = await usage();
    expect((await post(DETECT, { content: b64(f.gif()) }, meterKey)).statusCode).toBe(200);
    expect((await upload(f.gif(), 'a.gif', 'image/gif', meterKey)).statusCode).toBe(200);
    const items = [{ content: b64(f.gif()) }, { content: b64(f.png()) }, { content: '!' }];
    expect((await post(BATCH, { items }, meterKey)).statusCode).toBe(200);
    expect((await post(DETECT, { content: '!' }, meterKey)).statusCode).toBe(400);
    expect(await usage()).toBe(before + 3);
  });
});

describe('/openapi.json', () => {
  it('stays valid OpenAPI 3.1 and documents the upload as multipart/form-data with a binary file', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const op = doc.paths[UPLOAD].post;
    expect(op.operationId).toBe('fileTypesClassifyUpload');
    expect(op.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    for (const path of [DETECT, REFERENCE, BATCH]) {
      expect(
        doc.paths[path].post.requestBody.content['application/json'].schema.additionalProperties,
        path,
      ).toBe(false);
    }
  });
});
