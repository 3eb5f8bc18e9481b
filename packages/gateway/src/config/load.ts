import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { modelFamilyPreset } from '@llm/router';
import type { RouterConfig } from '../router-contract.js';
import * as v from 'valibot';
import { ConfigError, expandEnv } from './expand-env.js';
import { issueMessage, issuePath } from './issue-message.js';
import { type GatewayConfig, GatewayConfigSchema } from './schema.js';

const require = createRequire(import.meta.url);

/**
 * Config text as data. JSON is read by `JSON.parse`; anything else (or JSON that does not parse)
 * by the YAML parser, loaded only then: it is the largest module a JSON-configured gateway would
 * otherwise keep in memory for nothing.
 */
function parseText(text: string): unknown {
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      // YAML accepts more (comments, trailing commas are still errors) and words its errors better.
    }
  }
  const yaml = require('yaml') as typeof import('yaml');
  return yaml.parse(text);
}

/** Parses config text (YAML, of which JSON is a subset), expands `${VAR}` and validates it. */
export function parseConfig(text: string, env: Record<string, string | undefined> = process.env, source = 'config'): GatewayConfig {
  let raw: unknown;
  try {
    raw = parseText(text);
  } catch (error) {
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : 'unreadable';
    throw new ConfigError(`${source}: ${first.replace(/:$/, '')}`);
  }
  let expanded: unknown;
  try {
    expanded = expandEnv(raw ?? {}, env);
  } catch (error) {
    throw new ConfigError(`${source}: ${(error as Error).message}`);
  }
  const result = v.safeParse(GatewayConfigSchema, expanded);
  if (!result.success) {
    const issue = result.issues[0];
    throw new ConfigError(`${source}: ${issuePath(issue)}: ${issueMessage(issue)}`);
  }
  const config = result.output;
  config.routes.forEach((route, i) => {
    for (const name of Array.isArray(route.upstream) ? route.upstream : [route.upstream]) {
      if (!(name in config.upstreams)) throw new ConfigError(`${source}: routes.${i}.upstream: names no upstream of upstreams`);
    }
  });
  for (const [family, name] of Object.entries(config.modelFamilies ?? {})) {
    if (name !== undefined && !(name in config.upstreams)) throw new ConfigError(`${source}: modelFamilies.${family}: names no upstream of upstreams`);
  }
  return config;
}

/** Reads and validates a config file. */
export function loadConfigFile(path: string, env: Record<string, string | undefined> = process.env): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  return parseConfig(text, env, path);
}

/** The router's part of a gateway config (hooks and transport are added by the server). */
export function toRouterConfig(config: GatewayConfig): RouterConfig {
  const routes = config.modelFamilies ? [...config.routes, ...modelFamilyPreset(config.modelFamilies)] : config.routes;
  const out: RouterConfig = { upstreams: config.upstreams, routes, policies: config.policies };
  if (config.fetchMedia) out.fetchMedia = config.fetchMedia;
  if (config.countTokens) out.countTokens = config.countTokens;
  if (config.strict !== undefined) out.strict = config.strict;
  if (config.maxRetries !== undefined) out.maxRetries = config.maxRetries;
  if (config.requestDeadlineMs !== undefined) out.requestDeadlineMs = config.requestDeadlineMs;
  if (config.warningsHeader !== undefined) out.warningsHeader = config.warningsHeader;
  return out;
}
