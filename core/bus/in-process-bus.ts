import type { CheckpointStore } from '../checkpoints/checkpoints.js';
import type { StoredEvent } from '../events/envelope.js';
import type { EventStore } from '../events/event-store.js';
import type { EventBus, EventHandler, SubscribeOptions, Subscription } from './bus.js';
import { contextOfStream } from './topics.js';

export interface InProcessBusOptions {
  /** Longest wait before a subscriber notices an append it was not woken for (another process, say). */
  readonly pollMs?: number;
  readonly batchSize?: number;
  /** Wait before redelivering an event whose handler threw, or retrying a failed read of the store. */
  readonly retryMs?: number;
  /** A store or checkpoint failure; the subscriber keeps retrying after it. */
  readonly onError?: (group: string, err: unknown) => void;
}

/**
 * Embedded bus: the event store is the log. Each consumer group tails `readAll` from its durable checkpoint,
 * so nothing is published twice and nothing is lost across restarts. `publish` only wakes the tailers.
 */
export class InProcessBus implements EventBus {
  private readonly waiters = new Set<() => void>();
  private readonly active = new Map<string, Subscription>();
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly retryMs: number;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    options: InProcessBusOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 50;
    this.batchSize = options.batchSize ?? 500;
    this.retryMs = options.retryMs ?? 200;
    this.onError = options.onError ?? (() => {});
  }

  private readonly onError: (group: string, err: unknown) => void;

  async publish(_events: readonly StoredEvent[]): Promise<void> {
    this.wake();
  }

  /** Called after every append so subscribers react at once instead of at the next poll. */
  wake(): void {
    for (const w of [...this.waiters]) w();
  }

  async subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription> {
    if (this.active.has(options.group)) {
      throw new Error(`consumer group ${options.group} already has a subscriber in this process`);
    }
    const checkpoint = `bus:${options.group}`;
    const wanted = options.contexts ? new Set(options.contexts) : null;
    let stopped = false;
    let wakeNow: (() => void) | null = null;

    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          wakeNow = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        this.waiters.add(done);
        wakeNow = done;
      });

    const loop = async () => {
      let position: number | null = null;
      while (!stopped) {
        try {
          position ??= await this.checkpoints.load(checkpoint);
          position = await step(position);
        } catch (err) {
          // A transient store failure (SQLITE_BUSY, a lost connection) must not end the subscription.
          this.onError(options.group, err);
          await sleep(this.retryMs);
        }
      }
    };

    const step = async (position: number): Promise<number> => {
      const batch = await this.store.readAll(position, this.batchSize);
      let handled = position;
      let failed = false;
      for (const event of batch) {
        if (stopped) break;
        if (!wanted || wanted.has(contextOfStream(event.streamId))) {
          try {
            await handler(event);
          } catch {
            failed = true;
            break;
          }
        }
        handled = event.globalPosition;
      }
      if (handled !== position) await this.checkpoints.save(checkpoint, handled);
      if (failed) await sleep(this.retryMs);
      else if (batch.length < this.batchSize) await sleep(this.pollMs);
      return handled;
    };

    const running = loop().finally(() => this.active.delete(options.group));
    const subscription: Subscription = {
      stop: async () => {
        stopped = true;
        (wakeNow as (() => void) | null)?.();
        await running.catch(() => {});
      },
    };
    this.active.set(options.group, subscription);
    return subscription;
  }

  async health(): Promise<Readonly<Record<string, unknown>>> {
    return { subscribers: [...this.active.keys()] };
  }

  /** Stops every subscriber; their progress is kept. */
  async close(): Promise<void> {
    await Promise.all([...this.active.values()].map((s) => s.stop()));
  }
}
