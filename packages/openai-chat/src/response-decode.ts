import type { LlmAssistantMessage, LlmCitation, LlmChoice, LlmResponse, LlmTokenLogprob } from '@llm/core';
import {
  invalid,
  isJsonObject,
  joinPath,
  readArray,
  readObject,
  readOptionalInteger,
  readOptionalNumber,
  readOptionalString,
  readString,
  setExtensions,
} from '@llm/core';
import { decodeChoiceFinish } from './finish-reason.js';
import { PROTOCOL, collectRest, mark } from './internal.js';
import { decodeAssistantContent } from './message-decode.js';
import { decodeUsage } from './usage.js';

const P = PROTOCOL;
const KNOWN = new Set(['id', 'object', 'model', 'created', 'choices', 'usage', 'service_tier']);
const CHOICE_KEYS = new Set(['index', 'message', 'finish_reason', 'logprobs']);
// Written by the encoder as the API does: `null` there is the default, not worth keeping.
const CHOICE_NULLS = new Set(['logprobs']);
const MESSAGE_NULLS = new Set(['content', 'refusal']);
const MESSAGE_KEYS = new Set(['role', 'content', 'refusal', 'tool_calls', 'function_call', 'reasoning_content', 'reasoning', 'annotations']);

function readBytes(wire: Record<string, unknown>, path: string): number[] | undefined {
  if (wire.bytes === undefined || wire.bytes === null) return undefined;
  const bytes = readArray(wire.bytes, path, 'bytes', P);
  for (let i = 0; i < bytes.length; i++) if (typeof bytes[i] !== 'number') invalid(joinPath(path, 'bytes'), i, 'a number', bytes[i], P);
  return bytes as number[];
}

/** `logprobs.content` -> canonical token logprobs. */
export function decodeLogprobs(value: unknown, path: string): LlmTokenLogprob[] | undefined {
  const wire = readObject(value, path, undefined, P);
  if (wire.content === undefined || wire.content === null) return undefined;
  const items = readArray(wire.content, path, 'content', P);
  const out: LlmTokenLogprob[] = new Array(items.length);
  const inner = joinPath(path, 'content');
  for (let i = 0; i < items.length; i++) {
    const item = readObject(items[i], inner, i, P);
    const itemPath = joinPath(inner, i);
    const entry: LlmTokenLogprob = { token: readString(item, 'token', itemPath, P), logprob: readOptionalNumber(item, 'logprob', itemPath, P) ?? 0 };
    const bytes = readBytes(item, itemPath);
    if (bytes) entry.bytes = bytes;
    if (item.top_logprobs !== undefined && item.top_logprobs !== null) {
      const tops = readArray(item.top_logprobs, itemPath, 'top_logprobs', P);
      const topPath = joinPath(itemPath, 'top_logprobs');
      entry.top = tops.map((value, k) => {
        const top = readObject(value, topPath, k, P);
        const altPath = joinPath(topPath, k);
        const alt: { token: string; logprob: number; bytes?: number[] } = {
          token: readString(top, 'token', altPath, P),
          logprob: readOptionalNumber(top, 'logprob', altPath, P) ?? 0,
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
    const annotation = readObject(items[i], path, i, P);
    if (annotation.type !== 'url_citation') return undefined;
    const inner = joinPath(joinPath(path, i), 'url_citation');
    const cite = readObject(annotation.url_citation, joinPath(path, i), 'url_citation', P);
    const citation: LlmCitation = { kind: 'url', url: readString(cite, 'url', inner, P) };
    const title = readOptionalString(cite, 'title', inner, P);
    if (title !== undefined) citation.title = title;
    const start = readOptionalInteger(cite, 'start_index', inner, P);
    if (start !== undefined) citation.startIndex = start;
    const end = readOptionalInteger(cite, 'end_index', inner, P);
    if (end !== undefined) citation.endIndex = end;
    out.push(citation);
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
  if (messageWire.annotations !== undefined && messageWire.annotations !== null) {
    const annotations = readArray(messageWire.annotations, messagePath, 'annotations', P);
    const text = message.content.find((part) => part.type === 'text');
    const citations = text?.type === 'text' ? decodeAnnotations(annotations, joinPath(messagePath, 'annotations')) : undefined;
    if (citations && text?.type === 'text') text.citations = citations;
    else mark(choice, 'annotations', messageWire.annotations);
  }
  const raw = readOptionalString(wire, 'finish_reason', path, P);
  if (raw !== undefined) {
    choice.finishReason = decodeChoiceFinish(
      raw,
      message.content.some((part) => part.type === 'tool-call'),
      message.content.some((part) => part.type === 'refusal'),
    );
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
  setExtensions(choice, P, collectRest(wire, CHOICE_KEYS, CHOICE_NULLS));
  const messageRest = collectRest(messageWire, MESSAGE_KEYS, MESSAGE_NULLS);
  if (messageWire.role !== 'assistant') mark(choice, 'role', messageWire.role === undefined ? null : messageWire.role);
  if (messageRest) mark(choice, 'message', messageRest);
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
  const rest = collectRest(wire, KNOWN);
  // `object` is always `chat.completion` from OpenAI; compatible servers may differ or omit it.
  if (wire.object !== 'chat.completion') mark(response, 'object', wire.object === undefined ? null : wire.object);
  setExtensions(response, P, rest);
  return response;
}
