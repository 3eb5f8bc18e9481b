import type { Redis } from 'ioredis';
import type { RoutingEvent, RoutingEventChannel } from '@llm/router';

/** The pub/sub channel every gateway on one Redis shares routing events on. */
export const ROUTING_CHANNEL = 'llm-gateway:routing';
/** The list of recent circuit events a gateway replays at start (latency samples are not kept). */
export const ROUTING_LOG_KEY = 'llm-gateway:routing:circuit-log';
/** Circuit events kept for a starting gateway (default 1000): enough for every circuit's window. */
export const ROUTING_LOG_MAX = 1_000;
/** The log expires this long after its last event (default 1 h): circuits older than that are long closed. */
export const ROUTING_LOG_TTL_MS = 3_600_000;

/** What goes over the channel: the event and the id of the gateway that saw it. */
interface Envelope {
  from: string;
  event: RoutingEvent;
}

/**
 * The router's {@link RoutingEventChannel} on Redis: events are published (never awaited: a
 * request does not wait on Redis) and received by every other gateway through a subscription on
 * its own connection. Circuit events are also appended to a capped list that a gateway replays
 * when it starts, so one started after a circuit opened sees it open too.
 *
 * Staleness: while Redis is up, another gateway's event arrives within one pub/sub delivery
 * (milliseconds). While it is down, events are dropped, not queued: each gateway keeps its own
 * circuits until Redis returns, when sharing resumes with the next events.
 */
export class RedisRoutingChannel implements RoutingEventChannel {
  private readonly id = crypto.randomUUID();
  private receive: ((event: RoutingEvent) => void) | undefined;
  /** The circuit log read at start, replayed once to the first subscriber. */
  private backlog: string[] = [];

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * A channel on `redis` (its publishing connection): opens a subscribing connection and reads
   * the circuit log, which `subscribe` replays.
   */
  static async open(redis: Redis, onError: (error: unknown) => void): Promise<RedisRoutingChannel> {
    const subscriber = redis.duplicate();
    subscriber.on('error', onError);
    const channel = new RedisRoutingChannel(redis, subscriber, onError);
    subscriber.on('message', (_name: string, text: string) => channel.deliver(text));
    // A copy of the gateway's lazy client (which queues nothing offline) must connect first.
    if (subscriber.status === 'wait') await subscriber.connect();
    await subscriber.subscribe(ROUTING_CHANNEL);
    channel.backlog = await redis.lrange(ROUTING_LOG_KEY, 0, -1);
    return channel;
  }

  publish(event: RoutingEvent): void {
    const text = JSON.stringify({ from: this.id, event } satisfies Envelope);
    const sent =
      event.type === 'latency'
        ? this.redis.publish(ROUTING_CHANNEL, text)
        : this.redis
            .multi()
            .publish(ROUTING_CHANNEL, text)
            .rpush(ROUTING_LOG_KEY, text)
            .ltrim(ROUTING_LOG_KEY, -ROUTING_LOG_MAX, -1)
            .pexpire(ROUTING_LOG_KEY, ROUTING_LOG_TTL_MS)
            .exec();
    sent.catch(this.onError);
  }

  subscribe(receive: (event: RoutingEvent) => void): void {
    this.receive = receive;
    const backlog = this.backlog;
    this.backlog = [];
    for (const text of backlog) this.deliver(text);
  }

  async close(): Promise<void> {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }

  /** Hands another gateway's event to the router; anything malformed is dropped (never thrown). */
  private deliver(text: string): void {
    const envelope = parseEnvelope(text);
    if (!envelope || envelope.from === this.id) return;
    this.receive?.(envelope.event);
  }
}

const EVENT_TYPES = new Set(['failure', 'success', 'probe', 'latency']);

/** The envelope in `text`, or undefined when it is not one (another program on the channel). */
function parseEnvelope(text: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { from, event } = value as Record<string, unknown>;
  if (typeof from !== 'string' || typeof event !== 'object' || event === null) return undefined;
  const { type, upstream, at, ms } = event as Record<string, unknown>;
  if (typeof type !== 'string' || !EVENT_TYPES.has(type) || typeof upstream !== 'string') return undefined;
  if (type === 'latency' ? !Number.isFinite(ms) || (ms as number) < 0 : !Number.isFinite(at)) return undefined;
  return {
    from,
    event: type === 'latency' ? { type, upstream, ms: ms as number } : { type: type as 'failure' | 'success' | 'probe', upstream, at: at as number },
  };
}
