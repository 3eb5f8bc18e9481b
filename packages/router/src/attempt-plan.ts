import { LlmError } from '@llm/core';
import { orderTargets } from './balancing/strategies.js';
import type { RoutingState } from './balancing/routing-state.js';
import type { RouterConfig, UpstreamConfig } from './config.js';
import type { ResolvedRoute, ResolvedTarget } from './routing.js';

/** One upstream call a request may make: the upstream and the model it gets. */
export interface PlannedAttempt {
  name: string;
  upstream: UpstreamConfig;
  model: string;
}

/**
 * The upstreams one request tries, in order: the route's, balanced by its strategy when it has
 * one, without those whose circuit is open (or half-open with its probe out). Throws `overloaded`
 * (503) when every one is cooling down, and `server` for a name no upstream has. A route of one
 * upstream never skips it: with nothing to fall back to, the upstream's own answer (a 429 and its
 * `retry-after`) tells the client more than a 503 would.
 */
export function planAttempts(config: RouterConfig, state: RoutingState, route: ResolvedRoute): PlannedAttempt[] {
  const ordered = route.strategy ? orderTargets(route.strategy, route.targets, state, `route:${route.rule.match}`) : route.targets;
  const breaking = config.circuitBreaker !== false && ordered.length > 1;
  const plan: PlannedAttempt[] = [];
  for (const target of ordered) {
    if (breaking && !state.allows(target.name)) continue;
    plan.push(plannedAttempt(config, target));
  }
  if (plan.length === 0) {
    throw new LlmError({ kind: 'overloaded', message: `every upstream of the route for ${route.rule.match} is cooling down after failures; try again later` });
  }
  return plan;
}

function plannedAttempt(config: RouterConfig, target: ResolvedTarget): PlannedAttempt {
  const upstream = config.upstreams[target.name];
  if (!upstream) throw new LlmError({ kind: 'server', message: `route names unknown upstream ${target.name}` });
  return { name: target.name, upstream, model: target.model };
}

/** The key of the next call to upstream `name`: one of `apiKeys` in turn (round-robin), else `apiKey`. */
export function rotatedKey(upstream: UpstreamConfig, name: string, state: RoutingState): string | undefined {
  const keys = upstream.apiKeys;
  if (!keys || keys.length === 0) return upstream.apiKey;
  return keys[state.turn(`keys:${name}`) % keys.length];
}
