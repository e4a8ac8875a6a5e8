import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../core/events/envelope.js';
import { type KeyDoc, nextKeyDoc, recordsOf } from '../../projections/apikeys/redis-key-lookup.js';

const keyId = 'AbCd1234EfGh5678';
const accountId = '0193a0e0-0000-7000-8000-000000000001';
const h = (c: string) => c.repeat(64);
let position = 0;
const event = (
  type: string,
  version: number,
  data: object,
  occurredAt = '2026-01-01T00:00:00.000Z',
): StoredEvent => ({
  eventId: `e${++position}`,
  type,
  streamId: `apikey-${keyId}`,
  streamVersion: version,
  globalPosition: position,
  occurredAt,
  accountId,
  data: { keyId, accountId, ...data },
  metadata: {},
});
const created = event('ApiKeyCreated', 1, {
  name: 'n',
  scopes: ['captcha'],
  keyHash: h('a'),
  start: 'tg_AbCd1234',
  expiresAt: '2026-06-01T00:00:00.000Z',
});
const rerolled = (v: number, hash: string, prev: string, until: string, occurredAt?: string) =>
  event(
    'ApiKeyRerolled',
    v,
    { keyHash: hash, start: 'tg_AbCd1234', previousKeyHash: prev, previousValidUntil: until },
    occurredAt,
  );

const run = (events: StoredEvent[]): KeyDoc | null =>
  events.reduce<KeyDoc | null>((doc, e) => nextKeyDoc(doc, e) ?? doc, null);

describe('Redis key-lookup document (pure part)', () => {
  it('turns creation into one current record that expires a day after the key', () => {
    const doc = run([created])!;
    expect(doc).toMatchObject({ version: 1, complete: true, revoked: false, hashes: { [h('a')]: null } });
    expect(recordsOf(doc)).toEqual([
      {
        hash: h('a'),
        record: {
          keyId,
          accountId,
          scopes: ['captcha'],
          expiresAt: '2026-06-01T00:00:00.000Z',
          revoked: false,
          validUntil: null,
          version: 1,
        },
        expireAt: Date.parse('2026-06-02T00:00:00.000Z'),
      },
    ]);
  });

  it('gives a replaced hash its overlap, caps older overlaps, and revokes every hash', () => {
    const doc = run([
      created,
      rerolled(2, h('b'), h('a'), '2026-01-01T01:00:00.000Z'),
      rerolled(3, h('c'), h('b'), '2026-01-01T00:10:00.000Z'),
    ])!;
    expect(doc.hashes).toEqual({
      [h('a')]: '2026-01-01T00:10:00.000Z',
      [h('b')]: '2026-01-01T00:10:00.000Z',
      [h('c')]: null,
    });
    const byHash = Object.fromEntries(recordsOf(doc).map((r) => [r.hash, r]));
    expect(byHash[h('b')]!.expireAt).toBe(Date.parse('2026-01-02T00:10:00.000Z'));
    const revoked = nextKeyDoc(doc, event('ApiKeyRevoked', 4, {}))!;
    expect(recordsOf(revoked).map((r) => [r.hash, r.record.revoked, r.record.version])).toEqual([
      [h('a'), true, 4],
      [h('b'), true, 4],
      [h('c'), true, 4],
    ]);
  });

  it('forgets hashes whose overlap ended more than a day before the event', () => {
    const doc = run([
      created,
      rerolled(2, h('b'), h('a'), '2026-01-01T00:00:00.000Z'),
      rerolled(3, h('c'), h('b'), '2026-01-03T00:00:00.000Z', '2026-01-03T00:00:00.000Z'),
    ])!;
    expect(Object.keys(doc.hashes).sort()).toEqual([h('b'), h('c')]);
  });

  it('writes no usable record for a key whose creation it never saw', () => {
    const orphan = run([rerolled(2, h('b'), h('a'), '2026-01-01T01:00:00.000Z')])!;
    expect(orphan).toMatchObject({ complete: false, version: 2, tombstoneUntil: '2026-01-31T00:00:00.000Z' });
    expect(recordsOf(orphan)).toEqual([]);
    expect(recordsOf(nextKeyDoc(orphan, event('ApiKeyRevoked', 3, {}))!)).toEqual([]);
    expect(nextKeyDoc(null, event('SomethingElse', 1, {}))).toBeNull();
  });
});
