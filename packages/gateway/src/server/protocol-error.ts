import type { ProtocolId } from '@llm/core';
import { claudeError } from '../mock/claude.js';
import { geminiError } from '../mock/gemini.js';
import { openaiError } from '../mock/openai-chat.js';

/**
 * An error answered by the gateway itself (401, 404, 413...) in the client's protocol shape.
 * The shapes are the same ones the mock upstream writes, from the protocol digests.
 */
export function protocolError(protocol: ProtocolId | undefined, status: number, message: string): Response {
  switch (protocol) {
    case 'claude':
      return claudeError(status, message);
    case 'gemini':
      return geminiError(status, message);
    case 'openai-chat':
    case 'openai-responses':
    case undefined:
      return openaiError(status, message);
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}
