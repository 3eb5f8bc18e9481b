import { MemoryStateStore, RoutingState, type RoutingEventChannel, type StateStore } from '@llm/router';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import { type Ledger, openLedger } from '../ledger/ledger.js';
import type { Readiness } from '../server/readiness.js';
import { ResponseStore } from '../server/response-store.js';
import type { AnswerStore } from './answer-store.js';
import { reasonOf } from './postgres/connect.js';

/**
 * Everything the gateway keeps beyond one request, behind one seam: the usage ledger, stored
 * Responses answers and the router's continuation state. The embedded default needs nothing
 * installed (a SQLite ledger file, answers and state in memory); `store.postgres` moves the
 * ledger and answers to PostgreSQL, `store.redis` the continuation state and the routing state
 * (circuits, latencies) to Redis, so every gateway sharing them serves the same conversations,
 * skips the same failing upstreams and keeps one usage report.
 */
export interface GatewayStores {
  /** Undefined with `ledger: false`. */
  ledger: Ledger | undefined;
  answers: AnswerStore;
  state: StateStore;
  /** Circuits, latencies, in-flight counts: shared with the other gateways through Redis when configured. */
  routing: RoutingState;
  /** Writes what is queued and lets go of the servers. */
  close(): Promise<void>;
}

/**
 * Opens the stores a config names; a shared one's driver is loaded only then. Migrates the
 * PostgreSQL schema. Throws `StoreStartError` when a configured server cannot be reached: a
 * gateway that would split its usage or lose conversations must not start quietly.
 * Shared stores add their readiness checks (`postgres`, `redis`) to `readiness`.
 */
export async function openStores(config: GatewayConfig, logger: Logger, readiness: Readiness): Promise<GatewayStores> {
  const closers: (() => void | Promise<void>)[] = [];
  try {
    let ledger: Ledger | undefined;
    let answers: AnswerStore = new ResponseStore();
    let state: StateStore = new MemoryStateStore();
    let channel: RoutingEventChannel | undefined;
    // Servers first, the SQLite file last: a start that fails leaves no file behind.
    if (config.store?.redis) {
      const { connectRedis, RedisStateStore } = await import('./redis/state-store.js');
      let down = false;
      const redis = await connectRedis(config.store.redis, (error) => {
        if (!down) logger.error({ err: reasonOf(error) }, 'redis unreachable; previous_response_id lookups answer 503 until it returns');
        down = true;
      });
      redis.on('ready', () => {
        if (down) logger.info('redis reachable again');
        down = false;
      });
      const redisState = new RedisStateStore(redis, undefined, (error) => logger.warn({ err: reasonOf(error) }, 'redis lookup failed'));
      closers.push(() => redisState.close());
      readiness.add({ name: 'redis', ready: () => redisState.healthy });
      state = redisState;
      const { RedisRoutingChannel } = await import('./redis/routing-channel.js');
      const routingChannel = await RedisRoutingChannel.open(redis, (error) => {
        // Once per outage: the connection's own handler above reports it down.
        if (!down) logger.warn({ err: reasonOf(error) }, 'redis routing event not shared');
      });
      closers.unshift(() => routingChannel.close());
      channel = routingChannel;
    }
    if (config.store?.postgres) {
      const { openPostgresStores } = await import('./postgres/open.js');
      const postgres = await openPostgresStores(config.store.postgres, logger, { ledger: config.ledger !== false, spoolPath: config.store.spool });
      closers.push(() => postgres.close());
      readiness.add({ name: 'postgres', ready: () => postgres.healthy });
      ledger = postgres.ledger;
      answers = postgres.answers;
    } else if (config.ledger) {
      ledger = openLedger(config.ledger.path, {
        onError: (error) => logger.error({ err: reasonOf(error) }, 'usage ledger failed; requests continue without it'),
      });
      closers.push(() => ledger?.close());
    }
    return {
      ledger,
      answers,
      state,
      routing: new RoutingState({ circuitBreaker: config.circuitBreaker || undefined, channel }),
      async close() {
        for (const close of closers) await close();
      },
    };
  } catch (error) {
    for (const close of closers) await close();
    throw error;
  }
}
