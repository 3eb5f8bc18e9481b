import type { Logger } from 'pino';
import { reasonOf } from '../store/postgres/connect.js';
import { KeyEnforcement, type EnforcementSettings, type KeyLimiter, type KeyPrices } from './key-enforcement.js';
import type { KeyLocation } from './key-location.js';
import { RedisKeyChanges } from './key-changes.js';
import { KeyRegistry } from './key-registry.js';
import { KeyResolver } from './key-resolver.js';
import type { KeyStore } from './key-store.js';
import { SqliteKeyStore } from './sqlite-key-store.js';

/** The key store a location names (PostgreSQL's driver loaded only then). */
export async function openKeyStore(store: KeyLocation['store']): Promise<KeyStore> {
  if ('postgres' in store) {
    const { PostgresKeyStore } = await import('./postgres-key-store.js');
    return PostgresKeyStore.open(store.postgres);
  }
  return new SqliteKeyStore(store.path);
}

/**
 * A registry that writes `location`'s store and announces each change on its Redis, for the CLI.
 * A Redis that cannot be reached is no reason to refuse the change: `warn` is told, and the
 * running gateways see it within their cache's TTL.
 */
export async function openKeyRegistry(location: KeyLocation, warn: (message: string) => void): Promise<{ registry: KeyRegistry; close(): Promise<void> }> {
  const store = await openKeyStore(location.store);
  let changes: RedisKeyChanges | undefined;
  if (location.redis) {
    try {
      changes = await RedisKeyChanges.open(location.redis, () => undefined);
    } catch (error) {
      warn(`${reasonOf(error)}; running gateways see this change within their key cache's TTL (virtualKeys.cacheTtlMs)`);
    }
  }
  const registry = new KeyRegistry(store, { configKeyNames: () => location.configKeyNames, changed: (name) => changes?.publish(name) });
  return {
    registry,
    async close() {
      await changes?.close();
      await store.close();
    },
  };
}

/** Everything a running gateway has of its virtual keys. */
export interface GatewayKeys {
  registry: KeyRegistry;
  resolver: KeyResolver;
  enforcement: KeyEnforcement;
  close(): Promise<void>;
}

/** What {@link openGatewayKeys} needs. */
export interface GatewayKeysOptions {
  location: KeyLocation;
  cacheTtlMs: number;
  /** The config's `keys:` names, now (a reload changes them). */
  configKeyNames(): ReadonlySet<string>;
  limiter: KeyLimiter;
  prices(): KeyPrices;
  settings(): EnforcementSettings;
  logger: Logger;
}

/**
 * Opens a gateway's keys: the store, its cache, the admin API's registry and the enforcement.
 * With Redis, changes from any gateway or the CLI reach this one at once; without, within the
 * cache's TTL.
 */
export async function openGatewayKeys(options: GatewayKeysOptions): Promise<GatewayKeys> {
  const { logger } = options;
  const store = await openKeyStore(options.location.store);
  const onError = (error: unknown) => logger.error({ err: reasonOf(error) }, 'key store unreachable');
  const resolver = new KeyResolver(store, { ttlMs: options.cacheTtlMs, onError });
  let changes: RedisKeyChanges | undefined;
  try {
    await resolver.start();
    if (options.location.redis) {
      changes = await RedisKeyChanges.open(
        options.location.redis,
        (error) => logger.warn({ err: reasonOf(error) }, 'key changes not shared through redis'),
        () => void resolver.invalidate(),
      );
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  const registry = new KeyRegistry(store, {
    configKeyNames: options.configKeyNames,
    changed: async (name) => {
      await resolver.invalidate();
      await changes?.publish(name).catch((error: unknown) => logger.warn({ err: reasonOf(error), key: name }, 'key change not announced through redis'));
    },
  });
  const enforcement = new KeyEnforcement({ ...options, keys: resolver });
  return {
    registry,
    resolver,
    enforcement,
    async close() {
      await changes?.close();
      await store.close();
    },
  };
}
