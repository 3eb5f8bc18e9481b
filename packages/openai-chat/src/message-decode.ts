import type { LlmAssistantContent, LlmAssistantMessage, LlmMessage, LlmTextPart, LlmToolCallPart, LlmToolResultContent, LlmUserContent } from '@llm/core';
import { joinPath } from '@llm/core';
import { isJsonText, parseDataUrl, type DataUrl } from '@llm/core/kit';
import { decodeCacheControl } from './cache-control.js';
import { PROTOCOL, ext, read } from './protocol.js';

const P = PROTOCOL;
const TEXT_KEYS = new Set(['type', 'text']);
const IMAGE_KEYS = new Set(['type', 'image_url']);
const AUDIO_KEYS = new Set(['type', 'input_audio']);
const FILE_KEYS = new Set(['type', 'file']);
const REFUSAL_KEYS = new Set(['type', 'refusal']);
const SYSTEM_KEYS = new Set(['role', 'content', 'name']);
const USER_KEYS = SYSTEM_KEYS;
const TOOL_KEYS = new Set(['role', 'content', 'tool_call_id']);
const FUNCTION_MSG_KEYS = new Set(['role', 'content', 'name']);
const ASSISTANT_KEYS = new Set(['role', 'content', 'name', 'refusal', 'tool_calls', 'function_call', 'reasoning_content', 'reasoning']);
const CALL_KEYS = new Set(['id', 'type', 'function', 'custom']);
const DETAILS = ['auto', 'low', 'high', 'original'] as const;
/** A file part with neither `file_id` nor `file_data`: its error says "got nothing", `null` included. */
const NEITHER_FILE_FIELD: Record<string, unknown> = {};

/** A base64 `data:` URL with no parameters, the form Chat sends; any other stays a URL / raw data. */
function plainDataUrl(url: string): DataUrl | undefined {
  const parsed = parseDataUrl(url);
  return parsed && parsed.parameters === '' ? parsed : undefined;
}

/** A `type: "text"` part. */
export function decodeTextPart(wire: Record<string, unknown>, path: string): LlmTextPart {
  const part: LlmTextPart = { type: 'text', text: read.string(wire, 'text', path) };
  decodeCacheControl(wire, part);
  ext.keep(part, ext.rest(wire, TEXT_KEYS));
  return part;
}

/** Text-only content (system, developer, tool): a string or text parts. */
function decodeTextParts(holder: Record<string, unknown>, key: string, parent: string): LlmTextPart[] {
  const items = read.array(holder, key, parent);
  const path = joinPath(parent, key);
  const parts: LlmTextPart[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = read.object(items, i, path);
    if (item.type !== 'text') read.invalid(item, 'type', joinPath(path, i), '"text"');
    parts.push(decodeTextPart(item, joinPath(path, i)));
  }
  return parts;
}

/**
 * A user content part (text, image_url, input_audio, file).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function decodeUserPart(wire: Record<string, unknown>, path: string): LlmUserContent {
  switch (wire.type) {
    case 'text':
      return decodeTextPart(wire, path);
    case 'image_url': {
      const image = read.object(wire, 'image_url', path);
      const url = read.string(image, 'url', joinPath(path, 'image_url'));
      const parsed = plainDataUrl(url);
      const part: LlmUserContent = {
        type: 'image',
        source: parsed ? { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data } : { kind: 'url', url },
      };
      const detail = image.detail;
      if (detail !== undefined && detail !== null) {
        if (!(DETAILS as readonly unknown[]).includes(detail)) read.invalid(image, 'detail', joinPath(path, 'image_url'), 'an image detail');
        part.detail = detail as (typeof DETAILS)[number];
      }
      decodeCacheControl(wire, part);
      ext.keep(part, ext.rest(wire, IMAGE_KEYS));
      return part;
    }
    case 'input_audio': {
      const audio = read.object(wire, 'input_audio', path);
      const inner = joinPath(path, 'input_audio');
      const format = read.string(audio, 'format', inner);
      const part: LlmUserContent = {
        type: 'audio',
        source: { kind: 'base64', mediaType: `audio/${format}`, data: read.string(audio, 'data', inner) },
        format,
      };
      decodeCacheControl(wire, part);
      ext.keep(part, ext.rest(wire, AUDIO_KEYS));
      return part;
    }
    case 'file': {
      const file = read.object(wire, 'file', path);
      const inner = joinPath(path, 'file');
      const fileId = read.optionalString(file, 'file_id', inner);
      const fileData = read.optionalString(file, 'file_data', inner);
      const filename = read.optionalString(file, 'filename', inner);
      let part: LlmUserContent;
      if (fileId !== undefined) {
        part = { type: 'file', source: { kind: 'file', fileId, provider: P } };
      } else if (fileData !== undefined) {
        const parsed = plainDataUrl(fileData);
        part = {
          type: 'file',
          source: parsed
            ? { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data }
            : { kind: 'base64', mediaType: 'application/octet-stream', data: fileData },
        };
        if (!parsed) ext.mark(part, 'rawData', true);
      } else {
        return read.invalid(NEITHER_FILE_FIELD, 'file_id', inner, 'a string (or file_data)');
      }
      if (filename !== undefined) part.filename = filename;
      decodeCacheControl(wire, part);
      ext.keep(part, ext.rest(wire, FILE_KEYS));
      return part;
    }
    default:
      return read.invalid(wire, 'type', path, '"text", "image_url", "input_audio" or "file"');
  }
}

/**
 * Tool call `items[index]` of an assistant message whose `tool_calls` is at `parent`. The usual
 * well-formed function call is read directly, and its path is joined only for any other shape
 * (an agent's history holds hundreds of calls, and three joined paths per call were most of
 * what a call cost to read).
 */
function decodeToolCallAt(items: readonly unknown[], index: number, parent: string): LlmToolCallPart {
  const wire = items[index] as Record<string, unknown> | null | undefined;
  const fn = typeof wire === 'object' && wire !== null && !Array.isArray(wire) && wire.type === 'function' ? wire.function : undefined;
  if (
    typeof fn === 'object' &&
    fn !== null &&
    !Array.isArray(fn) &&
    typeof wire?.id === 'string' &&
    typeof (fn as Record<string, unknown>).name === 'string' &&
    typeof (fn as Record<string, unknown>).arguments === 'string'
  ) {
    const { name, arguments: args } = fn as { name: string; arguments: string };
    const part: LlmToolCallPart = { type: 'tool-call', id: wire.id, name, arguments: args };
    ext.keep(part, ext.rest(wire, CALL_KEYS));
    return part;
  }
  return decodeToolCall(read.object(items, index, parent), joinPath(parent, index));
}

/** A tool call of an assistant message, any shape, every field checked on its path. */
function decodeToolCall(wire: Record<string, unknown>, path: string): LlmToolCallPart {
  const id = read.string(wire, 'id', path);
  let part: LlmToolCallPart;
  if (wire.type === 'custom') {
    const custom = read.object(wire, 'custom', path);
    const inner = joinPath(path, 'custom');
    part = { type: 'tool-call', id, name: read.string(custom, 'name', inner), arguments: read.string(custom, 'input', inner), freeform: true };
  } else if (wire.type === 'function' || wire.type === undefined) {
    const fn = read.object(wire, 'function', path);
    const inner = joinPath(path, 'function');
    part = { type: 'tool-call', id, name: read.string(fn, 'name', inner), arguments: read.string(fn, 'arguments', inner) };
    if (wire.type === undefined) ext.mark(part, 'noType', true);
  } else {
    return read.invalid(wire, 'type', path, '"function" or "custom"');
  }
  ext.keep(part, ext.rest(wire, CALL_KEYS));
  return part;
}

/**
 * The content of an assistant message (request history or response message), in order:
 * reasoning, text / refusal, tool calls.
 * `reasoning_content` / `reasoning` are compatible servers' additions (DeepSeek, xAI, vLLM,
 * OpenRouter), decoded as reasoning; OpenAI models send none.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function decodeAssistantContent(wire: Record<string, unknown>, path: string, target: LlmAssistantMessage): void {
  const content: LlmAssistantContent[] = target.content;
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const text = read.optionalString(wire, field, path);
    if (text === undefined) continue;
    const part: LlmAssistantContent = { type: 'reasoning', text, origin: { protocol: P } };
    if (field === 'reasoning') ext.mark(part, 'field', field);
    content.push(part);
  }
  const value = wire.content;
  if (typeof value === 'string') {
    content.push({ type: 'text', text: value });
    target.stringContent = true;
  } else if (value !== undefined && value !== null) {
    const items = read.array(wire, 'content', path);
    const inner = joinPath(path, 'content');
    for (let i = 0; i < items.length; i++) {
      const item = read.object(items, i, inner);
      if (item.type === 'text') content.push(decodeTextPart(item, joinPath(inner, i)));
      else if (item.type === 'refusal') {
        const part: LlmAssistantContent = { type: 'refusal', text: read.string(item, 'refusal', joinPath(inner, i)) };
        ext.keep(part, ext.rest(item, REFUSAL_KEYS));
        ext.mark(part, 'inContent', true);
        content.push(part);
      } else read.invalid(item, 'type', joinPath(inner, i), '"text" or "refusal"');
    }
  }
  const refusal = read.optionalString(wire, 'refusal', path);
  if (refusal !== undefined) content.push({ type: 'refusal', text: refusal });
  const calls = wire.tool_calls;
  if (calls !== undefined && calls !== null) {
    const items = read.array(wire, 'tool_calls', path);
    const inner = joinPath(path, 'tool_calls');
    for (let i = 0; i < items.length; i++) content.push(decodeToolCallAt(items, i, inner));
  }
  const legacy = wire.function_call;
  if (legacy !== undefined && legacy !== null) {
    const fn = read.object(wire, 'function_call', path);
    const inner = joinPath(path, 'function_call');
    const name = read.string(fn, 'name', inner);
    const part: LlmToolCallPart = { type: 'tool-call', id: name, name, arguments: read.string(fn, 'arguments', inner) };
    ext.mark(part, 'legacy', true);
    content.push(part);
  }
}

/**
 * Function-call arguments a client sends back in its history must be JSON text (answers are not
 * checked: a model's cut-off arguments are still its answer). An empty string is accepted: some
 * models emit it for calls without parameters.
 */
function checkCallArguments(wire: Record<string, unknown>, path: string): void {
  const calls = wire.tool_calls;
  if (Array.isArray(calls)) {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i] as { type?: unknown; function?: Record<string, unknown> };
      const fn = call.type === 'custom' ? undefined : call.function;
      if (fn && typeof fn.arguments === 'string' && fn.arguments !== '') checkJson(fn, () => `${joinPath(joinPath(path, 'tool_calls'), i)}.function`);
    }
  }
  const legacy = wire.function_call as Record<string, unknown> | null | undefined;
  if (legacy && typeof legacy.arguments === 'string' && legacy.arguments !== '') checkJson(legacy, () => `${path}.function_call`);
}

/** Throws invalid_request when `holder.arguments` is not JSON; the path is only built on failure (hot path). */
function checkJson(holder: Record<string, unknown>, parent: () => string): void {
  if (!isJsonText(holder.arguments as string)) read.json(holder, 'arguments', parent());
}

/**
 * One request message. `system` / `developer` become system messages, `tool` and legacy
 * `function` become tool messages.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function decodeMessage(holder: readonly unknown[], index: number, parent: string): LlmMessage {
  const wire = read.object(holder, index, parent);
  const path = joinPath(parent, index);
  const role = wire.role;
  switch (role) {
    case 'system':
    case 'developer': {
      const message: LlmMessage = { role: 'system', content: [] };
      if (role === 'developer') message.developer = true;
      if (typeof wire.content === 'string') message.content.push({ type: 'text', text: wire.content });
      else {
        message.content = decodeTextParts(wire, 'content', path);
        ext.mark(message, 'array', true);
      }
      const name = read.optionalString(wire, 'name', path);
      if (name !== undefined) message.name = name;
      ext.keep(message, ext.rest(wire, SYSTEM_KEYS));
      return message;
    }
    case 'user': {
      const message: LlmMessage = { role: 'user', content: [] };
      if (typeof wire.content === 'string') {
        message.content.push({ type: 'text', text: wire.content });
        message.stringContent = true;
      } else {
        const items = read.array(wire, 'content', path);
        const inner = joinPath(path, 'content');
        for (let i = 0; i < items.length; i++) message.content.push(decodeUserPart(read.object(items, i, inner), joinPath(inner, i)));
      }
      const name = read.optionalString(wire, 'name', path);
      if (name !== undefined) message.name = name;
      ext.keep(message, ext.rest(wire, USER_KEYS));
      return message;
    }
    case 'assistant': {
      const message: LlmAssistantMessage = { role: 'assistant', content: [] };
      decodeAssistantContent(wire, path, message);
      checkCallArguments(wire, path);
      const name = read.optionalString(wire, 'name', path);
      if (name !== undefined) message.name = name;
      ext.keep(message, ext.rest(wire, ASSISTANT_KEYS));
      return message;
    }
    case 'tool': {
      const toolCallId = read.string(wire, 'tool_call_id', path);
      const content: string | LlmToolResultContent[] = typeof wire.content === 'string' ? wire.content : decodeTextParts(wire, 'content', path);
      const message: LlmMessage = { role: 'tool', content: [{ type: 'tool-result', toolCallId, content }] };
      ext.keep(message, ext.rest(wire, TOOL_KEYS));
      return message;
    }
    case 'function': {
      const name = read.string(wire, 'name', path);
      const text = read.optionalString(wire, 'content', path);
      const message: LlmMessage = {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: name, toolName: name, content: text ?? '' }],
      };
      ext.keep(message, ext.rest(wire, FUNCTION_MSG_KEYS));
      ext.mark(message, 'function', true);
      return message;
    }
    default:
      return read.invalid(wire, 'role', path, 'a message role');
  }
}
