import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import {
  type CallContext,
  isReply,
  type Reply,
  type RouteDefinition,
} from '../../core/service/definition.js';
import { memoryCorpus } from './corpus.js';
import { sha1Hex } from './hashes.js';
import { BATCH_MAX, checkMessage, createPasswordBreachService } from './service.js';

const corpus = memoryCorpus(
  [
    { sha1: sha1Hex('password'), count: 9_659_365 },
    { sha1: sha1Hex('hunter2'), count: 1 },
  ],
  { source: 'test' },
);
const service = createPasswordBreachService({ corpus });
const route = (operationId: string): RouteDefinition =>
  service.routes.find((r) => r.operationId === operationId)!;
const ctx = { batchLimit: 10, now: () => new Date() } as CallContext;
const call = (operationId: string, input: { body?: unknown; params?: object; headers?: object }) =>
  route(operationId).handler(
    { params: {}, query: {}, headers: {}, body: undefined, ...input } as Parameters<
      RouteDefinition['handler']
    >[0],
    ctx,
  );

describe('password-breach service', () => {
  it('declares the three R routes of SPEC.md 4.4, metered, behind an API key', () => {
    expect(service.slug).toBe('password-breach');
    expect(service.routes.map((r) => [r.method, r.path, r.operationId, r.convention])).toEqual([
      ['POST', '/api/v1/passwords/check', 'passwordsCheck', 'R'],
      ['POST', '/api/v1/passwords/check/batch', 'passwordsCheckBatch', 'R'],
      ['GET', '/api/v1/passwords/range/{hashPrefix}', 'passwordsRange', 'R'],
    ]);
    for (const r of service.routes) expect([r.auth, r.metered]).toEqual(['apiKey', true]);
    expect(route('passwordsCheckBatch').batch).toEqual({ field: 'passwords', max: BATCH_MAX });
  });

  it('checks one password without echoing it', async () => {
    const breached = await call('passwordsCheck', { body: { password: 'password' } });
    expect(breached).toEqual({
      breached: true,
      occurrences: 9_659_365,
      message: 'This password appears in the breach corpus (9,659,365 occurrences): do not use it.',
    });
    const clean = await call('passwordsCheck', { body: { password: 'Tg-not-in-any-list' } });
    expect(clean).toEqual({
      breached: false,
      occurrences: 0,
      message: 'This password does not appear in the breach corpus.',
    });
    expect(JSON.stringify(clean)).not.toContain('Tg-not-in-any-list');
    expect(checkMessage(1)).toBe('This password appears in the breach corpus (1 occurrence): do not use it.');
  });

  it('checks a batch by position, without echoing any password', async () => {
    const result = await call('passwordsCheckBatch', {
      body: { passwords: ['hunter2', 'Tg-x9', 'password'] },
    });
    expect(result).toEqual({
      results: [
        { index: 0, breached: true, occurrences: 1 },
        { index: 1, breached: false, occurrences: 0 },
        { index: 2, breached: true, occurrences: 9_659_365 },
      ],
    });
    for (const p of ['hunter2', 'Tg-x9', 'password']) expect(JSON.stringify(result)).not.toContain(p);
  });

  it('answers a range as text/plain in the HIBP format', async () => {
    const result = await call('passwordsRange', { params: { hashPrefix: '5baa6' } });
    expect(isReply(result)).toBe(true);
    const r = result as Reply;
    expect(r.status).toBe(200);
    expect(r.headers).toEqual({ 'content-type': 'text/plain' });
    expect(r.body).toBe('1E4C9B93F3F0682250B6CF8331B7EE68FD8:9659365');
  });

  it('pads when asked with Add-Padding: true (any case)', async () => {
    for (const value of ['true', 'TRUE', ' True ']) {
      const r = (await call('passwordsRange', {
        params: { hashPrefix: '5BAA6' },
        headers: { 'add-padding': value },
      })) as Reply;
      const lines = String(r.body).split('\r\n');
      expect(lines.length).toBeGreaterThanOrEqual(800);
      expect(lines.length).toBeLessThanOrEqual(1000);
      expect(lines).toContain('1E4C9B93F3F0682250B6CF8331B7EE68FD8:9659365');
    }
    for (const value of ['false', '1', 'yes']) {
      const r = (await call('passwordsRange', {
        params: { hashPrefix: '5BAA6' },
        headers: { 'add-padding': value },
      })) as Reply;
      expect(r.body, value).toBe('1E4C9B93F3F0682250B6CF8331B7EE68FD8:9659365');
    }
  });

  it('refuses anything but five hex characters as a prefix', async () => {
    for (const hashPrefix of ['', '5BAA', '5BAA61', '5BAG6', 'zzzzz', '5BAA ']) {
      const err = await call('passwordsRange', { params: { hashPrefix } }).catch((e: unknown) => e);
      expect(err, JSON.stringify(hashPrefix)).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('VALIDATION_ERROR');
      expect((err as AppError).message).toBe('hashPrefix: must be 5 hexadecimal characters');
    }
  });
});
