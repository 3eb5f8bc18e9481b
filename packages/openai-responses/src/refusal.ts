import { REFUSAL_FALLBACK_TEXT, type LlmAssistantContent, type LlmChoice, type LlmRefusalPart } from '@llm/core';

/**
 * Responses signals a refusal with a `refusal` content part in a `completed` response (what
 * OpenAI's own models send; `incomplete_details.reason` has no refusal value): an answer whose
 * finish is `refusal` but whose content holds no refusal part gets core's `REFUSAL_FALLBACK_TEXT` (the words Chat clients get too) after
 * what it has, so the client never reads a partial or empty answer as a normal one.
 * Returns `undefined` when nothing is missing (the common case, no copy).
 */
export function missingRefusal(choice: LlmChoice | undefined): LlmRefusalPart | undefined {
  if (choice?.finishReason !== 'refusal' || hasRefusal(choice.content)) return undefined;
  return { type: 'refusal', text: REFUSAL_FALLBACK_TEXT };
}

function hasRefusal(content: readonly LlmAssistantContent[]): boolean {
  for (const part of content) if (part.type === 'refusal') return true;
  return false;
}
