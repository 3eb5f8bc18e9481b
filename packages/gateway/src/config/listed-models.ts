import { resolveRoute } from '@llm/router';
import type { RouteRule } from '../router-contract.js';

function sameUpstreams(a: RouteRule['upstream'], b: readonly string[]): boolean {
  const list = (Array.isArray(a) ? a : [a]).map((entry) => (typeof entry === 'string' ? entry : entry.name));
  return list.length === b.length && list.every((name, i) => name === b[i]);
}

/**
 * The model ids the gateway's model lists (`/v1/models`, Anthropic's and Gemini's) name, so a
 * client's model picker finds something even when every route is a glob: the exact route names,
 * then each route's target model where asking for it by name reaches that same route's upstream
 * and model (`{ match: "*", upstream: openai, model: gpt-4.1 }` lists `gpt-4.1`; a target another
 * rule would send elsewhere is left out, since picking it would fail), then `models:` as written.
 */
export function listedModels(routes: readonly RouteRule[], models: readonly string[] = []): string[] {
  const ids = routes.filter((rule) => !/[*?]/.test(rule.match)).map((rule) => rule.match);
  for (const rule of routes) {
    if (rule.model === undefined) continue;
    const resolved = resolveRoute(routes, rule.model);
    if (resolved && resolved.model === rule.model && sameUpstreams(rule.upstream, resolved.upstreams)) ids.push(rule.model);
  }
  return [...new Set([...ids, ...models])];
}

/** `models:` entries no route matches: listing them would offer models that answer 404. */
export function unroutedModelProblems(routes: readonly RouteRule[], models: readonly string[] = []): string[] {
  return models.flatMap((model, i) => (resolveRoute(routes, model) ? [] : [`models.${i}: no route matches this model`]));
}

/** `contextFallback` / `contentPolicyFallback` models no route matches: the reroute could never be taken. */
export function unroutedFallbackProblems(rules: readonly RouteRule[], routes: readonly RouteRule[] = rules): string[] {
  return rules.flatMap((rule, i) =>
    (['contextFallback', 'contentPolicyFallback'] as const).flatMap((field) => {
      const model = rule[field];
      return model === undefined || resolveRoute(routes, model) ? [] : [`routes.${i}.${field}: no route matches this model`];
    }),
  );
}
