import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import type { CallContext, RouteDefinition } from '../../core/service/definition.js';
import { apiSchema } from '../../core/service/schema-files.js';
import { routeOf, testCallContext } from '../../core/service/testing.js';
import { configuredServers, requestedTypes } from './lookups.js';
import { RECORD_TYPES } from './record-types.js';
import { createDnsCheckerService } from './service.js';

// No server listens on the discard port; nothing here gets as far as sending a query.
const service = createDnsCheckerService({ dnsServers: ['127.0.0.1:9'] });
const ctx: CallContext = testCallContext();
const route = (operationId: string): RouteDefinition => routeOf(service, operationId);
const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return `${e.code} ${e.message}`;
    throw e;
  }
  throw new Error('expected an AppError');
};

const DIR = new URL('../../schemas/api/dns-checker/', import.meta.url);
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const raw = (file: string) => JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Record<string, unknown>;

describe('the service definition', () => {
  it('declares the D and R routes of the issue, metered, behind an API key', () => {
    expect(service.slug).toBe('dns-checker');
    expect(
      service.routes.map((r) => [r.convention, r.method, r.path, r.operationId, r.auth, r.metered, r.batch]),
    ).toEqual([
      ['D', 'POST', '/api/v1/dns/check', 'dnsCheck', 'apiKey', true, undefined],
      ['D', 'POST', '/api/v1/dns/check-bulk', 'dnsCheckBulk', 'apiKey', true, { field: 'targets', max: 100 }],
      ['R', 'POST', '/api/v1/dns/lookup', 'dnsLookup', 'apiKey', true, undefined],
      [
        'R',
        'POST',
        '/api/v1/dns/lookup/batch',
        'dnsLookupBatch',
        'apiKey',
        true,
        { field: 'domains', max: 100 },
      ],
      ['R', 'GET', '/api/v1/dns/lookup/{domain}', 'dnsLookupAll', 'apiKey', true, undefined],
    ]);
  });

  it('uses the system’s resolvers when DNS_SERVERS is not set, and refuses a malformed one', () => {
    expect(configuredServers(undefined).length).toBeGreaterThan(0);
    expect(configuredServers([]).length).toBeGreaterThan(0);
    expect(configuredServers(['192.0.2.1:5353']).map((s) => s.label)).toEqual(['192.0.2.1:5353']);
    expect(() => createDnsCheckerService({ dnsServers: ['dns.example.com'] })).toThrow(/DNS server/);
  });
});

describe('the schemas', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);

  it.each(files)('%s compiles in strict mode and its examples are valid', (file) => {
    const schema = raw(file);
    const validate = ajv.compile(schema);
    const examples = (schema.examples ?? []) as unknown[];
    for (const example of examples) expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });

  it('every request refuses unknown fields', () => {
    for (const file of files.filter((f) => f.includes('request') || f.includes('params')))
      expect(raw(file).additionalProperties, file).toBe(false);
  });

  it('responses require the fields SPEC names: D check, and the R shapes decided in the README', () => {
    const required = (file: string) => (apiSchema(`dns-checker/${file}`).required ?? []) as string[];
    expect(required('check-response.json')).toEqual(
      expect.arrayContaining(['hostname', 'records', 'queryTimeMs', 'nameserver', 'status']),
    );
    expect(required('lookup-response.json')).toEqual(
      expect.arrayContaining(['domain', 'records', 'status', 'nameserver', 'queryTimeMs']),
    );
    expect(required('lookup-batch-response.json')).toEqual(['results']);
    const bulk = apiSchema('dns-checker/check-bulk-response.json') as {
      type: string;
      items: { required: string[] };
    };
    expect(bulk.type).toBe('array');
    expect(bulk.items.required).toEqual(
      expect.arrayContaining(['hostname', 'recordTypes', 'records', 'status']),
    );
  });

  it('all responses describe records the same way, one property per record type', () => {
    const recordsOf = (file: string): unknown => {
      const s = raw(file) as {
        properties?: Record<string, unknown>;
        items?: { properties: Record<string, unknown> };
      };
      if (s.items) return s.items.properties.records;
      const results = s.properties?.results as { items: { properties: Record<string, unknown> } } | undefined;
      return results ? results.items.properties.records : s.properties?.records;
    };
    const responses = files.filter((f) => f.includes('response'));
    expect(responses).toHaveLength(4);
    const first = recordsOf(responses[0]!) as { properties: Record<string, unknown> };
    expect(Object.keys(first.properties)).toEqual([...RECORD_TYPES]);
    for (const file of responses) expect(recordsOf(file), file).toEqual(first);
  });

  it('the MX record carries priority, SRV priority, weight and port, SOA its seven fields', () => {
    const records = (
      raw('check-response.json').properties as Record<
        string,
        { properties: Record<string, { items: { required: string[] } }> }
      >
    ).records!.properties;
    expect(records.MX!.items.required).toEqual(['value', 'ttl', 'priority']);
    expect(records.SRV!.items.required).toEqual(['value', 'ttl', 'priority', 'weight', 'port']);
    expect(records.SOA!.items.required).toEqual([
      'value',
      'ttl',
      'mname',
      'rname',
      'serial',
      'refresh',
      'retry',
      'expire',
      'minimum',
    ]);
    expect(records.TXT!.items.required).toEqual(['value', 'ttl', 'strings']);
  });
});

describe('input checks in the handlers (the same rules whoever calls them)', () => {
  const call = (operationId: string, input: { body?: unknown; params?: Record<string, string> }) =>
    route(operationId).handler({ params: input.params ?? {}, query: {}, body: input.body, headers: {} }, ctx);

  it('a hostname that is not a domain name → VALIDATION_ERROR naming the field', async () => {
    for (const hostname of ['127.0.0.1', 'exa mple.com', 'a..b', '::1', `${'a'.repeat(64)}.com`]) {
      expect(await errorOf(call('dnsCheck', { body: { hostname } }))).toBe(
        'VALIDATION_ERROR hostname: must be a valid domain name',
      );
    }
    expect(await errorOf(call('dnsLookup', { body: { domain: '10.0.0.1' } }))).toBe(
      'VALIDATION_ERROR domain: must be a valid domain name',
    );
    expect(await errorOf(call('dnsLookupAll', { params: { domain: 'http://x' } }))).toBe(
      'VALIDATION_ERROR domain: must be a valid domain name',
    );
  });

  it('an unknown record type → VALIDATION_ERROR with its index', async () => {
    expect(
      await errorOf(call('dnsCheck', { body: { hostname: 'example.com', recordTypes: ['A', 'PTR'] } })),
    ).toBe('VALIDATION_ERROR recordTypes[1]: must be one of [A, AAAA, MX, TXT, CNAME, NS, SOA, SRV]');
    expect(
      await errorOf(
        call('dnsCheckBulk', {
          body: { targets: [{ hostname: 'a.test' }, { hostname: 'b.test', recordTypes: ['ANY'] }] },
        }),
      ),
    ).toBe(
      'VALIDATION_ERROR targets[1].recordTypes[0]: must be one of [A, AAAA, MX, TXT, CNAME, NS, SOA, SRV]',
    );
  });

  it('requestedTypes: all eight when none is named, repeats dropped, in the canonical order', () => {
    expect(requestedTypes(undefined, 'recordTypes')).toEqual([...RECORD_TYPES]);
    expect(requestedTypes([], 'recordTypes')).toEqual([...RECORD_TYPES]);
    expect(requestedTypes(['SRV', 'A', 'SRV'], 'recordTypes')).toEqual(['A', 'SRV']);
  });
});
