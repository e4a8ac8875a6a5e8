/**
 * Single use on the cluster store: two gateways (two service instances, each with its own connection to the
 * real Redis of the local stack) race 50 right answers for one challenge; exactly one is valid.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { RedisKvStore } from '../../core/kv/redis-kv.js';
import type { CallContext, ServiceDefinition } from '../../core/service/definition.js';
import { createCaptchaService } from '../../services/captcha/service.js';
import { stackEnv, uniqueName } from '../support/stack.js';
import { lastAnswer } from './issued-answers.js';

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

const prefix = `${uniqueName('tgcaptcha')}:`;
const clients = [new Redis(stackEnv().redisUrl), new Redis(stackEnv().redisUrl)] as const;
const gateways = clients.map((c) => createCaptchaService({ kv: new RedisKvStore(c, { prefix }) }));

afterAll(async () => {
  let cursor = '0';
  do {
    const [next, keys] = await clients[0].scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await clients[0].del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await Promise.all(clients.map((c) => c.quit()));
});

const ctx: CallContext = {
  requestId: 'r',
  accountId: 'a',
  keyId: 'k',
  roles: [],
  plan: 'FREE',
  batchLimit: 10,
  ip: '198.51.100.7',
  now: () => new Date(),
};
const call = (svc: ServiceDefinition, op: string, body: unknown) =>
  svc.routes.find((r) => r.operationId === op)!.handler({ params: {}, query: {}, body, headers: {} }, ctx);

describe('captcha single use on Redis', () => {
  it('lets exactly one of 50 simultaneous right answers through, across two gateways', async () => {
    for (let round = 0; round < 3; round++) {
      const { challengeId } = (await call(gateways[0]!, 'captchaGenerate', undefined)) as {
        challengeId: string;
      };
      const answer = lastAnswer();
      const verdicts = (await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(gateways[i % 2]!, 'captchaValidate', { challengeId, answer: answer.toLowerCase() }),
        ),
      )) as { valid: boolean; reason: string | null }[];
      expect(verdicts.filter((v) => v.valid)).toHaveLength(1);
      expect(verdicts.filter((v) => v.reason === 'ALREADY_USED')).toHaveLength(49);
    }
  });

  it('keeps the record past the 5 minutes so a late attempt reads EXPIRED, then lets Redis drop it', async () => {
    const { challengeId } = (await call(gateways[0]!, 'captchaGenerate', undefined)) as {
      challengeId: string;
    };
    const ttl = await clients[1].pttl(`${prefix}captcha:${challengeId}`);
    expect(ttl).toBeGreaterThan(10 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const imageTtl = await clients[1].pttl(`${prefix}captcha:${challengeId}:image`);
    expect(imageTtl).toBeGreaterThan(0);
    expect(imageTtl).toBeLessThanOrEqual(5 * 60_000);
  });
});
