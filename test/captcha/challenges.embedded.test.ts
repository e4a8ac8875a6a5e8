/**
 * The captcha service's handlers over real kv stores: two "gateways" (two service instances on two SQLite
 * connections to one file) issue and validate each other's challenges; single use, expiry, unknown ids,
 * the image, and the 50-way race for one challenge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../core/db/sqlite.js';
import type { KvStore } from '../../core/kv/kv.js';
import { MemoryKvStore } from '../../core/kv/memory-kv.js';
import { SqliteKvStore } from '../../core/kv/sqlite-kv.js';
import { type CallContext, isReply, type ServiceDefinition } from '../../core/service/definition.js';
import { createCaptchaService } from '../../services/captcha/service.js';
import { issuedAnswers, lastAnswer } from './issued-answers.js';

vi.mock('../../services/captcha/answer.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../services/captcha/answer.js')>();
  const { issuedAnswers: record } = await import('./issued-answers.js');
  return {
    ...real,
    randomAnswer: (n: number) => {
      const a = real.randomAnswer(n);
      record.push(a);
      return a;
    },
  };
});

const ctx = (ip = '198.51.100.7'): CallContext => ({
  requestId: 'r',
  accountId: 'a',
  keyId: 'k',
  roles: [],
  plan: 'FREE',
  batchLimit: 10,
  ip,
  now: () => new Date(),
});

const route = (svc: ServiceDefinition, operationId: string) => {
  const r = svc.routes.find((x) => x.operationId === operationId);
  if (!r) throw new Error(operationId);
  return r;
};

interface Challenge {
  challengeId: string;
  imageUrl: string;
  expiresAt: string;
}
interface Verdict {
  valid: boolean;
  challengeId: string;
  reason: string | null;
}

const generate = async (svc: ServiceDefinition, body: unknown = {}, ip?: string) =>
  (await route(svc, 'captchaGenerate').handler(
    { params: {}, query: {}, body, headers: {} },
    ctx(ip),
  )) as Challenge;
const validate = async (svc: ServiceDefinition, challengeId: string, answer: string) =>
  (await route(svc, 'captchaValidate').handler(
    { params: {}, query: {}, body: { challengeId, answer }, headers: {} },
    ctx(),
  )) as Verdict;
const image = (svc: ServiceDefinition, challengeId: string, format?: string) =>
  route(svc, 'captchaImage').handler(
    { params: { challengeId }, query: format ? { format } : {}, body: undefined, headers: {} },
    ctx(),
  );

let dir: string;
let dbs: SqliteDatabase[];
let clock = Date.parse('2025-03-01T10:00:00.000Z');
const now = () => new Date(clock);
let issuer: ServiceDefinition;
let checker: ServiceDefinition;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tg-captcha-'));
  dbs = [openSqlite(join(dir, 'kv.db')), openSqlite(join(dir, 'kv.db'))];
  issuer = createCaptchaService({ kv: new SqliteKvStore(dbs[0]!), now });
  checker = createCaptchaService({ kv: new SqliteKvStore(dbs[1]!), now });
});

afterAll(() => {
  for (const db of dbs) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('captcha challenges across two gateways (one SQLite kv file)', () => {
  it('issues an unguessable id, the image path and a 5-minute expiry', async () => {
    const c = await generate(issuer);
    expect(c.challengeId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(c.imageUrl).toBe(`/api/v1/captcha/image/${c.challengeId}`);
    expect(c.expiresAt).toBe(new Date(clock + 5 * 60_000).toISOString());
    expect((await generate(issuer)).challengeId).not.toBe(c.challengeId);
  });

  it('serves the image as a 200 × 70 PNG on the other gateway, never cached', async () => {
    const c = await generate(issuer);
    const r = await image(checker, c.challengeId);
    if (!isReply(r)) throw new Error('expected a reply');
    expect(r.headers).toMatchObject({ 'content-type': 'image/png', 'cache-control': 'no-store' });
    const png = PNG.sync.read(r.body as Buffer);
    expect([png.width, png.height]).toEqual([200, 70]);
    const svg = await image(checker, c.challengeId, 'svg');
    if (!isReply(svg)) throw new Error('expected a reply');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(String(svg.body)).toMatch(/^<svg [^>]*width="200" height="70"/);
    expect(String(svg.body)).not.toContain(lastAnswer());
  });

  it('accepts the right answer in any case once, issued on one gateway and checked on the other', async () => {
    const c = await generate(issuer);
    const answer = lastAnswer();
    expect(answer).toHaveLength(5);
    const mixed = [...answer].map((ch, i) => (i % 2 ? ch.toLowerCase() : ch)).join('');
    expect(await validate(checker, c.challengeId, mixed)).toEqual({
      valid: true,
      challengeId: c.challengeId,
      reason: null,
    });
    expect(await validate(issuer, c.challengeId, answer)).toEqual({
      valid: false,
      challengeId: c.challengeId,
      reason: 'ALREADY_USED',
    });
    await expect(image(issuer, c.challengeId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('consumes the challenge on a wrong answer too', async () => {
    const c = await generate(issuer);
    const right = lastAnswer();
    const wrong = right.startsWith('A') ? `B${right.slice(1)}` : `A${right.slice(1)}`;
    expect((await validate(checker, c.challengeId, wrong)).reason).toBe('WRONG_ANSWER');
    expect(await validate(checker, c.challengeId, right)).toMatchObject({
      valid: false,
      reason: 'ALREADY_USED',
    });
  });

  it('answers EXPIRED after 5 minutes, and the image is gone', async () => {
    const c = await generate(issuer);
    const answer = lastAnswer();
    clock += 5 * 60_000 - 1;
    expect(isReply(await image(checker, c.challengeId))).toBe(true);
    clock += 1;
    await expect(image(checker, c.challengeId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await validate(checker, c.challengeId, answer)).toMatchObject({ valid: false, reason: 'EXPIRED' });
    expect((await validate(checker, c.challengeId, answer)).reason).toBe('ALREADY_USED');
  });

  it('is valid just before the 5 minutes end', async () => {
    const c = await generate(issuer);
    clock += 5 * 60_000 - 1;
    expect((await validate(checker, c.challengeId, lastAnswer())).valid).toBe(true);
  });

  it('answers NOT_FOUND for ids never issued, malformed or not', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'nope', 'x'.repeat(128), '../captcha:x']) {
      expect(await validate(checker, id, 'ABCDE')).toEqual({
        valid: false,
        challengeId: id,
        reason: 'NOT_FOUND',
      });
      await expect(image(checker, id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('lets exactly one of 50 simultaneous right answers through, across both gateways', async () => {
    const c = await generate(issuer);
    const answer = lastAnswer();
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, (_, i) => validate(i % 2 ? issuer : checker, c.challengeId, answer)),
    );
    expect(verdicts.filter((v) => v.valid)).toHaveLength(1);
    expect(verdicts.filter((v) => v.reason === 'ALREADY_USED')).toHaveLength(49);
  });
});

describe('captcha single use on the memory kv', () => {
  it('lets exactly one of 50 simultaneous right answers through', async () => {
    const kv: KvStore = new MemoryKvStore();
    const a = createCaptchaService({ kv });
    const b = createCaptchaService({ kv });
    const c = await generate(a);
    const answer = lastAnswer();
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, (_, i) => validate(i % 2 ? a : b, c.challengeId, answer)),
    );
    expect(verdicts.filter((v) => v.valid)).toHaveLength(1);
  });
});

describe('captcha difficulty by reputation', () => {
  it('gives 6 characters to risky addresses, 5 to others, and 6 when the reputation source fails', async () => {
    const asked: string[] = [];
    const svc = createCaptchaService({
      kv: new MemoryKvStore(),
      riskOf: async (ip) => {
        asked.push(ip);
        if (ip === '192.0.2.66') throw new Error('reputation down');
        return ip === '203.0.113.9' ? 0.9 : 0.1;
      },
    });
    await generate(svc, {}, '198.51.100.1');
    expect(lastAnswer()).toHaveLength(5);
    await generate(svc, {}, '203.0.113.9');
    expect(lastAnswer()).toHaveLength(6);
    // clientIp (the visitor, when a server asks for them) decides over the caller's own address.
    await generate(svc, { clientIp: '203.0.113.9' }, '198.51.100.1');
    expect(lastAnswer()).toHaveLength(6);
    await generate(svc, {}, '192.0.2.66');
    expect(lastAnswer()).toHaveLength(6);
    expect(asked).toEqual(['198.51.100.1', '203.0.113.9', '203.0.113.9', '192.0.2.66']);
    await expect(generate(svc, { clientIp: 'not-an-ip' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'clientIp: must be a valid IPv4 or IPv6 address',
    });
    expect(issuedAnswers.length).toBeGreaterThan(4);
  });
});
