/**
 * The wire protocols this project speaks. Each has one codec package.
 *
 * | id                 | wire API                                             | package                 |
 * |--------------------|------------------------------------------------------|-------------------------|
 * | `openai-chat`      | OpenAI Chat Completions, `POST /v1/chat/completions` | `@llm/openai-chat`      |
 * | `openai-responses` | OpenAI Responses, `POST /v1/responses`               | `@llm/openai-responses` |
 * | `claude`           | Anthropic Messages, `POST /v1/messages`              | `@llm/claude`           |
 * | `gemini`           | Gemini `models/{model}:generateContent`              | `@llm/gemini`           |
 * | `bedrock-converse` | AWS Bedrock Converse, `POST /model/{id}/converse`    | `@llm/bedrock-converse` |
 */
export type ProtocolId = 'openai-chat' | 'openai-responses' | 'claude' | 'gemini' | 'bedrock-converse';

/** Every {@link ProtocolId}, in a stable order (for matrices and loops). */
export const PROTOCOL_IDS: readonly ProtocolId[] = Object.freeze(['openai-chat', 'openai-responses', 'claude', 'gemini', 'bedrock-converse']);

/** Each protocol's name as its users know it, for messages (`the Claude stream ended before …`). */
export const PROTOCOL_NAMES: Readonly<Record<ProtocolId, string>> = Object.freeze({
  'openai-chat': 'Chat Completions',
  'openai-responses': 'Responses',
  claude: 'Claude',
  gemini: 'Gemini',
  'bedrock-converse': 'Bedrock Converse',
});

/** True when `value` names one of the protocols. */
export function isProtocolId(value: unknown): value is ProtocolId {
  return typeof value === 'string' && (PROTOCOL_IDS as readonly string[]).includes(value);
}

/**
 * Where a piece of opaque provider state came from: the protocol whose provider issued it and,
 * when known, the model. Signatures and encrypted reasoning are only valid for their issuer, so
 * encoders compare origins before replaying state: it goes back only to the provider that issued it.
 */
export interface LlmOrigin {
  /** Protocol of the provider that issued the state. */
  protocol: ProtocolId;
  /** Model that issued it, when the wire said so (responses do, replayed history usually does not). */
  model?: string;
  /**
   * The upstream that issued it, as the router names it (two upstreams may speak one protocol:
   * OpenAI and DeepSeek both speak `openai-chat`).
   */
  provider?: string;
}
