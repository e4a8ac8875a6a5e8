import { AppError, type ErrorCode } from '../../core/errors/catalogue.js';

/** The error of one batch item: the code, status and message a single call would have answered. */
export interface ItemError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly message: string;
}

export type ItemOutcome<T> =
  | { readonly url: string; readonly value: T }
  | { readonly url: string; readonly error: ItemError };

export interface BatchOptions {
  readonly concurrency: number;
  /** No item starts after this long, and running ones get the abort signal. */
  readonly budgetMs: number;
  readonly now: () => Date;
}

/** An item's failure as its error body; an unexpected error says no more than a 500 would. */
export function itemError(err: unknown): ItemError {
  const e = err instanceof AppError ? err : new AppError('INTERNAL_ERROR');
  return { code: e.code, status: e.status, message: e.message };
}

/**
 * Runs `work` for every URL, at most `concurrency` at once, and returns one outcome per input in input order
 * (SPEC 7.3: every item carries its input and its result, even when single items fail). The same URL given
 * twice is fetched once. Items that would start after the budget get `work` with an aborted signal, so they
 * fail the way an aborted fetch does.
 */
export async function runBatch<T>(
  urls: readonly string[],
  work: (url: string, signal: AbortSignal) => Promise<T>,
  options: BatchOptions,
): Promise<ItemOutcome<T>[]> {
  const unique = [...new Set(urls)];
  const outcomes = new Map<string, ItemOutcome<T>>();
  const controller = new AbortController();
  const deadline = options.now().getTime() + options.budgetMs;
  const timer = setTimeout(() => controller.abort(), options.budgetMs);
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const url = unique[next++]!;
      if (options.now().getTime() >= deadline) controller.abort();
      try {
        outcomes.set(url, { url, value: await work(url, controller.signal) });
      } catch (err) {
        outcomes.set(url, { url, error: itemError(err) });
      }
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(options.concurrency, unique.length)) }, worker),
    );
  } finally {
    clearTimeout(timer);
  }
  return urls.map((url) => outcomes.get(url)!);
}
