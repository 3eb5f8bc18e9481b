import type { LlmRequest, ProtocolId } from '@llm/core';
import type { PolicyConfig } from './config.js';
import { applyContextStrategy } from './policies/context-strategy.js';
import { dedupeHistoryReplay } from './policies/history-replay.js';
import { guardLoops } from './policies/loop-guard.js';
import { limitToolsOnReadOnlyIntent } from './policies/read-only-intent.js';
import { SYSTEM_TEXT_SEPARATOR, joinSystemText, stripSystemReminders } from './policies/system-text.js';
import { dropTextBesideToolResults } from './policies/text-beside-tool-results.js';
import { latestTurnHasToolResults } from './policies/turns.js';

export { LOOP_GUARD_INSTRUCTION, UP_FRONT_LOOP_GUARD_INSTRUCTION } from './policies/loop-guard.js';
export { DEFAULT_READ_WORDS, DEFAULT_WRITE_WORDS } from './policies/read-only-intent.js';
export { normaliseMessageContent } from './policies/lenient-content.js';

/** What {@link applyPolicies} needs besides the request. */
export interface PolicyContext {
  /** Protocol of the upstream the request goes to (context strategies). */
  target: ProtocolId;
}

/**
 * True when some canonical policy is switched on (an empty `policies: {}` changes nothing, so it
 * keeps the fast path). `lenientContent` and `estimateStreamUsage` are not canonical rewrites: one
 * rewrites the client's body before decoding, the other the answer's stream.
 */
export function hasActivePolicies(policies: PolicyConfig | undefined): boolean {
  if (!policies) return false;
  return Boolean(
    policies.stripSystemReminders ||
      policies.joinSystemText ||
      policies.dedupeHistoryReplay ||
      policies.dropTextBesideToolResults ||
      (policies.contextStrategy !== undefined && policies.contextStrategy !== 'full') ||
      policies.toolChoiceNoneAfterToolResults ||
      policies.loopGuard ||
      policies.readOnlyTools,
  );
}

/**
 * Runs the opt-in policies over a canonical request, in a fixed order (all off unless configured):
 * 1. `stripSystemReminders`: `<system-reminder>` blocks removed from system text, user text and tool results;
 * 2. `joinSystemText`: the text blocks of a system message joined with a separator;
 * 3. `dedupeHistoryReplay`: replayed user messages dropped (an immediate repeat, or with
 *    `answered` any text already answered);
 * 4. `dropTextBesideToolResults`: plain user text in a turn carrying tool results dropped;
 * 5. `contextStrategy`: reasoning and tool segments of earlier turns filtered;
 * 6. `toolChoiceNoneAfterToolResults`: `tool_choice: none` when the latest turn carries tool results;
 * 7. `loopGuard`: an instruction appended when the last two assistant turns made the same calls,
 *    and with `up-front` one in the system prompt of every request with tools;
 * 8. `readOnlyTools`: tools limited to the allowlist when the latest user text only asks to read.
 */
export function applyPolicies(request: LlmRequest, policies: PolicyConfig | undefined, context: PolicyContext): LlmRequest {
  if (!policies) return request;
  if (policies.stripSystemReminders) stripSystemReminders(request);
  if (policies.joinSystemText) joinSystemText(request, policies.joinSystemText === true ? SYSTEM_TEXT_SEPARATOR : policies.joinSystemText);
  if (policies.dedupeHistoryReplay) {
    request.messages = dedupeHistoryReplay(request.messages, policies.dedupeHistoryReplay === 'answered' ? 'answered' : 'immediate');
  }
  if (policies.dropTextBesideToolResults) request.messages = dropTextBesideToolResults(request.messages);
  if (policies.contextStrategy) applyContextStrategy(request, policies.contextStrategy, context.target);
  if (policies.toolChoiceNoneAfterToolResults && request.tools?.length && latestTurnHasToolResults(request.messages)) {
    request.toolChoice = { type: 'none' };
  }
  if (policies.loopGuard) guardLoops(request, policies.loopGuard === 'up-front' ? 'up-front' : 'on-repeat');
  if (policies.readOnlyTools) limitToolsOnReadOnlyIntent(request, policies.readOnlyTools);
  return request;
}
