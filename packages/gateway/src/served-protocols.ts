import type { ProtocolId } from '@llm/core';

/**
 * The protocols of the gateway's mock upstreams, plain (non-cloud) upstreams and the CLI's
 * protocol flags: HTTP with JSON bodies and SSE streams. Bedrock Converse needs AWS event-stream
 * framing and SigV4: it is served to clients ({@link ClientProtocol}) and called upstream only
 * through `flavor: bedrock` (src/clouds).
 */
export type ServedProtocol = Exclude<ProtocolId, 'bedrock-converse'>;

/** Every {@link ServedProtocol}. */
export const SERVED_PROTOCOLS: readonly ServedProtocol[] = ['openai-chat', 'openai-responses', 'claude', 'gemini'];

/**
 * The protocols clients may speak to the gateway: the served four and Bedrock Converse, whose
 * answers the gateway writes as AWS event streams (src/server/converse-answer.ts). Mock upstreams
 * and the CLI's protocol flags stay with {@link ServedProtocol}.
 */
export type ClientProtocol = ServedProtocol | 'bedrock-converse';
