import type { EventMetadata, NewEvent, StoredEvent } from '../../core/events/envelope.js';
import { streamIdOf } from '../../core/events/envelope.js';
import { ConcurrencyError } from '../../core/events/errors.js';
import type { EventStore } from '../../core/events/event-store.js';
import type { ApiKeyState } from './apikey.js';
import * as apikey from './apikey.js';
import { APIKEY_CATEGORY, type ApiKeyEvent } from './events.js';
import { generateKey, isKeyId, newKeyId } from './key.js';

export const apiKeyStream = (keyId: string): string => streamIdOf(APIKEY_CATEGORY, keyId);

const MAX_ATTEMPTS = 5;

export interface CreateApiKeyInput {
  readonly name: string;
  readonly scopes: readonly string[];
  /** RFC 3339 date-time in the future; omitted or null: the key never expires. */
  readonly expiresAt?: string | null;
}

export interface CreatedApiKey {
  readonly keyId: string;
  readonly name: string;
  /** The full key: returned here once, never stored, never retrievable again. */
  readonly key: string;
  readonly scopes: string[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  /** Stream version after the write: what a caller waits for before reading the read model. */
  readonly version: number;
}

export interface RerolledApiKey {
  readonly keyId: string;
  readonly key: string;
  readonly previousValidUntil: string;
  readonly version: number;
}

/**
 * Command handlers of the keys context: load the stream, decide with the pure aggregate, append with the
 * version read; on a concurrency conflict, read again and decide again. Inputs are validated here too (not
 * only by the gateway's schemas), since the CLI and tests call these directly.
 */
export class ApiKeyCommands {
  constructor(
    private readonly store: EventStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async load(keyId: string): Promise<{ state: ApiKeyState; version: number }> {
    // A malformed id cannot name a stream of ours: answer "absent" without a query.
    if (!isKeyId(keyId)) return { state: apikey.initialApiKey, version: 0 };
    const events = await this.store.readStream(apiKeyStream(keyId));
    return {
      state: apikey.fold(events.map((e) => ({ type: e.type, data: e.data }) as ApiKeyEvent)),
      version: events.at(-1)?.streamVersion ?? 0,
    };
  }

  async create(
    accountId: string,
    input: CreateApiKeyInput,
    metadata: EventMetadata = {},
  ): Promise<CreatedApiKey> {
    const body = (input ?? {}) as Partial<Record<keyof CreateApiKeyInput, unknown>>;
    const name = apikey.validateName(body.name);
    const scopes = apikey.validateScopes(body.scopes);
    const expiresAt = apikey.validateExpiresAt(body.expiresAt, this.now());
    for (let attempt = 1; ; attempt++) {
      const keyId = newKeyId();
      const { key, keyHash, start } = generateKey(keyId);
      const events = apikey.create(apikey.initialApiKey, {
        keyId,
        accountId,
        name,
        scopes,
        keyHash,
        start,
        expiresAt,
      });
      try {
        // 'no_stream': a key id that collides (≈ never, at 95 bits) is refused by the store, and we draw
        // again.
        const result = await this.store.append(
          apiKeyStream(keyId),
          toNew(events, accountId, metadata),
          'no_stream',
        );
        const created = result.events[0] as StoredEvent;
        return {
          keyId,
          name,
          key,
          scopes,
          createdAt: created.occurredAt,
          expiresAt,
          version: result.nextExpectedVersion,
        };
      } catch (err) {
        if (!(err instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  /** Another account's key answers NOT_FOUND, exactly like a key that does not exist. */
  async revoke(
    accountId: string,
    keyId: string,
    metadata: EventMetadata = {},
  ): Promise<{ keyId: string; version: number }> {
    const { version } = await this.update(keyId, (s) => apikey.revoke(s, accountId), metadata);
    return { keyId, version };
  }

  /** A new secret; the current one keeps working for `overlapSeconds` (0–86400, default 3600). */
  async reroll(
    accountId: string,
    keyId: string,
    overlapSeconds: number = apikey.OVERLAP_DEFAULT_SECONDS,
    metadata: EventMetadata = {},
  ): Promise<RerolledApiKey> {
    const overlap = apikey.validateOverlap(overlapSeconds);
    let key = '';
    const { events, version } = await this.update(
      keyId,
      (s) => {
        const fresh = generateKey(keyId);
        key = fresh.key;
        return apikey.reroll(s, accountId, fresh, this.now(), overlap);
      },
      metadata,
    );
    const rerolled = events[0];
    if (rerolled?.type !== 'ApiKeyRerolled') throw new Error('reroll produced no ApiKeyRerolled event');
    return { keyId, key, previousValidUntil: rerolled.data.previousValidUntil, version };
  }

  private async update(
    keyId: string,
    decide: (state: ApiKeyState) => ApiKeyEvent[],
    metadata: EventMetadata,
  ): Promise<{ events: ApiKeyEvent[]; version: number }> {
    for (let attempt = 1; ; attempt++) {
      const { state, version } = await this.load(keyId);
      const events = decide(state);
      if (events.length === 0) return { events, version };
      try {
        const result = await this.store.append(
          apiKeyStream(keyId),
          toNew(events, state.accountId, metadata),
          version,
        );
        return { events, version: result.nextExpectedVersion };
      } catch (err) {
        if (!(err instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }
}

const toNew = (events: readonly ApiKeyEvent[], accountId: string, metadata: EventMetadata): NewEvent[] =>
  events.map((e) => ({ type: e.type, data: e.data, accountId, metadata: { actor: accountId, ...metadata } }));
