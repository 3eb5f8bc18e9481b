import { dirname, resolve } from 'node:path';
import * as v from 'valibot';
import { ConfigError, expandEnv, type MissingVariable } from './expand-env.js';
import { describeIssues } from './issue-message.js';
import { missingVariableProblems, resolveLedgerPath } from './load.js';
import { parseConfigText, readConfigText } from './read-text.js';
import { LedgerSchema, StoreSchema } from './schema.js';

/** The config with nothing but its ledger and store, for {@link ledgerOf}. */
const LedgerOnly = v.object({ ledger: LedgerSchema, store: StoreSchema });

/** Where a config's usage ledger is: a SQLite file, or a PostgreSQL database (`store.postgres`). */
export type LedgerLocation = { path: string } | { postgres: string };

/**
 * The ledger file a config names (undefined for `ledger: false`), reading nothing else: `usage`
 * must not need every upstream's API key in its environment to find the usage file.
 */
export function ledgerPathOf(path: string, env: Record<string, string | undefined>): string | undefined {
  const location = ledgerOf(path, env);
  return location && 'path' in location ? location.path : undefined;
}

/**
 * The ledger a config names (undefined for `ledger: false`): its PostgreSQL database when
 * `store.postgres` is set, else its SQLite file. Reads nothing else of the config.
 */
export function ledgerOf(path: string, env: Record<string, string | undefined>): LedgerLocation | undefined {
  const raw = parseConfigText(readConfigText(path), path);
  const { ledger, store } = typeof raw === 'object' && raw !== null ? (raw as { ledger?: unknown; store?: unknown }) : { ledger: undefined, store: undefined };
  const missing: MissingVariable[] = [];
  const expanded = expandEnv({ ledger, store }, env, missing);
  const result = v.safeParse(LedgerOnly, expanded);
  const problems = [
    ...missingVariableProblems(missing),
    ...(result.success ? [] : describeIssues(result.issues, LedgerOnly, expanded, new Set(missing.map((item) => item.path)))),
  ];
  if (problems.length > 0 || !result.success) throw ConfigError.of(path, problems);
  const { ledger: parsed, store: stores } = result.output;
  if (!parsed) return undefined;
  if (stores?.postgres) return { postgres: stores.postgres };
  return { path: resolveLedgerPath(parsed.path, { baseDir: dirname(resolve(path)) }) };
}
