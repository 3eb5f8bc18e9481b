import type { LlmAssistantMessage, LlmChoice, LlmResponse, LlmTokenLogprob } from '@llm/core';
import {
  joinPath,
  readArray,
  readObject,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
  setExtensions,
} from '@llm/core';
import { decodeFinishReason } from './finish-reason.js';
import { PROTOCOL, collectRest, mark } from './internal.js';
import { decodeAssistantContent } from './message-decode.js';
import { decodeUsage } from './usage.js';

const P = PROTOCOL;
const KNOWN = new Set(['id', 'model', 'created', 'choices', 'usage', 'service_tier']);
const CHOICE_KEYS = new Set(['index', 'message', 'finish_reason', 'logprobs']);
const MESSAGE_KEYS = new Set(['content', 'refusal', 'tool_calls', 'function_call', 'reasoning_content', 'reasoning', 'annotations']);

/** `logprobs.content` -> canonical token logprobs. */
export function decodeLogprobs(value: unknown, path: string): LlmTokenLogprob[] | undefined {
  const wire = readObject(value, path, undefined, P);
  if (wire.content === undefined || wire.content === null) return undefined;
  const items = readArray(wire.content, path, 'content', P);
  const out: LlmTokenLogprob[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = readObject(items[i], `${path}.content`, i, P);
    const entry: LlmTokenLogprob = { token: readString(item, 'token', path, P), logprob: readOptionalNumber(item, 'logprob', path, P) ?? 0 };
    if (Array.isArray(item.bytes)) entry.bytes = item.bytes as number[];
    if (Array.isArray(item.top_logprobs)) {
      entry.top = (item.top_logprobs as Array<Record<string, unknown>>).map((top) => {
        const alt: { token: string; logprob: number; bytes?: number[] } = { token: String(top.token), logprob: Number(top.logprob) };
        if (Array.isArray(top.bytes)) alt.bytes = top.bytes as number[];
        return alt;
      });
    }
    out[i] = entry;
  }
  return out;
}

function decodeChoice(value: unknown, parent: string, index: number): LlmChoice {
  const wire = readObject(value, parent, index, P);
  const path = joinPath(parent, index);
  const messageWire = readObject(wire.message, path, 'message', P);
  const messagePath = joinPath(path, 'message');
  const message: LlmAssistantMessage = { role: 'assistant', content: [] };
  decodeAssistantContent(messageWire, messagePath, message);
  const choice: LlmChoice = { index: readOptionalInteger(wire, 'index', path, P) ?? index, content: message.content };
  if (Array.isArray(messageWire.annotations)) {
    const text = message.content.find((part) => part.type === 'text');
    const citations = messageWire.annotations.map((item, i) => {
      const annotation = readObject(item, `${messagePath}.annotations`, i, P);
      const cite = readObject(annotation.url_citation, `${messagePath}.annotations[${i}]`, 'url_citation', P);
      return {
        kind: 'url' as const,
        url: String(cite.url),
        title: String(cite.title),
        startIndex: Number(cite.start_index),
        endIndex: Number(cite.end_index),
      };
    });
    if (text && text.type === 'text') text.citations = citations;
    else mark(choice, 'annotations', messageWire.annotations);
  }
  const raw = readOptionalString(wire, 'finish_reason', path, P);
  if (raw !== undefined) {
    choice.finishReason = decodeFinishReason(raw);
    choice.rawFinishReason = raw;
  }
  if (wire.logprobs !== undefined && wire.logprobs !== null) {
    const logprobs = decodeLogprobs(wire.logprobs, joinPath(path, 'logprobs'));
    if (logprobs) choice.logprobs = logprobs;
    const refusal = (wire.logprobs as Record<string, unknown>).refusal;
    if (refusal !== undefined && refusal !== null) mark(choice, 'refusalLogprobs', refusal);
  }
  // Compatible servers leave out keys OpenAI always sends; remember that for identity.
  if (!('logprobs' in wire)) mark(choice, 'noLogprobs', true);
  if (!('content' in messageWire)) mark(choice, 'noContent', true);
  if (!('refusal' in messageWire)) mark(choice, 'noRefusal', true);
  setExtensions(choice, P, collectRest(wire, CHOICE_KEYS));
  const messageRest = collectRest(messageWire, MESSAGE_KEYS);
  if (messageRest) mark(choice, 'message', messageRest);
  return choice;
}

/**
 * A Chat Completions response body -> `LlmResponse`.
 * @see openai-chat.md §2
 */
export function decodeResponse(body: unknown): LlmResponse {
  const wire = readObject(body, '', undefined, P);
  const choices = readArray(wire.choices, '', 'choices', P);
  const response: LlmResponse = {
    id: readString(wire, 'id', '', P),
    model: readString(wire, 'model', '', P),
    choices: new Array(choices.length),
  };
  const created = readOptionalNumber(wire, 'created', '', P);
  if (created !== undefined) response.created = created;
  for (let i = 0; i < choices.length; i++) response.choices[i] = decodeChoice(choices[i], 'choices', i);
  if (wire.usage !== undefined && wire.usage !== null) response.usage = decodeUsage(wire.usage, 'usage');
  const tier = readOptionalString(wire, 'service_tier', '', P);
  if (tier !== undefined) response.serviceTier = tier;
  setExtensions(response, P, collectRest(wire, KNOWN));
  return response;
}
