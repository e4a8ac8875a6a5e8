import type { EventMetadata, StoredEvent } from '../events/envelope.js';
import { newId } from '../ids.js';

/** The REST convention a call came in through (DESIGN.md section 4). */
export type Convention = 'S' | 'R' | 'D';

/**
 * One metered call, answered. Its JSON Schema is schemas/events/calls/ServiceCalled.json (payload = every
 * field but eventId, which travels in the envelope). Calls never pass through the event store: the gateway
 * hands them to a MeteringSink, and consumers dedupe by eventId.
 */
export interface ServiceCall {
  /** UUIDv7, made by the gateway once per call, so a retried record() or a redelivery is recognised. */
  readonly eventId: string;
  readonly accountId: string;
  readonly keyId: string;
  /** Service slug (DESIGN.md section 8). */
  readonly slug: string;
  readonly operationId: string;
  readonly convention: Convention;
  /** HTTP status the caller got. */
  readonly status: number;
  readonly latencyMs: number;
  /** When the call was answered: ISO-8601 UTC with milliseconds, as `Date#toISOString` writes it. */
  readonly at: string;
}

/** The payload of a `ServiceCalled` event. */
export type ServiceCalledData = Omit<ServiceCall, 'eventId'>;

export const SERVICE_CALLED = 'ServiceCalled';
/** Stream category `call`, which core/bus/topics.ts maps to the `calls` context (topic). */
export const CALL_CATEGORY = 'call';
export const CALLS_CONTEXT = 'calls';

export class InvalidServiceCallError extends Error {
  override readonly name = 'InvalidServiceCallError';
}

/** A call with a fresh eventId; `at` defaults to now. */
export function newServiceCall(
  fields: Omit<ServiceCall, 'eventId' | 'at'> & { at?: Date | string },
): ServiceCall {
  const { at, ...rest } = fields;
  const iso = at === undefined ? new Date().toISOString() : typeof at === 'string' ? at : at.toISOString();
  return { eventId: newId(), ...rest, at: iso };
}

/** The quota and the usage figures count calls answered 2xx (DESIGN.md section 7, Counting). */
export const isCounted = (status: number): boolean => status >= 200 && status <= 299;

/** Calendar month (UTC) of an ISO instant or a Date: `YYYY-MM`. */
export function periodOf(at: string | Date): string {
  return isoOf(at).slice(0, 7);
}

/** Calendar day (UTC): `YYYY-MM-DD`. */
export function dayOf(at: string | Date): string {
  return isoOf(at).slice(0, 10);
}

function isoOf(at: string | Date): string {
  return typeof at === 'string' ? at : at.toISOString();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Kept in step with ServiceCalled.json (a unit test feeds the same samples to both): these values end up in
// Redis keys, stream ids and SQL rows, so they are checked before a call is accepted rather than downstream.
const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const SLUG = /^[a-z][a-z0-9-]{0,63}$/;
const OPERATION_ID = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;
const CONVENTIONS: ReadonlySet<string> = new Set(['S', 'R', 'D']);

/** The problems of a would-be call, empty when it is valid. */
export function serviceCallProblems(call: unknown): string[] {
  if (typeof call !== 'object' || call === null) return ['not an object'];
  const c = call as Record<string, unknown>;
  const problems: string[] = [];
  const text = (name: string, pattern: RegExp) => {
    const v = c[name];
    if (typeof v !== 'string' || !pattern.test(v)) problems.push(`${name}: invalid`);
  };
  text('eventId', UUID);
  text('accountId', UUID);
  text('keyId', KEY_ID);
  text('slug', SLUG);
  text('operationId', OPERATION_ID);
  if (typeof c.convention !== 'string' || !CONVENTIONS.has(c.convention))
    problems.push('convention: invalid');
  if (!Number.isInteger(c.status) || (c.status as number) < 100 || (c.status as number) > 599) {
    problems.push('status: invalid');
  }
  if (typeof c.latencyMs !== 'number' || !Number.isFinite(c.latencyMs) || c.latencyMs < 0) {
    problems.push('latencyMs: invalid');
  }
  // The canonical form only: period and day are cut out of the string, so `+02:00` offsets must not get in.
  if (typeof c.at !== 'string' || !isCanonicalIso(c.at)) problems.push('at: invalid');
  return problems;
}

export function checkServiceCall(call: ServiceCall): void {
  const problems = serviceCallProblems(call);
  if (problems.length > 0) throw new InvalidServiceCallError(`invalid service call: ${problems.join(', ')}`);
}

function isCanonicalIso(at: string): boolean {
  if (at.length !== 24) return false;
  const t = Date.parse(at);
  return Number.isFinite(t) && new Date(t).toISOString() === at;
}

/** The bus envelope of a call. globalPosition and streamVersion are 0: no store numbers calls. */
export function toEvent(call: ServiceCall, metadata: EventMetadata = {}): StoredEvent<ServiceCalledData> {
  // Field by field: a caller's object may carry more than a ServiceCall, and the payload schema is closed.
  return {
    eventId: call.eventId,
    type: SERVICE_CALLED,
    streamId: `${CALL_CATEGORY}-${call.accountId}`,
    streamVersion: 0,
    globalPosition: 0,
    occurredAt: call.at,
    accountId: call.accountId,
    data: {
      accountId: call.accountId,
      keyId: call.keyId,
      slug: call.slug,
      operationId: call.operationId,
      convention: call.convention,
      status: call.status,
      latencyMs: call.latencyMs,
      at: call.at,
    },
    metadata,
  };
}

/**
 * The call an event carries; null for another event type. Throws InvalidServiceCallError for a ServiceCalled
 * event whose payload is not a valid call, so that the consumer decides how to skip it.
 */
export function fromEvent(event: StoredEvent): ServiceCall | null {
  if (event.type !== SERVICE_CALLED) return null;
  const d = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Record<
    string,
    unknown
  >;
  const call = {
    eventId: event.eventId,
    accountId: d.accountId,
    keyId: d.keyId,
    slug: d.slug,
    operationId: d.operationId,
    convention: d.convention,
    status: d.status,
    latencyMs: d.latencyMs,
    at: d.at,
  };
  const problems = serviceCallProblems(call);
  if (problems.length > 0) {
    throw new InvalidServiceCallError(
      `event ${event.eventId}: invalid ServiceCalled: ${problems.join(', ')}`,
    );
  }
  return call as ServiceCall;
}
