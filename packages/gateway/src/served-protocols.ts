import type { ProtocolId } from '@llm/core';

/**
 * The protocols the gateway serves to clients and calls upstream: HTTP with JSON bodies and SSE
 * streams. Bedrock Converse is a codec the router and `translate` know, but on the wire it needs
 * AWS event-stream framing and SigV4 signing, which the gateway's server and transport do not do
 * yet: its paths answer 404 and the config refuses it as an upstream protocol.
 */
export type ServedProtocol = Exclude<ProtocolId, 'bedrock-converse'>;

/** Every {@link ServedProtocol}. */
export const SERVED_PROTOCOLS: readonly ServedProtocol[] = ['openai-chat', 'openai-responses', 'claude', 'gemini'];
