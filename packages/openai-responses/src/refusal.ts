import type { LlmAssistantContent, LlmChoice, LlmRefusalPart } from '@llm/core';

/**
 * The refusal text a Responses client gets when an answer ended in `refusal` without one (a Claude
 * classifier stop, `stop_reason: "refusal"`, carries no explanation in its content). The same
 * words as the Chat codec's fallback, so a refusal reads alike to every OpenAI client.
 */
export const REFUSAL_TEXT = 'The model declined to respond to this request.';

/**
 * Responses signals a refusal with a `refusal` content part in a `completed` response (what
 * OpenAI's own models send; `incomplete_details.reason` has no refusal value): an answer whose
 * finish is `refusal` but whose content holds no refusal part gets {@link REFUSAL_TEXT} after
 * what it has, so the client never reads a partial or empty answer as a normal one.
 * Returns `undefined` when nothing is missing (the common case, no copy).
 */
export function missingRefusal(choice: LlmChoice | undefined): LlmRefusalPart | undefined {
  if (choice?.finishReason !== 'refusal' || hasRefusal(choice.content)) return undefined;
  return { type: 'refusal', text: REFUSAL_TEXT };
}

function hasRefusal(content: readonly LlmAssistantContent[]): boolean {
  for (const part of content) if (part.type === 'refusal') return true;
  return false;
}
