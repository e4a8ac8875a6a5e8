import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors/catalogue.js';
import { itemError, runBatch } from './batch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const clock = () => new Date();

describe('runBatch', () => {
  it('answers every input in input order, failures included, fetching a repeated URL once', async () => {
    const calls: string[] = [];
    const out = await runBatch(
      ['b', 'bad', 'a', 'b'],
      async (url) => {
        calls.push(url);
        await sleep(url === 'b' ? 20 : 1);
        if (url === 'bad') throw new AppError('SSRF_BLOCKED', 'url: resolves to a private address');
        return url.toUpperCase();
      },
      { concurrency: 3, budgetMs: 5000, now: clock },
    );
    expect(out).toEqual([
      { url: 'b', value: 'B' },
      {
        url: 'bad',
        error: { code: 'SSRF_BLOCKED', status: 403, message: 'url: resolves to a private address' },
      },
      { url: 'a', value: 'A' },
      { url: 'b', value: 'B' },
    ]);
    expect(calls.sort()).toEqual(['a', 'b', 'bad']);
  });

  it('runs at most `concurrency` items at once', async () => {
    let running = 0;
    let most = 0;
    await runBatch(
      Array.from({ length: 12 }, (_, i) => `u${i}`),
      async () => {
        running++;
        most = Math.max(most, running);
        await sleep(5);
        running--;
      },
      { concurrency: 4, budgetMs: 5000, now: clock },
    );
    expect(most).toBe(4);
  });

  it('hands an aborted signal to running and later items once the budget is spent', async () => {
    const seen: boolean[] = [];
    const out = await runBatch(
      ['slow', 'late'],
      (url, signal) =>
        new Promise((_resolve, reject) => {
          seen.push(signal.aborted);
          if (signal.aborted) return reject(new AppError('UNPROCESSABLE', `url: ${url} not fetched`));
          signal.addEventListener('abort', () => reject(new AppError('UNPROCESSABLE', 'url: aborted')));
        }),
      { concurrency: 1, budgetMs: 50, now: clock },
    );
    expect(seen).toEqual([false, true]);
    expect(out.map((o) => ('error' in o ? o.error.message : 'ok'))).toEqual([
      'url: aborted',
      'url: late not fetched',
    ]);
  });

  it('starts nothing once the clock passes the budget', async () => {
    let t = 0;
    const now = () => new Date(t);
    const seen: boolean[] = [];
    await runBatch(
      ['a', 'b', 'c'],
      async (_url, signal) => {
        seen.push(signal.aborted);
        t += 1000;
      },
      { concurrency: 1, budgetMs: 1500, now },
    );
    expect(seen).toEqual([false, false, true]);
  });
});

describe('itemError', () => {
  it('keeps catalogued errors and hides anything else behind INTERNAL_ERROR', () => {
    expect(itemError(new AppError('VALIDATION_ERROR', 'url: must be a valid HTTP or HTTPS URL'))).toEqual({
      code: 'VALIDATION_ERROR',
      status: 400,
      message: 'url: must be a valid HTTP or HTTPS URL',
    });
    expect(itemError(new Error('ECONNRESET at /work/secret.ts:1:2'))).toEqual({
      code: 'INTERNAL_ERROR',
      status: 500,
      message: 'Something went wrong on our side',
    });
  });
});
