import type { ExpectedVersion } from './event-store.js';

/** Optimistic-concurrency conflict: another writer moved the stream first. Command handlers retry. */
export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`stream ${streamId} is at version ${actual}, expected ${expected}`);
    this.name = 'ConcurrencyError';
  }
}

/** An event whose payload does not match its schema in schemas/events/. */
export class InvalidEventError extends Error {
  constructor(
    readonly eventType: string,
    readonly problems: readonly string[],
  ) {
    super(`event ${eventType} is invalid: ${problems.join('; ')}`);
    this.name = 'InvalidEventError';
  }
}

export function versionMatches(expected: ExpectedVersion, actual: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === 0;
  return expected === actual;
}
