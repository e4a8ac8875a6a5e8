import {
  type Admin,
  type EachBatchPayload,
  Kafka,
  logLevel as KafkaLogLevel,
  type LogEntry,
  type Message,
  Partitioners,
  type Producer,
  type RetryOptions,
} from 'kafkajs';
import type { StoredEvent } from '../events/envelope.js';
import type { EventBus, EventHandler, SubscribeOptions, Subscription } from './bus.js';
import { CONTEXTS, contextOfStream, topicName } from './topics.js';

export type KafkaBusLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export interface KafkaBusLogEntry {
  readonly level: Exclude<KafkaBusLogLevel, 'nothing'>;
  readonly message: string;
  /** Topic, partition, offset, group and the like; never a stack trace. */
  readonly detail?: Readonly<Record<string, unknown>>;
  /** The handler's error, for the application's logger to render (and redact) as it sees fit. */
  readonly error?: unknown;
}

/** Consumer timings; the defaults suit production, tests shorten them. */
export interface KafkaConsumerTuning {
  /** Brokers refuse less than their group.min.session.timeout.ms (6 s by default). Default 30 s. */
  readonly sessionTimeout?: number;
  /** Default 60 s. */
  readonly rebalanceTimeout?: number;
  /** Default 3 s. */
  readonly heartbeatInterval?: number;
  /** Longest fetch long-poll; also bounds how long stop() waits for an idle fetch. Default 1 s. */
  readonly maxWaitTimeInMs?: number;
  /** Pause of a partition whose handler threw, before the event is delivered again. Default 1 s. */
  readonly retryMs?: number;
}

export interface KafkaBusOptions {
  readonly brokers: readonly string[];
  readonly clientId: string;
  /** Topics are `<topicPrefix><context>`, consumer groups `<topicPrefix><group>`. */
  readonly topicPrefix: string;
  /** Partitions of each context topic. Fixed for a topic's life: more partitions would remap stream keys. */
  readonly partitions: number;
  readonly replicationFactor: number;
  /** Default 2 when replicationFactor ≥ 3, else the broker's default. */
  readonly minInsyncReplicas?: number;
  /** Contexts that get a topic; publishing or subscribing outside them fails. Default: every context. */
  readonly contexts?: readonly string[];
  /** Default 'error' when onLog is given, else 'nothing'. Applies to kafkajs' logs and the bus' own. */
  readonly logLevel?: KafkaBusLogLevel;
  readonly onLog?: (entry: KafkaBusLogEntry) => void;
  readonly consumer?: KafkaConsumerTuning;
  /** How long open() waits for the topics to have leaders. Default 30 s. */
  readonly topicTimeoutMs?: number;
}

/** What a consumer's batch processor needs from the subscription that runs it. */
interface BatchContext {
  readonly groupId: string;
  readonly retryMs: number;
  readonly resumeTimers: Set<NodeJS.Timeout>;
}

const RANK: Record<KafkaBusLogLevel, number> = { nothing: 0, error: 1, warn: 2, info: 3, debug: 4 };
const TO_KAFKAJS: Record<KafkaBusLogLevel, KafkaLogLevel> = {
  nothing: KafkaLogLevel.NOTHING,
  error: KafkaLogLevel.ERROR,
  warn: KafkaLogLevel.WARN,
  info: KafkaLogLevel.INFO,
  debug: KafkaLogLevel.DEBUG,
};
const FROM_KAFKAJS = new Map<KafkaLogLevel, KafkaBusLogEntry['level']>([
  [KafkaLogLevel.ERROR, 'error'],
  [KafkaLogLevel.WARN, 'warn'],
  [KafkaLogLevel.INFO, 'info'],
  [KafkaLogLevel.DEBUG, 'debug'],
]);

// Every field spelled out: kafkajs fills in missing ones from defaults it picks by NODE_ENV (short in tests).
const CLIENT_RETRY: RetryOptions = {
  initialRetryTime: 300,
  maxRetryTime: 30_000,
  factor: 0.2,
  multiplier: 2,
  retries: 8,
};
// kafkajs retries an idempotent producer forever by default; bounded, a dead broker surfaces as a failed
// publish and the relay retries the batch itself (duplicates are allowed, consumers dedupe).
const PRODUCER_RETRY: RetryOptions = { ...CLIENT_RETRY, retries: 6 };

/**
 * The cluster bus on kafkajs. One topic per bounded context, keyed by stream id, so a stream's events share a
 * partition and keep their order. The producer is idempotent with a single request in flight and acks from
 * every in-sync replica; consumers resolve each offset only after its handler succeeded.
 */
export class KafkaBus implements EventBus {
  readonly topics: readonly string[];
  private readonly kafka: Kafka;
  private readonly admin: Admin;
  private readonly prefix: string;
  private readonly contexts: readonly string[];
  private readonly level: number;
  private readonly onLog: (entry: KafkaBusLogEntry) => void;
  private producer: Promise<Producer> | null = null;
  private readonly subscriptions = new Set<() => Promise<void>>();
  private closing: Promise<void> | null = null;

  private constructor(private readonly options: KafkaBusOptions) {
    if (!Number.isInteger(options.partitions) || options.partitions < 1) {
      throw new Error('partitions must be ≥ 1');
    }
    if (!Number.isInteger(options.replicationFactor) || options.replicationFactor < 1) {
      throw new Error('replicationFactor must be ≥ 1');
    }
    this.prefix = options.topicPrefix;
    this.contexts = [...new Set(options.contexts ?? CONTEXTS)];
    this.topics = this.contexts.map((c) => topicName(this.prefix, c));
    this.onLog = options.onLog ?? (() => {});
    const level = options.logLevel ?? (options.onLog ? 'error' : 'nothing');
    this.level = RANK[level];
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: [...options.brokers],
      logLevel: TO_KAFKAJS[level],
      logCreator: () => (entry: LogEntry) => this.forwardKafkaLog(entry),
      retry: CLIENT_RETRY,
    });
    this.admin = this.kafka.admin({ retry: CLIENT_RETRY });
  }

  /** Connects, creates every context topic that is missing and waits until each partition has a leader. */
  static async open(options: KafkaBusOptions): Promise<KafkaBus> {
    const bus = new KafkaBus(options);
    try {
      await bus.admin.connect();
      await bus.ensureTopics();
      await bus.connectedProducer();
    } catch (err) {
      await bus.close().catch(() => {});
      throw err;
    }
    return bus;
  }

  async publish(events: readonly StoredEvent[]): Promise<void> {
    if (this.closing) throw new Error('KafkaBus is closed');
    if (events.length === 0) return;
    const byTopic = new Map<string, Message[]>();
    for (const event of events) {
      const context = contextOfStream(event.streamId);
      if (!this.contexts.includes(context)) throw new Error(`KafkaBus has no topic for context ${context}`);
      const topic = topicName(this.prefix, context);
      let messages = byTopic.get(topic);
      if (!messages) {
        messages = [];
        byTopic.set(topic, messages);
      }
      // No record timestamp: replaying an old store must not produce records that retention deletes at once.
      messages.push({
        key: event.streamId,
        value: JSON.stringify(event),
        headers: { eventId: event.eventId, type: event.type },
      });
    }
    const producer = await this.connectedProducer();
    try {
      await producer.sendBatch({
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        acks: -1,
      });
    } catch (err) {
      // After a failed send kafkajs keeps its producer id and sequence numbers, which the broker may no
      // longer accept; a fresh producer starts a fresh sequence. The caller republishes (at-least-once).
      if (this.producer) {
        const broken = this.producer;
        this.producer = null;
        void broken.then((p) => p.disconnect()).catch(() => {});
      }
      throw err;
    }
  }

  async subscribe(options: SubscribeOptions, handler: EventHandler): Promise<Subscription> {
    return this.consume(options, (ctx) => this.perEvent(ctx, handler));
  }

  /**
   * Like subscribe, but hands over each fetched partition batch at once (for sinks that write in bulk, such as
   * ClickHouse). The batch's offsets are resolved only after the handler resolved; when it throws, nothing of the
   * batch is resolved and the partition pauses before the same batch is fetched again.
   */
  async subscribeBatch(
    options: SubscribeOptions,
    handler: (events: readonly StoredEvent[]) => Promise<void>,
  ): Promise<Subscription> {
    return this.consume(options, (ctx) => this.wholeBatch(ctx, handler));
  }

  private async consume(
    options: SubscribeOptions,
    processor: (ctx: BatchContext) => (payload: EachBatchPayload) => Promise<void>,
  ): Promise<Subscription> {
    if (this.closing) throw new Error('KafkaBus is closed');
    const contexts = [...new Set(options.contexts ?? this.contexts)];
    for (const c of contexts) {
      if (!this.contexts.includes(c)) throw new Error(`KafkaBus has no topic for context ${c}`);
    }
    const tuning = this.options.consumer ?? {};
    const retryMs = tuning.retryMs ?? 1000;
    const groupId = `${this.prefix}${options.group}`;
    const consumer = this.kafka.consumer({
      groupId,
      sessionTimeout: tuning.sessionTimeout ?? 30_000,
      rebalanceTimeout: tuning.rebalanceTimeout ?? 60_000,
      heartbeatInterval: tuning.heartbeatInterval ?? 3000,
      maxWaitTimeInMs: tuning.maxWaitTimeInMs ?? 1000,
      allowAutoTopicCreation: false,
      retry: CLIENT_RETRY,
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      this.log('error', payload.restart ? 'consumer crashed, restarting' : 'consumer crashed and stopped', {
        groupId,
        error: payload.error.message,
      });
    });

    const resumeTimers = new Set<NodeJS.Timeout>();
    let stopping: Promise<void> | null = null;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        for (const t of resumeTimers) clearTimeout(t);
        resumeTimers.clear();
        // kafkajs waits for the batch in hand (eachBatch sees isRunning() turn false and returns), commits
        // the resolved offsets after it, then leaves the group so that another member takes over at once.
        try {
          await consumer.disconnect();
        } finally {
          this.subscriptions.delete(stop);
        }
      })());

    const eachBatch = processor({ groupId, retryMs, resumeTimers });

    try {
      await consumer.connect();
      // fromBeginning applies only to a group without committed offsets: a new group sees all retained.
      await consumer.subscribe({
        topics: contexts.map((c) => topicName(this.prefix, c)),
        fromBeginning: true,
      });
      await consumer.run({ eachBatchAutoResolve: false, autoCommit: true, eachBatch });
    } catch (err) {
      await consumer.disconnect().catch(() => {});
      throw err;
    }
    this.subscriptions.add(stop);
    return { stop };
  }

  private perEvent({ groupId, retryMs, resumeTimers }: BatchContext, handler: EventHandler) {
    return async (payload: EachBatchPayload): Promise<void> => {
      const { batch, resolveOffset, heartbeat, pause, isRunning, isStale } = payload;
      for (const message of batch.messages) {
        if (!isRunning() || isStale()) return;
        const where = { groupId, topic: batch.topic, partition: batch.partition, offset: message.offset };
        const event = decode(message.value);
        if (!event) {
          this.log('error', 'skipping a message that is not a stored event', where);
          resolveOffset(message.offset);
          continue;
        }
        try {
          await handler(event);
        } catch (error) {
          // The offset stays unresolved, so the next fetch of this partition starts at this event again;
          // pausing the partition spaces the attempts out without a consumer restart or a rebalance.
          // Returning lets kafkajs commit what was handled before it. Throwing would make kafkajs refetch
          // too, but it takes a TypeError (and the like) escaping eachBatch as fatal: the consumer stops
          // for good.
          this.log(
            'error',
            `handler failed, redelivering in ${retryMs} ms`,
            { ...where, eventId: event.eventId },
            error,
          );
          const resume = pause();
          const timer = setTimeout(() => {
            resumeTimers.delete(timer);
            resume();
          }, retryMs);
          resumeTimers.add(timer);
          return;
        }
        resolveOffset(message.offset);
        // Outside the try: a rebalance surfaces here as an error that kafkajs itself must see and handle.
        await heartbeat();
      }
    };
  }

  private wholeBatch(
    { groupId, retryMs, resumeTimers }: BatchContext,
    handler: (events: readonly StoredEvent[]) => Promise<void>,
  ) {
    return async (payload: EachBatchPayload): Promise<void> => {
      const { batch, resolveOffset, heartbeat, pause, isRunning, isStale } = payload;
      if (!isRunning() || isStale() || batch.messages.length === 0) return;
      const events: StoredEvent[] = [];
      for (const message of batch.messages) {
        const event = decode(message.value);
        if (event) events.push(event);
        else {
          this.log('error', 'skipping a message that is not a stored event', {
            groupId,
            topic: batch.topic,
            partition: batch.partition,
            offset: message.offset,
          });
        }
      }
      try {
        if (events.length > 0) await handler(events);
      } catch (error) {
        this.log(
          'error',
          `batch handler failed, redelivering in ${retryMs} ms`,
          { groupId, topic: batch.topic, partition: batch.partition, size: events.length },
          error,
        );
        const resume = pause();
        const timer = setTimeout(() => {
          resumeTimers.delete(timer);
          resume();
        }, retryMs);
        resumeTimers.add(timer);
        return;
      }
      resolveOffset(batch.lastOffset());
      await heartbeat();
    };
  }

  /** Broker count and controller, straight from the cluster: a bus whose brokers are gone throws. */
  async health(): Promise<Readonly<Record<string, unknown>>> {
    const cluster = await this.admin.describeCluster();
    return {
      brokers: cluster.brokers.length,
      controller: cluster.controller,
      topics: this.topics.length,
      subscriptions: this.subscriptions.size,
    };
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.subscriptions].map((stop) => stop()));
      const producer = this.producer;
      this.producer = null;
      await Promise.allSettled([
        producer?.then((p) => p.disconnect()) ?? Promise.resolve(),
        this.admin.disconnect(),
      ]);
    })();
    return this.closing;
  }

  private connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({
        idempotent: true,
        // Idempotence allows up to 5; with 1 a retried request can never overtake the next one.
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        // The Java client's murmur2 partitioning, chosen explicitly (kafkajs 2 warns when left implicit).
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: PRODUCER_RETRY,
      });
      const connecting = producer.connect().then(() => producer);
      connecting.catch(() => {
        if (this.producer === connecting) this.producer = null;
      });
      this.producer = connecting;
    }
    return this.producer;
  }

  private async ensureTopics(): Promise<void> {
    const { partitions, replicationFactor } = this.options;
    const minIsr = this.options.minInsyncReplicas ?? (replicationFactor >= 3 ? 2 : undefined);
    const timeout = this.options.topicTimeoutMs ?? 30_000;
    // Only the missing ones: kafkajs logs an error for every topic that already exists, on every start.
    const existing = new Set(await this.admin.listTopics());
    const missing = this.topics.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      // Returns false without waiting for leaders when another process created one first; hence the own wait.
      await this.admin.createTopics({
        topics: missing.map((topic) => ({
          topic,
          numPartitions: partitions,
          replicationFactor,
          configEntries: minIsr ? [{ name: 'min.insync.replicas', value: String(minIsr) }] : [],
        })),
        waitForLeaders: true,
        timeout,
      });
    }
    const deadline = Date.now() + timeout;
    for (;;) {
      const pending = await this.topicsWithoutLeaders();
      if (pending.length === 0) return;
      if (Date.now() > deadline) {
        throw new Error(`Kafka topics without partition leaders: ${pending.join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  private async topicsWithoutLeaders(): Promise<string[]> {
    let metadata: Awaited<ReturnType<Admin['fetchTopicMetadata']>>;
    try {
      metadata = await this.admin.fetchTopicMetadata({ topics: [...this.topics] });
    } catch {
      // Right after creation a topic can still be unknown to the broker answering the metadata request.
      return [...this.topics];
    }
    const pending: string[] = [];
    for (const topic of this.topics) {
      const found = metadata.topics.find((t) => t.name === topic);
      if (!found || found.partitions.length === 0 || found.partitions.some((p) => p.leader < 0)) {
        pending.push(topic);
      } else if (found.partitions.length !== this.options.partitions) {
        // Left as it is: changing the count would move streams to other partitions and break their order.
        this.log('warn', 'topic exists with another partition count', {
          topic,
          partitions: found.partitions.length,
          configured: this.options.partitions,
        });
      }
    }
    return pending;
  }

  private log(
    level: KafkaBusLogEntry['level'],
    message: string,
    detail?: Record<string, unknown>,
    error?: unknown,
  ): void {
    if (RANK[level] > this.level) return;
    this.onLog({ level, message, ...(detail ? { detail } : {}), ...(error === undefined ? {} : { error }) });
  }

  private forwardKafkaLog({ namespace, level, log }: LogEntry): void {
    const { message, timestamp: _timestamp, logger: _logger, stack: _stack, ...detail } = log;
    this.onLog({
      level: FROM_KAFKAJS.get(level) ?? 'error',
      message: `kafkajs ${namespace}: ${message}`,
      detail,
    });
  }
}

function decode(value: Buffer | null): StoredEvent | null {
  if (!value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch {
    return null;
  }
  return isStoredEvent(parsed) ? parsed : null;
}

function isStoredEvent(value: unknown): value is StoredEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.eventId === 'string' &&
    typeof e.type === 'string' &&
    typeof e.streamId === 'string' &&
    Number.isInteger(e.streamVersion) &&
    Number.isInteger(e.globalPosition) &&
    typeof e.occurredAt === 'string' &&
    (e.accountId === null || typeof e.accountId === 'string') &&
    'data' in e &&
    typeof e.metadata === 'object' &&
    e.metadata !== null
  );
}
