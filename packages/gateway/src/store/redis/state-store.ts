import type { Redis } from 'ioredis';
import type { StateStore } from '@llm/router';
import { reasonOf, StoreStartError } from '../postgres/connect.js';
import { describeServer, storeUnavailable } from '../store-unavailable.js';

/** Default time to live of continuation state: one hour, as the in-memory store keeps it. */
export const DEFAULT_REDIS_STATE_TTL_MS = 3_600_000;
/** Longest wait for one Redis command (default 1 s): a down Redis fails the lookup, never hangs it. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/** Longest wait for the connection at start (default 3 s). */
export const REDIS_CONNECT_TIMEOUT_MS = 3_000;
/** Keys the gateway writes start with this, so a Redis shared with other programs stays tidy. */
export const REDIS_KEY_PREFIX = 'llm-gateway:state:';

/**
 * The router's {@link StateStore} in Redis: `previous_response_id` turns and their owners,
 * shared by every gateway on the same Redis, each entry with a time to live. Values are JSON.
 *
 * Commands are never queued while Redis is down (`enableOfflineQueue: false`): a lookup fails at
 * once with a 503 in the client's protocol; a write is lost (only that turn's continuation).
 * The client reconnects on its own, backing off to one try per 2 s.
 */
export class RedisStateStore implements StateStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlMs = DEFAULT_REDIS_STATE_TTL_MS,
    private readonly onError?: (error: unknown) => void,
  ) {}

  /** True while connected (the readiness check `redis`). */
  get healthy(): boolean {
    return this.redis.status === 'ready';
  }

  async get(key: string): Promise<unknown | undefined> {
    let text: string | null;
    try {
      text = await this.redis.get(REDIS_KEY_PREFIX + key);
    } catch (error) {
      this.onError?.(error);
      throw storeUnavailable('the conversation state (previous_response_id)', 'previous_response_id');
    }
    return text === null ? undefined : (JSON.parse(text) as unknown);
  }

  async set(key: string, value: unknown, ttlMs?: number): Promise<void> {
    await this.redis.set(REDIS_KEY_PREFIX + key, JSON.stringify(value), 'PX', ttlMs ?? this.ttlMs);
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(REDIS_KEY_PREFIX + key);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * A connected Redis client for `url`, with the `ioredis` driver loaded now (only a config naming
 * `store.redis` loads it). A Redis that cannot be reached stops the start with an error naming
 * the server (never its password).
 */
export async function connectRedis(url: string, onConnectionError: (error: unknown) => void): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  // The driver rejects a failed connect with "Connection is closed."; the reason came as an event.
  let reason: unknown;
  const atStart = (error: unknown) => {
    reason = error;
  };
  redis.on('error', atStart);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new StoreStartError(`store.redis: cannot reach ${describeServer(url)}: ${reasonOf(reason ?? error)}`);
  }
  redis.off('error', atStart);
  redis.on('error', onConnectionError);
  return redis;
}
