import type { CheckpointStore } from '../checkpoints/checkpoints.js';
import type { EventStore } from '../events/event-store.js';
import type { EventBus } from './bus.js';
import { type LeaderLock, soleLeader } from './leader-lock.js';

export interface RelayOptions {
  readonly store: EventStore;
  readonly bus: EventBus;
  readonly checkpoints: CheckpointStore;
  readonly leader?: LeaderLock;
  readonly checkpointName?: string;
  readonly batchSize?: number;
  readonly pollMs?: number;
  readonly onError?: (err: unknown) => void;
}

/**
 * The outbox relay: reads the event store by global position, publishes, and only then stores its checkpoint.
 * A crash between the two republishes the batch (at-least-once); per-stream order holds because a batch is
 * published in position order and the next batch starts only after the previous one was accepted.
 */
export class Relay {
  private stopped = true;
  private running: Promise<void> | null = null;
  private interrupt: (() => void) | null = null;
  private readonly name: string;
  private readonly batchSize: number;
  private readonly pollMs: number;

  constructor(private readonly options: RelayOptions) {
    this.name = options.checkpointName ?? 'relay';
    // Modest batches keep one publish well under Kafka's per-partition request limit (message.max.bytes).
    this.batchSize = options.batchSize ?? 200;
    this.pollMs = options.pollMs ?? 100;
  }

  /** Relays one batch; returns how many events were published. */
  async runOnce(): Promise<number> {
    const { store, bus, checkpoints } = this.options;
    const from = await checkpoints.load(this.name);
    const batch = await store.readAll(from, this.batchSize);
    if (batch.length === 0) return 0;
    await bus.publish(batch);
    await checkpoints.save(this.name, batch.at(-1)!.globalPosition);
    return batch.length;
  }

  async lag(): Promise<number> {
    const [head, at] = await Promise.all([
      this.options.store.headPosition(),
      this.options.checkpoints.load(this.name),
    ]);
    return Math.max(0, head - at);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const leader = this.options.leader ?? soleLeader;
    this.running = (async () => {
      while (!this.stopped) {
        try {
          if (!(await leader.tryAcquire())) {
            await this.pause(this.pollMs * 10);
            continue;
          }
          const n = await this.runOnce();
          if (n < this.batchSize) await this.pause(this.pollMs);
        } catch (err) {
          this.options.onError?.(err);
          await this.pause(this.pollMs * 10);
        }
      }
      await leader.release();
    })();
  }

  /** A wait that stop() cuts short. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.interrupt = done;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.interrupt?.();
    await this.running;
    this.running = null;
  }
}
