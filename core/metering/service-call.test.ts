import { describe, expect, it } from 'vitest';
import { contextOfStream } from '../bus/topics.js';
import { EventSchemaRegistry } from '../events/schema-registry.js';
import {
  checkServiceCall,
  dayOf,
  fromEvent,
  InvalidServiceCallError,
  isCounted,
  newServiceCall,
  periodOf,
  type ServiceCall,
  serviceCallProblems,
  toEvent,
} from './service-call.js';

const call: ServiceCall = {
  eventId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  accountId: '0190a1b2-0000-7000-8000-000000000001',
  keyId: 'k0190a1b2',
  slug: 'ip-geolocation',
  operationId: 'lookupIp',
  convention: 'R',
  status: 200,
  latencyMs: 3.25,
  at: '2024-05-31T23:59:59.999Z',
};

describe('ServiceCall', () => {
  it('becomes a ServiceCalled event on the call-<accountId> stream of the calls context, unnumbered', () => {
    const event = toEvent({ ...call, extra: 'dropped' } as ServiceCall, { requestId: 'r1' });
    expect(event).toEqual({
      eventId: call.eventId,
      type: 'ServiceCalled',
      streamId: `call-${call.accountId}`,
      streamVersion: 0,
      globalPosition: 0,
      occurredAt: call.at,
      accountId: call.accountId,
      data: {
        accountId: call.accountId,
        keyId: call.keyId,
        slug: call.slug,
        operationId: call.operationId,
        convention: 'R',
        status: 200,
        latencyMs: 3.25,
        at: call.at,
      },
      metadata: { requestId: 'r1' },
    });
    expect(contextOfStream(event.streamId)).toBe('calls');
    expect(fromEvent(event)).toEqual(call);
  });

  it('has a payload that schemas/events/calls/ServiceCalled.json accepts', () => {
    const registry = EventSchemaRegistry.fromDirectory();
    expect(registry.types()).toContain('ServiceCalled');
    const event = toEvent(call);
    expect(() => registry.check({ type: event.type, data: event.data })).not.toThrow();
  });

  // The hand-written check guards the hot path; the schema is the published contract. They must agree.
  it.each([
    ['accountId', 'not-a-uuid'],
    ['keyId', 'has space'],
    ['keyId', ''],
    ['slug', 'IP-Geo'],
    ['slug', '__total'],
    ['operationId', '1abc'],
    ['convention', 'X'],
    ['status', 99],
    ['status', 600],
    ['status', 200.5],
    ['latencyMs', -1],
    ['at', '2024-05-31T23:59:59+02:00'],
    ['at', 'yesterday'],
  ])('refuses %s = %j, like the schema does', (field, value) => {
    const bad = { ...call, [field]: value };
    expect(serviceCallProblems(bad)).toEqual([`${field}: invalid`]);
    expect(() => checkServiceCall(bad as ServiceCall)).toThrow(InvalidServiceCallError);
    const registry = EventSchemaRegistry.fromDirectory();
    const { eventId: _id, ...data } = bad;
    if (field === 'at' && value === '2024-05-31T23:59:59+02:00') {
      // A valid RFC 3339 date-time the schema allows; the check insists on the UTC form periods are cut from.
      expect(() => registry.check({ type: 'ServiceCalled', data })).not.toThrow();
    } else {
      expect(() => registry.check({ type: 'ServiceCalled', data })).toThrow();
    }
  });

  it('refuses an invalid eventId, which the envelope carries', () => {
    expect(serviceCallProblems({ ...call, eventId: 'e1' })).toEqual(['eventId: invalid']);
  });

  it('reads nothing from other event types and throws for a malformed ServiceCalled', () => {
    expect(fromEvent({ ...toEvent(call), type: 'ApiKeyCreated' })).toBeNull();
    expect(() => fromEvent({ ...toEvent(call), data: { ...toEvent(call).data, status: 'ok' } })).toThrow(
      /status: invalid/,
    );
    expect(() => fromEvent({ ...toEvent(call), data: null })).toThrow(InvalidServiceCallError);
  });

  it('makes calls with a fresh UUIDv7 and a canonical UTC instant', () => {
    const { eventId: _e, at: _a, ...fields } = call;
    const a = newServiceCall(fields);
    const b = newServiceCall({ ...fields, at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) });
    expect(a.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.eventId).not.toBe(b.eventId);
    expect(serviceCallProblems(a)).toEqual([]);
    expect(b.at).toBe('2024-01-02T03:04:05.006Z');
  });

  it('counts 2xx only, and cuts UTC periods and days', () => {
    expect([199, 200, 204, 299, 300, 404, 429, 500].map(isCounted)).toEqual([
      false,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(periodOf('2024-05-31T23:59:59.999Z')).toBe('2024-05');
    expect(dayOf('2024-05-31T23:59:59.999Z')).toBe('2024-05-31');
    expect(periodOf(new Date('2024-06-01T00:30:00+02:00'))).toBe('2024-05');
  });
});
