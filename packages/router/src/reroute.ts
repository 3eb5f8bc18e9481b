import type { LlmErrorKind } from '@llm/core';
import type { RouteRule } from './config.js';

/** The route fields naming where a request goes again after an error of each kind. */
const REROUTES: readonly { kind: LlmErrorKind; field: 'contextFallback' | 'contentPolicyFallback' }[] = [
  { kind: 'context_length', field: 'contextFallback' },
  { kind: 'content_filter', field: 'contentPolicyFallback' },
];

/** Whether `rule` still offers a reroute (each is taken once per request: `taken` holds the used kinds). */
export function canReroute(rule: RouteRule, taken: ReadonlySet<string>): boolean {
  return REROUTES.some((item) => rule[item.field] !== undefined && !taken.has(item.kind));
}

/**
 * The model to route again after an upstream error of `kind` (a context window too small, a
 * content policy refusal), when `rule` names one not yet taken; marks it taken.
 */
export function rerouteFor(kind: LlmErrorKind, rule: RouteRule, taken: Set<string>): string | undefined {
  const item = REROUTES.find((entry) => entry.kind === kind);
  const model = item && !taken.has(kind) ? rule[item.field] : undefined;
  if (model !== undefined) taken.add(kind);
  return model;
}
