import type { CodecContext, LlmFinishReason } from '@llm/core';
import { reportLoss } from '@llm/core';
import { PROTOCOL } from './protocol.js';

/** Wire `finish_reason` -> canonical. @see https://platform.openai.com/docs/api-reference/chat/object */
export function decodeFinishReason(raw: string): LlmFinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

/**
 * The finish reason of a choice, looking at what it holds: `stop` on a turn that called tools is
 * `tool_calls` (some compatible servers say `stop` there, and a Claude client would then never
 * run the tool), and `stop` with a refusal (`message.refusal` set) is `refusal`.
 */
export function decodeChoiceFinish(raw: string, calledTools: boolean, refused: boolean): LlmFinishReason {
  if (raw === 'stop') {
    if (calledTools) return 'tool_calls';
    if (refused) return 'refusal';
  }
  return decodeFinishReason(raw);
}

const WIRE = new Set(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);

/**
 * What a Chat client is told when a refusal comes with no text at all (a Claude classifier
 * refusal is `stop_reason: "refusal"` and nothing else): core's shared fallback, so that
 * `message.refusal` / `delta.refusal` is a non-empty string a client can test and show.
 */
export { REFUSAL_FALLBACK_TEXT } from '@llm/core';

/**
 * Canonical finish reason -> wire; the raw value wins when it is a chat value. Chat has five
 * words, so four canonical reasons borrow one, each chosen so that no unfinished or refused
 * answer reads as a normal `stop` (openai-chat README, "Finish reasons"):
 * - `refusal` -> `content_filter`, the one Chat word for "the model withheld its answer" (a Chat
 *   upstream's own `stop` + `refusal` is written back as it came);
 * - `pause` and `context_exceeded` -> `length`: the answer is cut short, not complete;
 * - `error` -> `stop` with a `lossy-conversion` warning: no Chat word says "failed", and the
 *   content that was made is still the answer;
 * - `other` -> `stop`: nothing is known to say more.
 * `pause` and `error` are reported through `context` at `path`.
 */
export function encodeFinishReason(reason: LlmFinishReason, raw: string | undefined, context?: CodecContext, path = 'finish_reason'): string {
  // `stop` read as tool_calls or refusal (decodeChoiceFinish) is written back as it came.
  if (raw !== undefined && WIRE.has(raw) && (decodeFinishReason(raw) === reason || (raw === 'stop' && (reason === 'tool_calls' || reason === 'refusal'))))
    return raw;
  switch (reason) {
    case 'stop':
    case 'other':
      return 'stop';
    case 'error':
      reportLoss(context, {
        code: 'lossy-conversion',
        path,
        message: `Chat has no finish_reason for a generation that failed (${raw ?? 'error'}): sent as stop`,
        protocol: PROTOCOL,
      });
      return 'stop';
    case 'pause':
      reportLoss(context, {
        code: 'lossy-conversion',
        path,
        message: `Chat has no finish_reason for a paused turn (${raw ?? 'pause'}): sent as length`,
        protocol: PROTOCOL,
      });
      return 'length';
    case 'length':
    case 'context_exceeded':
      return 'length';
    case 'tool_calls':
      return 'tool_calls';
    case 'refusal':
    case 'content_filter':
      return 'content_filter';
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}
