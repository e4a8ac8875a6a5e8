import type { CallContext, RouteDefinition, ServiceDefinition } from './definition.js';

/**
 * What unit tests of a service's handlers share: a call context like the gateway's, and a route by operationId.
 * Handlers are pure with respect to HTTP, so these are all a test needs to call one directly.
 */
export function testCallContext(overrides: Partial<CallContext> = {}): CallContext {
  return {
    requestId: 'req-1',
    accountId: 'acc-1',
    keyId: 'key-1',
    roles: ['ROLE_USER'],
    plan: 'FREE',
    batchLimit: 10,
    ip: '127.0.0.1',
    now: () => new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}

/** The route of `service` with this operationId; throws when there is none, so a renamed route fails loudly. */
export function routeOf(service: ServiceDefinition, operationId: string): RouteDefinition {
  const found = service.routes.find((r) => r.operationId === operationId);
  if (!found) throw new Error(`no route ${operationId}`);
  return found;
}
