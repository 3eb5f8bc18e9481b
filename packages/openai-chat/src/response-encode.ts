import type { CodecContext, LlmChoice, LlmOrigin, LlmResponse, LlmTokenLogprob } from '@llm/core';
import { CODE_EXECUTION_LOSS } from './code-execution-loss.js';
import {
  isCodeExecutionPart,
  isMcpPart,
  reportCodeExecutionDropped,
  joinPath,
  reportForeignPartState,
  reportLoss,
  reportMcpPartDropped,
  toolArgumentsText,
  reportOpaqueState,
} from '@llm/core';
import { completionCreated, completionId } from './answer-identity.js';
import { REFUSAL_FALLBACK_TEXT, encodeFinishReason } from './finish-reason.js';
import { PROTOCOL, ext } from './protocol.js';
import { urlAnnotations } from './url-annotations.js';
import { encodeUsage } from './usage.js';
import type { OpenAIChatResponse, OpenAIChatTokenLogprob } from './wire-types.js';

const P = PROTOCOL;
type Wire = Record<string, unknown>;

/** Canonical token logprobs -> wire `logprobs.content`. */
export function encodeLogprobs(logprobs: readonly LlmTokenLogprob[]): OpenAIChatTokenLogprob[] {
  return logprobs.map((entry) => ({
    token: entry.token,
    logprob: entry.logprob,
    bytes: entry.bytes ?? null,
    top_logprobs: (entry.top ?? []).map((top) => ({ token: top.token, logprob: top.logprob, bytes: top.bytes ?? null })),
  }));
}

/** The origin a foreign part's state is reported against. */
export const TARGET: LlmOrigin = { protocol: P };

/** Reports a reasoning part's opaque state (a signature, a redacted block): Chat answers carry none. */
export function reportReasoningState(context: CodecContext | undefined, path: string, origin: LlmOrigin | undefined): void {
  reportOpaqueState(context, path, origin ?? TARGET, TARGET);
}

/** The assistant message of one choice, in the shape the API (and the SDK accumulator) produce. */
export function encodeChoiceMessage(choice: LlmChoice, path: string, context: CodecContext | undefined): Wire {
  const message: Wire = { role: 'assistant' };
  let content: string | null = null;
  let refusal: string | null = null;
  let calls: Wire[] | undefined;
  let annotations: Wire[] | undefined;
  for (let i = 0; i < choice.content.length; i++) {
    const part = choice.content[i]!;
    switch (part.type) {
      case 'text': {
        reportForeignPartState(context, joinPath(path, i), part, TARGET);
        // Annotation ranges index the whole message content, this part starting at `offset`.
        const offset = content?.length ?? 0;
        content = (content ?? '') + part.text;
        if (part.citations) {
          const citations = joinPath(joinPath(path, i), 'citations');
          (annotations ??= []).push(...urlAnnotations(part.citations, part.text, offset, (at) => joinPath(citations, at), context));
        }
        break;
      }
      case 'refusal':
        refusal = (refusal ?? '') + part.text;
        break;
      case 'reasoning': {
        // The text stays; the signature (or a redacted block's state) has nowhere to go.
        if (part.redacted || part.signature !== undefined) reportReasoningState(context, joinPath(path, i), part.origin);
        if (part.redacted || (part.text === '' && part.signature !== undefined)) break;
        const field = ext.marker(part, 'field') === 'reasoning' ? 'reasoning' : 'reasoning_content';
        message[field] = typeof message[field] === 'string' ? (message[field] as string) + part.text : part.text;
        break;
      }
      case 'tool-call': {
        reportForeignPartState(context, joinPath(path, i), part, TARGET);
        if (ext.marker(part, 'legacy')) {
          message.function_call = { name: part.name, arguments: toolArgumentsText(part.arguments) };
          break;
        }
        const call: Wire = part.freeform
          ? { id: part.id, type: 'custom', custom: { name: part.name, input: toolArgumentsText(part.arguments) } }
          : { id: part.id, type: 'function', function: { name: part.name, arguments: toolArgumentsText(part.arguments) } };
        ext.writeRest(call, part);
        (calls ??= []).push(call);
        break;
      }
      default:
        if (isMcpPart(part)) reportMcpPartDropped(part, joinPath(path, i), P, context);
        else if (isCodeExecutionPart(part)) reportCodeExecutionDropped(part, joinPath(path, i), P, context, CODE_EXECUTION_LOSS);
        else
          reportLoss(context, { code: 'dropped-part', path: joinPath(path, i), message: `a ${part.type} part has no openai-chat response form`, protocol: P });
    }
  }
  if (content !== null || !ext.marker(choice, 'noContent')) message.content = content;
  if (refusal !== null || !ext.marker(choice, 'noRefusal')) message.refusal = refusal;
  if (calls) message.tool_calls = calls;
  const markedAnnotations = ext.marker(choice, 'annotations');
  if (annotations) message.annotations = annotations;
  else if (markedAnnotations !== undefined) message.annotations = markedAnnotations;
  const rest = ext.marker(choice, 'message') as Wire | undefined;
  if (rest) Object.assign(message, rest);
  const role = ext.marker(choice, 'role');
  if (role === null) delete message.role;
  else if (role !== undefined) message.role = role;
  return message;
}

/**
 * `LlmResponse` -> Chat Completions response body.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function encodeResponse(response: LlmResponse, context?: CodecContext): OpenAIChatResponse {
  const out: Wire = { id: completionId(response.id), object: 'chat.completion', created: completionCreated(response.created), model: response.model };
  const object = ext.marker(response, 'object');
  if (object === null) delete out.object;
  else if (object !== undefined) out.object = object;
  const choices: Wire[] = new Array(response.choices.length);
  for (let i = 0; i < response.choices.length; i++) {
    const choice = response.choices[i]!;
    const path = joinPath('choices', i);
    const message = encodeChoiceMessage(choice, joinPath(path, 'content'), context);
    const finish = encodeFinishReason(choice.finishReason ?? 'stop', choice.rawFinishReason, context, joinPath(path, 'finish_reason'));
    // A refusal that said nothing still says it refused (a Claude classifier refusal has no text).
    if (choice.finishReason === 'refusal' && finish === 'content_filter' && !message.content && !message.refusal) message.refusal = REFUSAL_FALLBACK_TEXT;
    const wire: Wire = {
      index: choice.index,
      message,
      finish_reason: finish,
      logprobs: choice.logprobs ? { content: encodeLogprobs(choice.logprobs), refusal: ext.marker(choice, 'refusalLogprobs') ?? null } : null,
    };
    if (!choice.logprobs && ext.marker(choice, 'noLogprobs')) delete wire.logprobs;
    ext.writeRest(wire, choice);
    choices[i] = wire;
  }
  out.choices = choices;
  if (response.usage) out.usage = encodeUsage(response.usage);
  if (response.serviceTier !== undefined) out.service_tier = response.serviceTier;
  ext.writeRest(out, response);
  return out as unknown as OpenAIChatResponse;
}
