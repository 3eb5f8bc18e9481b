import { dirname, resolve } from 'node:path';
import * as v from 'valibot';
import { ConfigError, expandEnv, type MissingVariable } from '../config/expand-env.js';
import { describeIssues } from '../config/issue-message.js';
import { missingVariableProblems, resolveLedgerPath } from '../config/load.js';
import { parseConfigText, readConfigText } from '../config/read-text.js';
import { type GatewayConfig, StoreSchema, VirtualKeysSchema } from '../config/schema.js';

/** Where a config keeps its virtual keys, and where it announces changes (Redis), and its file keys' names. */
export interface KeyLocation {
  store: { path: string } | { postgres: string };
  redis?: string;
  /** The names of the config's own `keys:` (a virtual key may not take one). */
  configKeyNames: Set<string>;
}

const KeysOnly = v.object({ virtualKeys: VirtualKeysSchema, store: StoreSchema });

/**
 * The key store a config file names, reading nothing else of it but its `keys:` names: `keys`
 * commands must not need every upstream's API key in their environment.
 */
export function keyLocationOf(path: string, env: Record<string, string | undefined>): KeyLocation {
  const raw = parseConfigText(readConfigText(path), path);
  const object = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const missing: MissingVariable[] = [];
  const expanded = expandEnv({ virtualKeys: object.virtualKeys, store: object.store }, env, missing);
  const result = v.safeParse(KeysOnly, expanded);
  const problems = [
    ...missingVariableProblems(missing),
    ...(result.success ? [] : describeIssues(result.issues, KeysOnly, expanded, new Set(missing.map((item) => item.path)))),
  ];
  if (problems.length > 0 || !result.success) throw ConfigError.of(path, problems);
  const { virtualKeys, store } = result.output;
  return {
    store: store?.postgres ? { postgres: store.postgres } : { path: resolveLedgerPath(virtualKeys.path, { baseDir: dirname(resolve(path)) }) },
    ...(store?.redis && { redis: store.redis }),
    configKeyNames: configKeyNames(object.keys),
  };
}

/** The names written in a config's `keys:` (entries given as a bare key are labelled by hash: no name to take). */
export function configKeyNames(keys: unknown): Set<string> {
  const names = new Set<string>();
  if (!Array.isArray(keys)) return names;
  for (const entry of keys) {
    if (typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string') names.add((entry as { name: string }).name);
  }
  return names;
}

/** The key store of a loaded config (its paths already resolved). */
export function keyLocationOfConfig(config: Pick<GatewayConfig, 'virtualKeys' | 'store' | 'keys'>): KeyLocation {
  return {
    store: config.store?.postgres ? { postgres: config.store.postgres } : { path: config.virtualKeys.path },
    ...(config.store?.redis && { redis: config.store.redis }),
    configKeyNames: new Set(config.keys.map((key) => key.name)),
  };
}
