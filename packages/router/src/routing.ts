import type { BalancingStrategy, RouteRule, RouteTarget } from './config.js';

/** One upstream of a resolved route and the model it gets. */
export interface ResolvedTarget {
  name: string;
  model: string;
  weight?: number;
}

/** A resolved route: its upstreams in the order written, each with the model to send. */
export interface ResolvedRoute {
  rule: RouteRule;
  targets: ResolvedTarget[];
  /** The targets' names. */
  upstreams: string[];
  /** The route's model (`rule.model`, else the client's): what a target without its own gets. */
  model: string;
  /** Set when the route balances its upstreams (a `strategy`, or a `weight` on any entry). */
  strategy?: BalancingStrategy;
}

/** True when `model` matches `pattern` (`*` any run of characters, `?` one character). */
export function matchesGlob(pattern: string, model: string): boolean {
  if (!pattern.includes('*') && !pattern.includes('?')) return pattern === model;
  let source = '^';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`${source}$`, 's').test(model);
}

/**
 * The first rule matching `model`, exact names before globs (so `gpt-4o` can be special-cased
 * ahead of a `gpt-*` rule written earlier).
 */
export function resolveRoute(routes: readonly RouteRule[], model: string): ResolvedRoute | undefined {
  const rule = routes.find((item) => item.match === model) ?? routes.find((item) => matchesGlob(item.match, model));
  if (!rule) return undefined;
  const routeModel = rule.model ?? model;
  const entries = Array.isArray(rule.upstream) ? rule.upstream : [rule.upstream];
  const targets = entries.map((entry) => resolvedTarget(entry, routeModel));
  const resolved: ResolvedRoute = { rule, targets, upstreams: targets.map((target) => target.name), model: routeModel };
  const strategy = rule.strategy ?? (targets.some((target) => target.weight !== undefined) ? 'weighted' : undefined);
  if (strategy) resolved.strategy = strategy;
  return resolved;
}

function resolvedTarget(entry: string | RouteTarget, routeModel: string): ResolvedTarget {
  if (typeof entry === 'string') return { name: entry, model: routeModel };
  const target: ResolvedTarget = { name: entry.name, model: entry.model ?? routeModel };
  if (entry.weight !== undefined) target.weight = entry.weight;
  return target;
}

/** Upstream names of {@link modelFamilyPreset}, one per protocol. */
export interface ModelFamilyUpstreams {
  /** Upstream speaking OpenAI Responses (reasoning o-series, codex). */
  openaiResponses?: string;
  /** Upstream speaking OpenAI Chat (`gpt*`). */
  openaiChat?: string;
  /** Upstream speaking Anthropic Messages (`claude*`). */
  claude?: string;
  /** Upstream speaking Gemini (`gemini*`). */
  gemini?: string;
}

/**
 * Model-family defaults as route rules: reasoning o-series and codex
 * models -> Responses, `gpt*` -> Chat, `claude*` -> Anthropic, `gemini*` -> Gemini. Rules are
 * only emitted for the upstreams given.
 */
export function modelFamilyPreset(upstreams: ModelFamilyUpstreams): RouteRule[] {
  const rules: RouteRule[] = [];
  if (upstreams.openaiResponses) {
    for (const match of ['o1*', 'o3*', 'o4*', '*codex*', 'gpt-5*-pro*']) rules.push({ match, upstream: upstreams.openaiResponses });
  }
  if (upstreams.openaiChat) rules.push({ match: 'gpt*', upstream: upstreams.openaiChat }, { match: 'chatgpt*', upstream: upstreams.openaiChat });
  if (upstreams.claude) rules.push({ match: 'claude*', upstream: upstreams.claude });
  if (upstreams.gemini) rules.push({ match: 'gemini*', upstream: upstreams.gemini });
  return rules;
}
