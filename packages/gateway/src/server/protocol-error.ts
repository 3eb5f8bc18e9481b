import { bedrockConverse } from '@llm/bedrock-converse';
import { LlmError, errorKindForStatus } from '@llm/core';
import type { ClientProtocol } from '../served-protocols.js';
import type { RouterReply } from '@llm/router';
import { claudeErrorBody } from '../mock/claude.js';
import { geminiErrorBody } from '../mock/gemini.js';
import { openaiErrorBody } from '../mock/openai-chat.js';

/**
 * An error answered by the gateway itself (401, 404, 413...) in the client's protocol shape.
 * The shapes are the same ones the mock upstream writes, from the protocol digests.
 */
export function protocolError(protocol: ClientProtocol | undefined, status: number, message: string): RouterReply {
  if (protocol === 'bedrock-converse') return converseError(status, message);
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(errorBody(protocol, status, message)) };
}

function errorBody(protocol: Exclude<ClientProtocol, 'bedrock-converse'> | undefined, status: number, message: string): Record<string, unknown> {
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

/**
 * Converse's error shape, as the AWS SDK reads it: `{message}` and the error's name in
 * `x-amzn-errortype` (by the status's kind: a 401 is `UnrecognizedClientException`), status kept.
 */
function converseError(status: number, message: string): RouterReply {
  const error = new LlmError({ kind: errorKindForStatus(status), message, status, protocol: 'bedrock-converse' });
  const wire = bedrockConverse.error.encode(error);
  return { status, headers: { 'content-type': 'application/json', ...wire.headers }, body: JSON.stringify(wire.body) };
}
