import type { Redis } from 'ioredis';

/** The pub/sub channel on which key changes are announced to every gateway sharing one Redis. */
export const KEY_CHANGES_CHANNEL = 'llm-gateway:keys';

/**
 * Key changes over Redis: a gateway (its admin API) or the CLI publishes a key's name after
 * changing it; every gateway subscribed drops what it cached, so a revocation holds at once
 * rather than within the cache's TTL. While Redis is down, messages are lost and the TTL is the
 * bound again.
 */
export class RedisKeyChanges {
  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis | undefined,
  ) {}

  /** Opens the channel on `url`; `onChange` (when given) is told each change, this process's own included. */
  static async open(url: string, onError: (error: unknown) => void, onChange?: (name: string) => void): Promise<RedisKeyChanges> {
    const { connectRedis } = await import('../store/redis/state-store.js');
    const redis = await connectRedis(url, onError);
    if (!onChange) return new RedisKeyChanges(redis, undefined);
    const subscriber = redis.duplicate();
    subscriber.on('error', onError);
    subscriber.on('message', (_channel: string, name: string) => onChange(name));
    try {
      if (subscriber.status === 'wait') await subscriber.connect();
      await subscriber.subscribe(KEY_CHANGES_CHANNEL);
    } catch (error) {
      subscriber.disconnect();
      redis.disconnect();
      throw error;
    }
    return new RedisKeyChanges(redis, subscriber);
  }

  /** Announces a change of key `name` (a failure is the caller's to log: the TTL still bounds it). */
  async publish(name: string): Promise<void> {
    await this.redis.publish(KEY_CHANGES_CHANNEL, name);
  }

  async close(): Promise<void> {
    if (this.subscriber) await this.subscriber.quit().catch(() => this.subscriber?.disconnect());
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
