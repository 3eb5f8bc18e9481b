import type { LlmAssistantMessage, LlmCitation, LlmChoice, LlmResponse, LlmTokenLogprob } from '@llm/core';
import { isJsonObject, joinPath } from '@llm/core';
import { decodeChoiceFinish } from './finish-reason.js';
import { ext, read } from './protocol.js';
import { decodeAssistantContent } from './message-decode.js';
import { decodeUsage } from './usage.js';

const KNOWN = new Set(['id', 'object', 'model', 'created', 'choices', 'usage', 'service_tier']);
const CHOICE_KEYS = new Set(['index', 'message', 'finish_reason', 'logprobs']);
// Written by the encoder as the API does: `null` there is the default, not worth keeping.
const CHOICE_NULLS = new Set(['logprobs']);
const MESSAGE_NULLS = new Set(['content', 'refusal']);
const MESSAGE_KEYS = new Set(['role', 'content', 'refusal', 'tool_calls', 'function_call', 'reasoning_content', 'reasoning', 'annotations']);

function readBytes(wire: Record<string, unknown>, path: string): number[] | undefined {
  if (wire.bytes === undefined || wire.bytes === null) return undefined;
  const bytes = read.array(wire, 'bytes', path);
  for (let i = 0; i < bytes.length; i++) if (typeof bytes[i] !== 'number') read.invalid(bytes, i, joinPath(path, 'bytes'), 'a number');
  return bytes as number[];
}

/** `holder[key].content` (a `logprobs` object) -> canonical token logprobs. */
export function decodeLogprobs(holder: Record<string, unknown>, key: string, parent: string): LlmTokenLogprob[] | undefined {
  const wire = read.object(holder, key, parent);
  if (wire.content === undefined || wire.content === null) return undefined;
  const path = joinPath(parent, key);
  const items = read.array(wire, 'content', path);
  const out: LlmTokenLogprob[] = new Array(items.length);
  const inner = joinPath(path, 'content');
  for (let i = 0; i < items.length; i++) {
    const item = read.object(items, i, inner);
    const itemPath = joinPath(inner, i);
    const entry: LlmTokenLogprob = { token: read.string(item, 'token', itemPath), logprob: read.optionalNumber(item, 'logprob', itemPath) ?? 0 };
    const bytes = readBytes(item, itemPath);
    if (bytes) entry.bytes = bytes;
    if (item.top_logprobs !== undefined && item.top_logprobs !== null) {
      const tops = read.array(item, 'top_logprobs', itemPath);
      const topPath = joinPath(itemPath, 'top_logprobs');
      entry.top = tops.map((_, k) => {
        const top = read.object(tops, k, topPath);
        const altPath = joinPath(topPath, k);
        const alt: { token: string; logprob: number; bytes?: number[] } = {
          token: read.string(top, 'token', altPath),
          logprob: read.optionalNumber(top, 'logprob', altPath) ?? 0,
        };
        const altBytes = readBytes(top, altPath);
        if (altBytes) alt.bytes = altBytes;
        return alt;
      });
    }
    out[i] = entry;
  }
  return out;
}

/** `url_citation` annotations -> citations; `undefined` when one has another type (kept whole then). */
function decodeAnnotations(items: unknown[], path: string): LlmCitation[] | undefined {
  const out: LlmCitation[] = [];
  for (let i = 0; i < items.length; i++) {
    const annotation = read.object(items, i, path);
    if (annotation.type !== 'url_citation') return undefined;
    const inner = joinPath(joinPath(path, i), 'url_citation');
    const cite = read.object(annotation, 'url_citation', joinPath(path, i));
    const citation: LlmCitation = { kind: 'url', url: read.string(cite, 'url', inner) };
    const title = read.optionalString(cite, 'title', inner);
    if (title !== undefined) citation.title = title;
    const start = read.optionalInteger(cite, 'start_index', inner);
    if (start !== undefined) citation.startIndex = start;
    const end = read.optionalInteger(cite, 'end_index', inner);
    if (end !== undefined) citation.endIndex = end;
    out.push(citation);
  }
  return out;
}

function decodeChoice(holder: readonly unknown[], index: number, parent: string): LlmChoice {
  const wire = read.object(holder, index, parent);
  const path = joinPath(parent, index);
  const messageWire = read.object(wire, 'message', path);
  const messagePath = joinPath(path, 'message');
  const message: LlmAssistantMessage = { role: 'assistant', content: [] };
  decodeAssistantContent(messageWire, messagePath, message);
  const choice: LlmChoice = { index: read.optionalInteger(wire, 'index', path) ?? index, content: message.content };
  if (messageWire.annotations !== undefined && messageWire.annotations !== null) {
    const annotations = read.array(messageWire, 'annotations', messagePath);
    const text = message.content.find((part) => part.type === 'text');
    const citations = text?.type === 'text' ? decodeAnnotations(annotations, joinPath(messagePath, 'annotations')) : undefined;
    if (citations && text?.type === 'text') text.citations = citations;
    else ext.mark(choice, 'annotations', messageWire.annotations);
  }
  const raw = read.optionalString(wire, 'finish_reason', path);
  if (raw !== undefined) {
    choice.finishReason = decodeChoiceFinish(
      raw,
      message.content.some((part) => part.type === 'tool-call'),
      message.content.some((part) => part.type === 'refusal'),
    );
    choice.rawFinishReason = raw;
  }
  if (wire.logprobs !== undefined && wire.logprobs !== null) {
    const logprobs = decodeLogprobs(wire, 'logprobs', path);
    if (logprobs) choice.logprobs = logprobs;
    const refusal = (wire.logprobs as Record<string, unknown>).refusal;
    if (refusal !== undefined && refusal !== null) ext.mark(choice, 'refusalLogprobs', refusal);
  }
  // Compatible servers leave out keys OpenAI always sends; remember that for identity.
  if (!('logprobs' in wire)) ext.mark(choice, 'noLogprobs', true);
  if (!('content' in messageWire)) ext.mark(choice, 'noContent', true);
  if (!('refusal' in messageWire)) ext.mark(choice, 'noRefusal', true);
  ext.keep(choice, ext.rest(wire, CHOICE_KEYS, CHOICE_NULLS));
  const messageRest = ext.rest(messageWire, MESSAGE_KEYS, MESSAGE_NULLS);
  if (messageWire.role !== 'assistant') ext.mark(choice, 'role', messageWire.role === undefined ? null : messageWire.role);
  if (messageRest) ext.mark(choice, 'message', messageRest);
  return choice;
}

/**
 * A Chat Completions response body -> `LlmResponse`.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
/**
 * `Codec.response.answerFault`: a Chat answer is an object with a `choices` array (what
 * `decodeResponse` reads first); the path of what is not, else `undefined`.
 */
export function answerFault(wire: unknown): string | undefined {
  if (!isJsonObject(wire)) return '$';
  return Array.isArray(wire.choices) ? undefined : 'choices';
}

export function decodeResponse(body: unknown): LlmResponse {
  const wire = read.body(body);
  const choices = read.array(wire, 'choices', '');
  const response: LlmResponse = {
    id: read.string(wire, 'id', ''),
    model: read.string(wire, 'model', ''),
    choices: new Array(choices.length),
  };
  const created = read.optionalNumber(wire, 'created', '');
  if (created !== undefined) response.created = created;
  for (let i = 0; i < choices.length; i++) response.choices[i] = decodeChoice(choices, i, 'choices');
  if (wire.usage !== undefined && wire.usage !== null) response.usage = decodeUsage(wire, 'usage', '');
  const tier = read.optionalString(wire, 'service_tier', '');
  if (tier !== undefined) response.serviceTier = tier;
  const rest = ext.rest(wire, KNOWN);
  // `object` is always `chat.completion` from OpenAI; compatible servers may differ or omit it.
  if (wire.object !== 'chat.completion') ext.mark(response, 'object', wire.object === undefined ? null : wire.object);
  ext.keep(response, rest);
  return response;
}
