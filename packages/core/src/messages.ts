import type { LlmAssistantContent, LlmProviderPart, LlmTextPart, LlmToolResultPart, LlmUserContent } from './content.js';
import type { WithExtensions } from './extensions.js';

/**
 * Instructions for the model. Protocols with a top-level system field (Claude `system`, Gemini
 * `systemInstruction`, Responses `instructions`) get the leading system messages there; a system
 * message later in the conversation stays in place where the target allows it.
 */
export interface LlmSystemMessage extends WithExtensions {
  role: 'system';
  content: LlmTextPart[];
  /** OpenAI's `developer` role: same meaning, kept for OpenAI round trips. */
  developer?: boolean;
  /** Participant name (OpenAI `name`). */
  name?: string;
}

/** A user turn. */
export interface LlmUserMessage extends WithExtensions {
  role: 'user';
  /** Parts; a plain string on the wire becomes one text part with `stringContent` set. */
  content: LlmUserContent[];
  /** True when the wire sent `content` as a bare string (kept for round trips). */
  stringContent?: boolean;
  /** Participant name (OpenAI `name`). */
  name?: string;
}

/** An assistant turn: text, reasoning, tool calls, refusals. */
export interface LlmAssistantMessage extends WithExtensions {
  role: 'assistant';
  content: LlmAssistantContent[];
  /** True when the wire sent `content` as a bare string (kept for round trips). */
  stringContent?: boolean;
  /** Participant name (OpenAI `name`). */
  name?: string;
}

/**
 * Tool results sent back by the client. Claude and Gemini carry them inside a user turn;
 * decoders split them out into this message (results first, as Claude requires) and encoders
 * merge them back.
 */
export interface LlmToolMessage extends WithExtensions {
  role: 'tool';
  content: Array<LlmToolResultPart | LlmProviderPart>;
}

/** One message of the conversation. */
export type LlmMessage = LlmSystemMessage | LlmUserMessage | LlmAssistantMessage | LlmToolMessage;

/** A message's role. */
export type LlmRole = LlmMessage['role'];
