import type {
  LlmAssistantContent,
  LlmAssistantMessage,
  LlmMessage,
  LlmTextPart,
  LlmToolCallPart,
  LlmToolResultContent,
  LlmUserContent,
} from '@llm/core';
import {
  invalid,
  joinPath,
  parseJsonAt,
  readArray,
  readObject,
  readOptionalString,
  readString,
  setExtensions,
} from '@llm/core';
import { decodeCacheControl } from './cache-control.js';
import { PROTOCOL, collectRest, mark, parseDataUrl } from './internal.js';

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
const ASSISTANT_KEYS = new Set([
  'role',
  'content',
  'name',
  'refusal',
  'tool_calls',
  'function_call',
  'reasoning_content',
  'reasoning',
]);
const CALL_KEYS = new Set(['id', 'type', 'function', 'custom']);
const DETAILS = ['auto', 'low', 'high', 'original'] as const;

/** A `type: "text"` part. */
export function decodeTextPart(wire: Record<string, unknown>, path: string): LlmTextPart {
  const part: LlmTextPart = { type: 'text', text: readString(wire, 'text', path, P) };
  decodeCacheControl(wire, part);
  setExtensions(part, P, collectRest(wire, TEXT_KEYS));
  return part;
}

/** Text-only content (system, developer, tool): a string or text parts. */
function decodeTextParts(value: unknown, path: string): LlmTextPart[] {
  const items = readArray(value, path, undefined, P);
  const parts: LlmTextPart[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = readObject(items[i], path, i, P);
    if (item.type !== 'text') invalid(joinPath(path, i), 'type', '"text"', item.type, P);
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
      const image = readObject(wire.image_url, path, 'image_url', P);
      const url = readString(image, 'url', joinPath(path, 'image_url'), P);
      const parsed = parseDataUrl(url);
      const part: LlmUserContent = {
        type: 'image',
        source: parsed ? { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data } : { kind: 'url', url },
      };
      const detail = image.detail;
      if (detail !== undefined && detail !== null) {
        if (!(DETAILS as readonly unknown[]).includes(detail)) invalid(joinPath(path, 'image_url'), 'detail', 'an image detail', detail, P);
        part.detail = detail as (typeof DETAILS)[number];
      }
      decodeCacheControl(wire, part);
      setExtensions(part, P, collectRest(wire, IMAGE_KEYS));
      return part;
    }
    case 'input_audio': {
      const audio = readObject(wire.input_audio, path, 'input_audio', P);
      const inner = joinPath(path, 'input_audio');
      const format = readString(audio, 'format', inner, P);
      const part: LlmUserContent = {
        type: 'audio',
        source: { kind: 'base64', mediaType: `audio/${format}`, data: readString(audio, 'data', inner, P) },
        format,
      };
      decodeCacheControl(wire, part);
      setExtensions(part, P, collectRest(wire, AUDIO_KEYS));
      return part;
    }
    case 'file': {
      const file = readObject(wire.file, path, 'file', P);
      const inner = joinPath(path, 'file');
      const fileId = readOptionalString(file, 'file_id', inner, P);
      const fileData = readOptionalString(file, 'file_data', inner, P);
      const filename = readOptionalString(file, 'filename', inner, P);
      let part: LlmUserContent;
      if (fileId !== undefined) {
        part = { type: 'file', source: { kind: 'file', fileId, provider: P } };
      } else if (fileData !== undefined) {
        const parsed = parseDataUrl(fileData);
        part = {
          type: 'file',
          source: parsed
            ? { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data }
            : { kind: 'base64', mediaType: 'application/octet-stream', data: fileData },
        };
        if (!parsed) mark(part, 'rawData', true);
      } else {
        return invalid(inner, 'file_id', 'a string (or file_data)', undefined, P);
      }
      if (filename !== undefined) part.filename = filename;
      decodeCacheControl(wire, part);
      setExtensions(part, P, collectRest(wire, FILE_KEYS));
      return part;
    }
    default:
      return invalid(path, 'type', '"text", "image_url", "input_audio" or "file"', wire.type, P);
  }
}

/** A tool call of an assistant message. */
function decodeToolCall(wire: Record<string, unknown>, path: string): LlmToolCallPart {
  const id = readString(wire, 'id', path, P);
  let part: LlmToolCallPart;
  if (wire.type === 'custom') {
    const custom = readObject(wire.custom, path, 'custom', P);
    const inner = joinPath(path, 'custom');
    part = { type: 'tool-call', id, name: readString(custom, 'name', inner, P), arguments: readString(custom, 'input', inner, P), freeform: true };
  } else if (wire.type === 'function' || wire.type === undefined) {
    const fn = readObject(wire.function, path, 'function', P);
    const inner = joinPath(path, 'function');
    part = { type: 'tool-call', id, name: readString(fn, 'name', inner, P), arguments: readString(fn, 'arguments', inner, P) };
    if (wire.type === undefined) mark(part, 'noType', true);
  } else {
    return invalid(path, 'type', '"function" or "custom"', wire.type, P);
  }
  setExtensions(part, P, collectRest(wire, CALL_KEYS));
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
    const text = readOptionalString(wire, field, path, P);
    if (text === undefined) continue;
    const part: LlmAssistantContent = { type: 'reasoning', text, origin: { protocol: P } };
    if (field === 'reasoning') mark(part, 'field', field);
    content.push(part);
  }
  const value = wire.content;
  if (typeof value === 'string') {
    content.push({ type: 'text', text: value });
    target.stringContent = true;
  } else if (value !== undefined && value !== null) {
    const items = readArray(value, path, 'content', P);
    const inner = joinPath(path, 'content');
    for (let i = 0; i < items.length; i++) {
      const item = readObject(items[i], inner, i, P);
      if (item.type === 'text') content.push(decodeTextPart(item, joinPath(inner, i)));
      else if (item.type === 'refusal') {
        const part: LlmAssistantContent = { type: 'refusal', text: readString(item, 'refusal', joinPath(inner, i), P) };
        setExtensions(part, P, collectRest(item, REFUSAL_KEYS));
        mark(part, 'inContent', true);
        content.push(part);
      } else invalid(joinPath(inner, i), 'type', '"text" or "refusal"', item.type, P);
    }
  }
  const refusal = readOptionalString(wire, 'refusal', path, P);
  if (refusal !== undefined) content.push({ type: 'refusal', text: refusal });
  const calls = wire.tool_calls;
  if (calls !== undefined && calls !== null) {
    const items = readArray(calls, path, 'tool_calls', P);
    const inner = joinPath(path, 'tool_calls');
    for (let i = 0; i < items.length; i++) content.push(decodeToolCall(readObject(items[i], inner, i, P), joinPath(inner, i)));
  }
  const legacy = wire.function_call;
  if (legacy !== undefined && legacy !== null) {
    const fn = readObject(legacy, path, 'function_call', P);
    const inner = joinPath(path, 'function_call');
    const name = readString(fn, 'name', inner, P);
    const part: LlmToolCallPart = { type: 'tool-call', id: name, name, arguments: readString(fn, 'arguments', inner, P) };
    mark(part, 'legacy', true);
    content.push(part);
  }
}

/**
 * One request message. `system` / `developer` become system messages, `tool` and legacy
 * `function` become tool messages.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
/**
 * Function-call arguments a client sends back in its history must be JSON text (answers are not
 * checked: a model's cut-off arguments are still its answer). An empty string is accepted: some
 * models emit it for calls without parameters.
 */
function checkCallArguments(wire: Record<string, unknown>, path: string): void {
  const calls = wire.tool_calls;
  if (Array.isArray(calls)) {
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i] as { type?: unknown; function?: { arguments?: unknown } };
      const text = call.type === 'custom' ? undefined : call.function?.arguments;
      if (typeof text === 'string' && text !== '') checkJson(text, () => `${joinPath(joinPath(path, 'tool_calls'), i)}.function.arguments`);
    }
  }
  const legacy = (wire.function_call as { arguments?: unknown } | null | undefined)?.arguments;
  if (typeof legacy === 'string' && legacy !== '') checkJson(legacy, () => `${path}.function_call.arguments`);
}

/** Throws invalid_request when `text` is not JSON; the path is only built on failure (hot path). */
function checkJson(text: string, path: () => string): void {
  try {
    JSON.parse(text);
  } catch {
    parseJsonAt(text, path(), P);
  }
}

export function decodeMessage(value: unknown, parent: string, index: number): LlmMessage {
  const wire = readObject(value, parent, index, P);
  const path = joinPath(parent, index);
  const role = wire.role;
  switch (role) {
    case 'system':
    case 'developer': {
      const message: LlmMessage = { role: 'system', content: [] };
      if (role === 'developer') message.developer = true;
      if (typeof wire.content === 'string') message.content.push({ type: 'text', text: wire.content });
      else {
        message.content = decodeTextParts(wire.content, joinPath(path, 'content'));
        mark(message, 'array', true);
      }
      const name = readOptionalString(wire, 'name', path, P);
      if (name !== undefined) message.name = name;
      setExtensions(message, P, collectRest(wire, SYSTEM_KEYS));
      return message;
    }
    case 'user': {
      const message: LlmMessage = { role: 'user', content: [] };
      if (typeof wire.content === 'string') {
        message.content.push({ type: 'text', text: wire.content });
        message.stringContent = true;
      } else {
        const items = readArray(wire.content, path, 'content', P);
        const inner = joinPath(path, 'content');
        for (let i = 0; i < items.length; i++) message.content.push(decodeUserPart(readObject(items[i], inner, i, P), joinPath(inner, i)));
      }
      const name = readOptionalString(wire, 'name', path, P);
      if (name !== undefined) message.name = name;
      setExtensions(message, P, collectRest(wire, USER_KEYS));
      return message;
    }
    case 'assistant': {
      const message: LlmAssistantMessage = { role: 'assistant', content: [] };
      decodeAssistantContent(wire, path, message);
      checkCallArguments(wire, path);
      const name = readOptionalString(wire, 'name', path, P);
      if (name !== undefined) message.name = name;
      setExtensions(message, P, collectRest(wire, ASSISTANT_KEYS));
      return message;
    }
    case 'tool': {
      const toolCallId = readString(wire, 'tool_call_id', path, P);
      const content: string | LlmToolResultContent[] =
        typeof wire.content === 'string' ? wire.content : decodeTextParts(wire.content, joinPath(path, 'content'));
      const message: LlmMessage = { role: 'tool', content: [{ type: 'tool-result', toolCallId, content }] };
      setExtensions(message, P, collectRest(wire, TOOL_KEYS));
      return message;
    }
    case 'function': {
      const name = readString(wire, 'name', path, P);
      const text = readOptionalString(wire, 'content', path, P);
      const message: LlmMessage = {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: name, toolName: name, content: text ?? '' }],
      };
      setExtensions(message, P, collectRest(wire, FUNCTION_MSG_KEYS));
      mark(message, 'function', true);
      return message;
    }
    default:
      return invalid(path, 'role', 'a message role', role, P);
  }
}
