import { dirname, resolve } from 'node:path';
import * as v from 'valibot';
import { ConfigError, expandEnv, type MissingVariable } from './expand-env.js';
import { describeIssues } from './issue-message.js';
import { missingVariableProblems, resolveLedgerPath } from './load.js';
import { parseConfigText, readConfigText } from './read-text.js';
import { LedgerSchema } from './schema.js';

/** The config with nothing but its ledger, for {@link ledgerPathOf}. */
const LedgerOnly = v.object({ ledger: LedgerSchema });

/**
 * The ledger file a config names (undefined for `ledger: false`), reading nothing else: `usage`
 * must not need every upstream's API key in its environment to find the usage file.
 */
export function ledgerPathOf(path: string, env: Record<string, string | undefined>): string | undefined {
  const raw = parseConfigText(readConfigText(path), path);
  const ledger = typeof raw === 'object' && raw !== null ? (raw as { ledger?: unknown }).ledger : undefined;
  const missing: MissingVariable[] = [];
  const expanded = expandEnv({ ledger }, env, missing);
  const result = v.safeParse(LedgerOnly, expanded);
  const problems = [...missingVariableProblems(missing), ...(result.success ? [] : describeIssues(result.issues, LedgerOnly, expanded, new Set(missing.map((item) => item.path))))];
  if (problems.length > 0 || !result.success) throw ConfigError.of(path, problems);
  const { ledger: parsed } = result.output;
  return parsed ? resolveLedgerPath(parsed.path, { baseDir: dirname(resolve(path)) }) : undefined;
}
