import { dirname, resolve } from 'node:path';
import { modelFamilyPreset } from '@llm/router';
import type { RouteRule, RouterConfig } from '../router-contract.js';
import * as v from 'valibot';
import { duplicateKeyProblems } from './client-keys.js';
import { ConfigError, expandEnv, type MissingVariable } from './expand-env.js';
import { describeIssues } from './issue-message.js';
import { listedModels, unroutedFallbackProblems, unroutedModelProblems } from './listed-models.js';
import { parseConfigText, readConfigText } from './read-text.js';
import { unknownUpstreamReferences } from './references.js';
import { type GatewayConfig, GatewayConfigSchema } from './schema.js';
import { cloudUpstreamProblems } from '../clouds/cloud-config-check.js';
import { routerUpstreams } from '../clouds/cloud-upstreams.js';

/** Where a config's relative paths (the ledger file) resolve from. */
export interface ConfigLocation {
  /** The config file's folder; default: the process's working directory. */
  baseDir?: string;
}

/** `${VAR}`s that are unset, each as a problem line. */
export function missingVariableProblems(missing: readonly MissingVariable[]): string[] {
  return missing.map(({ path, name }) => `${path}: environment variable ${name} is not set`);
}

/** Where ledger rows wait for a shared database at shutdown, by default (beside the config). */
export const DEFAULT_SPOOL_PATH = './gateway-ledger-spool.jsonl';

/** A relative ledger path resolved against the config's folder (`:memory:` is SQLite's, kept). */
export function resolveLedgerPath(path: string, location: ConfigLocation): string {
  return location.baseDir && path !== ':memory:' ? resolve(location.baseDir, path) : path;
}

/**
 * Parses config text (YAML, of which JSON is a subset), expands `${VAR}` and validates it. Every
 * problem is reported at once, in one {@link ConfigError}: unset variables, fields of the wrong
 * shape, unknown fields (with the known field they most likely meant), unknown upstream names.
 */
export function parseConfig(
  text: string,
  env: Record<string, string | undefined> = process.env,
  source = 'config',
  location: ConfigLocation = {},
): GatewayConfig {
  const missing: MissingVariable[] = [];
  const expanded = expandEnv(parseConfigText(text, source), env, missing);
  const result = v.safeParse(GatewayConfigSchema, expanded);
  // A field whose variable is unset is reported as such, not also as the empty value it became.
  const unset = new Set(missing.map((item) => item.path));
  const issues = result.success ? [] : describeIssues(result.issues, GatewayConfigSchema, expanded, unset);
  const problems = [...missingVariableProblems(missing), ...issues, ...unknownUpstreamReferences(expanded)];
  if (result.success) {
    problems.push(
      ...duplicateKeyProblems(result.output.keys),
      ...unroutedModelProblems(routeTable(result.output), result.output.models),
      ...unroutedFallbackProblems(result.output.routes, routeTable(result.output)),
    );
    problems.push(...cloudUpstreamProblems(result.output.upstreams, env));
  }
  if (problems.length > 0 || !result.success) throw ConfigError.of(source, problems);
  const config = result.output;
  if (config.ledger) config.ledger.path = resolveLedgerPath(config.ledger.path, location);
  config.virtualKeys.path = resolveLedgerPath(config.virtualKeys.path, location);
  if (config.store?.postgres) config.store.spool = resolveLedgerPath(config.store.spool ?? DEFAULT_SPOOL_PATH, location);
  return config;
}

/** Reads and validates a config file; its relative paths resolve against its own folder. */
export function loadConfigFile(path: string, env: Record<string, string | undefined> = process.env): GatewayConfig {
  return parseConfig(readConfigText(path), env, path, { baseDir: dirname(resolve(path)) });
}

/** The whole route table: `routes`, then the model-family routes. */
function routeTable(config: GatewayConfig): RouteRule[] {
  return config.modelFamilies ? [...config.routes, ...modelFamilyPreset(config.modelFamilies)] : config.routes;
}

/**
 * The router's part of a gateway config (hooks and transport are added by the server). Cloud
 * upstreams get their router-facing base URLs (`routerUpstreams`), read with `env` (`AWS_REGION`).
 */
export function toRouterConfig(config: GatewayConfig, env: Record<string, string | undefined> = process.env): RouterConfig {
  const routes = routeTable(config);
  const out: RouterConfig = {
    upstreams: routerUpstreams(config.upstreams, env),
    routes,
    policies: config.policies,
    models: listedModels(routes, config.models),
  };
  if (config.fetchMedia) out.fetchMedia = config.fetchMedia;
  if (config.countTokens) out.countTokens = config.countTokens;
  if (config.strict !== undefined) out.strict = config.strict;
  if (config.maxRetries !== undefined) out.maxRetries = config.maxRetries;
  if (config.retry?.baseDelayMs !== undefined) out.retryBaseDelayMs = config.retry.baseDelayMs;
  if (config.retry?.maxDelayMs !== undefined) out.maxRetryDelayMs = config.retry.maxDelayMs;
  if (config.circuitBreaker !== undefined) out.circuitBreaker = config.circuitBreaker;
  if (config.requestDeadlineMs !== undefined) out.requestDeadlineMs = config.requestDeadlineMs;
  if (config.warningsHeader !== undefined) out.warningsHeader = config.warningsHeader;
  return out;
}
