/**
 * The json-validator's worker pool with real worker threads: a catastrophic pattern is stopped at the
 * deadline without stalling the calling thread, the pool recovers, and answers equal the in-thread domain's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { inThreadRunner, type ValidationJob } from '../../services/json-validator/jobs.js';
import { WorkerPool } from '../../services/json-validator/pool.js';
import { SchemaCompiler } from '../../services/json-validator/schema-compiler.js';

const pools: WorkerPool[] = [];
const pool = (options: ConstructorParameters<typeof WorkerPool>[0]) => {
  const p = new WorkerPool(options);
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** Exponential backtracking: about 2^n steps for n a's before the '!'. */
const CATASTROPHIC: ValidationJob = {
  op: 'value',
  document: `${'a'.repeat(40)}!`,
  schema: { pattern: '^(a+)+$' },
};

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected an AppError');
};

describe('WorkerPool', () => {
  it('answers exactly what the in-thread domain answers', async () => {
    const workers = pool({});
    const inThread = inThreadRunner(new SchemaCompiler());
    const jobs: ValidationJob[] = [
      { op: 'text', json: '{"a": [1, 2,]}', mode: 'FULL', schema: {} },
      { op: 'text', json: '{"a": "x"}', mode: 'SCHEMA', schema: { properties: { a: { type: 'integer' } } } },
      { op: 'value', document: { email: 'nope' }, schema: { properties: { email: { format: 'email' } } } },
      { op: 'value', document: [], schema: { $ref: 'https://example.com/remote.json' } },
      { op: 'syntax', json: `${'['.repeat(300)}${']'.repeat(300)}` },
    ];
    for (const job of jobs) expect(await workers.run(job), job.op).toEqual(await inThread.run(job));
  });

  it('stops a validation at its deadline with 422 without blocking this thread, then serves on', async () => {
    const workers = pool({ size: 1, timeoutMs: 500 });
    // Warm the worker so the deadline measures the validation, not the thread's start.
    await workers.run({ op: 'syntax', json: '1' });
    const started = performance.now();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    const stopped = await refusal(workers.run(CATASTROPHIC));
    clearInterval(ticker);
    const elapsed = performance.now() - started;
    expect(stopped).toEqual({
      code: 'UNPROCESSABLE',
      message:
        'schema: validation took longer than 500 ms and was stopped; a "pattern" that backtracks heavily, ' +
        'such as (a+)+$, is the usual cause',
    });
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(elapsed).toBeLessThan(3_000);
    // The event loop kept turning while the worker was busy.
    expect(ticks).toBeGreaterThan(10);
    // A fresh worker takes the stopped one's place.
    expect(await workers.run({ op: 'value', document: 'aaa', schema: { pattern: '^(a+)+$' } })).toMatchObject(
      {
        ok: true,
        outcome: { valid: true },
      },
    );
  });

  it('runs other validations on other workers meanwhile', async () => {
    const workers = pool({ size: 2, timeoutMs: 1_500 });
    await Promise.all([workers.run({ op: 'syntax', json: '1' }), workers.run({ op: 'syntax', json: '2' })]);
    const slow = refusal(workers.run(CATASTROPHIC));
    const started = performance.now();
    const fast = await workers.run({ op: 'value', document: 1, schema: { type: 'integer' } });
    expect(fast).toMatchObject({ ok: true, outcome: { valid: true } });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((await slow).code).toBe('UNPROCESSABLE');
  });

  it('refuses work beyond its queue with 503, and everything after close', async () => {
    const workers = pool({ size: 1, timeoutMs: 300, maxQueued: 1 });
    await workers.run({ op: 'syntax', json: '1' });
    // One running, one waiting: the queue is full.
    const first = refusal(workers.run(CATASTROPHIC));
    const second = refusal(workers.run(CATASTROPHIC));
    expect(await refusal(workers.run({ op: 'syntax', json: '1' }))).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'too many validations are waiting; retry in a moment',
    });
    expect((await first).code).toBe('UNPROCESSABLE');
    expect((await second).code).toBe('UNPROCESSABLE');
    await workers.close();
    expect((await refusal(workers.run({ op: 'syntax', json: '1' }))).code).toBe('SERVICE_UNAVAILABLE');
  });
});
