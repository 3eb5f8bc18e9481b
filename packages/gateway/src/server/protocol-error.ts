import type { ServedProtocol } from '../served-protocols.js';
import type { RouterReply } from '@llm/router';
import { claudeErrorBody } from '../mock/claude.js';
import { geminiErrorBody } from '../mock/gemini.js';
import { openaiErrorBody } from '../mock/openai-chat.js';

/**
 * An error answered by the gateway itself (401, 404, 413...) in the client's protocol shape.
 * The shapes are the same ones the mock upstream writes, from the protocol digests.
 */
export function protocolError(protocol: ServedProtocol | undefined, status: number, message: string): RouterReply {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(errorBody(protocol, status, message)) };
}

function errorBody(protocol: ServedProtocol | undefined, status: number, message: string): Record<string, unknown> {
  switch (protocol) {
    case 'claude':
      return claudeErrorBody(status, message);
    case 'gemini':
      return geminiErrorBody(status, message);
    case 'openai-chat':
    case 'openai-responses':
    case undefined:
      return openaiErrorBody(status, message);
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}
