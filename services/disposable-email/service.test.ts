import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { MemoryKvStore } from '../../core/kv/memory-kv.js';
import type { CallContext, RouteDefinition } from '../../core/service/definition.js';
import { routeOf, testCallContext } from '../../core/service/testing.js';
import { createDisposableEmailService } from './service.js';
import { REASONS } from './verdict.js';

const service = createDisposableEmailService({ kv: new MemoryKvStore(), dnsServers: ['127.0.0.1:9'] });
const ctx: CallContext = testCallContext();
const route = (operationId: string): RouteDefinition => routeOf(service, operationId);
const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

const DIR = new URL('../../schemas/api/disposable-email/', import.meta.url);
const raw = (name: string) =>
  JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as Record<string, unknown> & {
    required: string[];
    properties: Record<string, Record<string, unknown>>;
    examples?: unknown[];
  };

describe('the service definition', () => {
  it('declares the routes of SPEC.md 4.2–4.4 and the override routes, each once', () => {
    expect(service.slug).toBe('disposable-email');
    expect(
      service.routes.map((r) => [r.method, r.path, r.operationId, r.convention, r.alsoConvention ?? null]),
    ).toEqual([
      ['GET', '/api/disposable-email/check', 'disposableEmailCheck', 'S', null],
      ['POST', '/api/v1/check', 'disposableEmailCheckAddress', 'D', 'R'],
      ['POST', '/api/v1/check/batch', 'disposableEmailCheckBatch', 'D', 'R'],
      ['GET', '/api/v1/domains/{domain}', 'disposableEmailDomainStatus', 'D', 'R'],
      ['POST', '/api/v1/domains/overrides', 'disposableEmailOverrideSet', 'D', null],
      ['DELETE', '/api/v1/domains/overrides/{domain}', 'disposableEmailOverrideDelete', 'D', null],
    ]);
    for (const r of service.routes) expect([r.auth, r.metered], r.operationId).toEqual(['apiKey', true]);
    expect(route('disposableEmailCheckBatch').batch).toEqual({ field: 'emails', max: 100 });
    expect(route('disposableEmailOverrideSet').status).toBe(201);
    expect(route('disposableEmailOverrideDelete').status).toBe(204);
  });

  it('picks its operations on the shared paths by the body: email and emails, nothing else', () => {
    const check = route('disposableEmailCheckAddress').match!;
    const batch = route('disposableEmailCheckBatch').match!;
    expect(check({ email: 'a@b.com' }, {})).toBe(true);
    expect(batch({ emails: ['a@b.com'] }, {})).toBe(true);
    for (const body of [{ ipAddress: '8.8.8.8' }, {}, null, 'email', ['email'], { emails: [] }])
      expect(check(body, {}), JSON.stringify(body)).toBe(false);
    for (const body of [{ email: 'a@b.com' }, {}, null, { ipAddresses: [] }])
      expect(batch(body, {}), JSON.stringify(body)).toBe(false);
  });

  it('response schemas name and require every SPEC field, D’s and R’s together', () => {
    const fields = (name: string) => raw(name).required.sort();
    expect(fields('check-s-response.json')).toEqual(['disposable', 'email', 'provider']);
    expect(fields('check-response.json')).toEqual(
      [
        ...['email', 'domain', 'disposable', 'confidence', 'detectionLayers', 'reason'],
        ...['score', 'reasons', 'checkedAt'],
      ].sort(),
    );
    expect((raw('check-response.json').properties.detectionLayers!.required as string[]).sort()).toEqual([
      'dnsCheck',
      'patternMatch',
      'staticList',
    ]);
    expect(raw('check-response.json').properties.confidence!.enum).toEqual(['HIGH', 'MEDIUM', 'LOW']);
    expect(raw('check-response.json').properties.reasons!.items).toMatchObject({ enum: [...REASONS] });
    const batch = raw('check-batch-response.json');
    expect(batch.required.sort()).toEqual(['checkedAt', 'disposableCount', 'results', 'totalChecked']);
    expect(((batch.properties.results!.items as { required: string[] }).required as string[]).sort()).toEqual(
      ['confidence', 'disposable', 'email', 'score'],
    );
    expect(fields('domain-response.json')).toEqual(
      ['addedDate', 'checkedAt', 'disposable', 'domain', 'lists', 'matchedDomain', 'source'].sort(),
    );
  });

  it('every schema compiles; request schemas refuse unknown fields; every example is valid', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(10);
    for (const file of files) {
      const schema = raw(file);
      const validate = ajv.compile(schema);
      if (/request|query|params/.test(file)) expect(schema.additionalProperties, file).toBe(false);
      for (const example of schema.examples ?? []) expect(validate(example), `${file}: example`).toBe(true);
    }
  });
});

describe('handlers: input refused before any lookup', () => {
  it('S and D: malformed addresses → `email: must be a well-formed email address`', async () => {
    for (const email of ['nope', 'a@b', 'a b@c.com', 'a@[192.0.2.1]']) {
      expect(
        await errorOf(
          route('disposableEmailCheck').handler(
            { params: {}, query: { email }, body: undefined, headers: {} },
            ctx,
          ),
        ),
      ).toEqual({ code: 'VALIDATION_ERROR', message: 'email: must be a well-formed email address' });
      expect(
        await errorOf(
          route('disposableEmailCheckAddress').handler(
            { params: {}, query: {}, body: { email }, headers: {} },
            ctx,
          ),
        ),
      ).toEqual({ code: 'VALIDATION_ERROR', message: 'email: must be a well-formed email address' });
    }
  });

  it('batch: more items than ctx.batchLimit → 400 with the limit', async () => {
    const body = { emails: Array.from({ length: 11 }, (_, i) => `u${i}@example.com`) };
    expect(
      await errorOf(
        route('disposableEmailCheckBatch').handler({ params: {}, query: {}, body, headers: {} }, ctx),
      ),
    ).toEqual({ code: 'VALIDATION_ERROR', message: 'emails: must contain at most 10 items' });
  });

  it('domains and overrides: `domain: must be a valid domain name`', async () => {
    const bad = { code: 'VALIDATION_ERROR', message: 'domain: must be a valid domain name' };
    const withParams = (id: string, domain: string) =>
      route(id).handler({ params: { domain }, query: {}, body: undefined, headers: {} }, ctx);
    expect(await errorOf(withParams('disposableEmailDomainStatus', 'not_a_domain'))).toEqual(bad);
    expect(await errorOf(withParams('disposableEmailOverrideDelete', '1.2.3.4'))).toEqual(bad);
    expect(
      await errorOf(
        route('disposableEmailOverrideSet').handler(
          { params: {}, query: {}, body: { domain: 'localhost', action: 'DENY' }, headers: {} },
          ctx,
        ),
      ),
    ).toEqual(bad);
  });
});
