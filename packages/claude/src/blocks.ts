import type {
  CodecContext,
  JsonObject,
  LlmAssistantContent,
  LlmCacheHint,
  LlmFilePart,
  LlmImagePart,
  LlmJsonPart,
  LlmMediaSource,
  LlmPart,
  LlmProviderPart,
  LlmReasoningPart,
  LlmTextPart,
  LlmToolCallPart,
  LlmToolResultContent,
  LlmToolResultPart,
} from '@llm/core';
import {
  cacheHintFromWire,
  cacheHintToWire,
  opaqueStateWarning,
  reportLoss,
  toolArgumentsObject,
} from '@llm/core';
import { decodeCitation, encodeCitation } from './citations.js';
import { parseDataUrl, type DataUrl } from '@llm/core/kit';
import { PROTOCOL, ext, read } from './protocol.js';

type Wire = Record<string, unknown>;

const TEXT_KNOWN = new Set(['type', 'text', 'citations', 'cache_control']);
const IMAGE_KNOWN = new Set(['type', 'source', 'cache_control']);
const DOCUMENT_KNOWN = new Set(['type', 'source', 'title', 'context', 'citations', 'cache_control']);
const THINKING_KNOWN = new Set(['type', 'thinking', 'signature']);
const REDACTED_KNOWN = new Set(['type', 'data']);
const TOOL_USE_KNOWN = new Set(['type', 'id', 'name', 'input', 'cache_control']);
const TOOL_RESULT_KNOWN = new Set(['type', 'tool_use_id', 'content', 'is_error', 'cache_control']);

/** Reads `cache_control` of `wire` into `part.cache`, or keeps it raw in `rest`. */
function takeCache(wire: Wire, part: { cache?: LlmCacheHint }, rest: Wire | undefined): Wire | undefined {
  const raw = wire.cache_control;
  if (raw === undefined || raw === null) return rest;
  const cache = cacheHintFromWire(raw);
  if (cache) part.cache = cache;
  else (rest ??= {}).cache_control = raw;
  return rest;
}

function provider(block: Wire): LlmProviderPart {
  return { type: 'provider', protocol: PROTOCOL, value: block };
}

/** A wire `source` -> canonical, or `undefined` for a source kind or shape we keep whole. */
function decodeSource(block: Wire, path: string): LlmMediaSource | undefined {
  const source = read.object(block, 'source', path);
  let keys = 0;
  for (const _ in source) keys++;
  switch (source.type) {
    case 'base64':
      if (keys !== 3 || typeof source.media_type !== 'string' || typeof source.data !== 'string') return undefined;
      return { kind: 'base64', mediaType: source.media_type, data: source.data };
    case 'url':
      if (keys !== 2 || typeof source.url !== 'string') return undefined;
      return { kind: 'url', url: source.url };
    case 'file':
      if (keys !== 2 || typeof source.file_id !== 'string') return undefined;
      return { kind: 'file', fileId: source.file_id, provider: PROTOCOL };
    case 'text':
      if (keys !== 3 || source.media_type !== 'text/plain' || typeof source.data !== 'string') return undefined;
      return { kind: 'text', text: source.data, mediaType: 'text/plain' };
    default:
      return undefined;
  }
}

function decodeText(block: Wire, path: string): LlmTextPart {
  const part: LlmTextPart = { type: 'text', text: read.string(block, 'text', path) };
  const rest = takeCache(block, part, ext.rest(block, TEXT_KNOWN));
  const list = read.optionalArray(block, 'citations', path);
  if (list) {
    const citationsPath = `${path}.citations`;
    part.citations = list.map((_, index) => decodeCitation(list, index, citationsPath));
  }
  return ext.keep(part, rest);
}

function decodeImage(block: Wire, path: string): LlmImagePart | LlmProviderPart {
  const source = decodeSource(block, path);
  if (!source || source.kind === 'text') return provider(block);
  const part: LlmImagePart = { type: 'image', source };
  return ext.keep(part, takeCache(block, part, ext.rest(block, IMAGE_KNOWN)));
}

function decodeDocument(block: Wire, path: string): LlmFilePart | LlmProviderPart {
  const source = decodeSource(block, path);
  if (!source) return provider(block);
  const part: LlmFilePart = { type: 'file', source };
  let rest = takeCache(block, part, ext.rest(block, DOCUMENT_KNOWN));
  if (typeof block.title === 'string') part.title = block.title;
  else if (block.title != null) (rest ??= {}).title = block.title;
  if (typeof block.context === 'string') part.context = block.context;
  else if (block.context != null) (rest ??= {}).context = block.context;
  const citations = block.citations;
  if (citations != null) {
    const config = citations as Wire;
    let keys = 0;
    for (const _ in config) keys++;
    if (typeof citations === 'object' && keys === 1 && typeof config.enabled === 'boolean') part.citations = config.enabled;
    else (rest ??= {}).citations = citations;
  }
  return ext.keep(part, rest);
}

function decodeThinking(block: Wire, path: string): LlmReasoningPart {
  const part: LlmReasoningPart = {
    type: 'reasoning',
    text: read.string(block, 'thinking', path),
    signature: read.string(block, 'signature', path),
    origin: { protocol: PROTOCOL },
  };
  return ext.keep(part, ext.rest(block, THINKING_KNOWN));
}

function decodeRedacted(block: Wire, path: string): LlmReasoningPart {
  const part: LlmReasoningPart = {
    type: 'reasoning',
    text: '',
    redacted: true,
    signature: read.string(block, 'data', path),
    origin: { protocol: PROTOCOL },
  };
  return ext.keep(part, ext.rest(block, REDACTED_KNOWN));
}

function decodeToolUse(block: Wire, path: string): LlmToolCallPart {
  const input = read.object(block, 'input', path);
  const part: LlmToolCallPart = {
    type: 'tool-call',
    id: read.string(block, 'id', path),
    name: read.string(block, 'name', path),
    arguments: input as JsonObject,
  };
  return ext.keep(part, takeCache(block, part, ext.rest(block, TOOL_USE_KNOWN)));
}

/** A `tool_result` block -> canonical tool result. */
export function decodeToolResult(block: Wire, path: string): LlmToolResultPart {
  const part: LlmToolResultPart = {
    type: 'tool-result',
    toolCallId: read.string(block, 'tool_use_id', path),
    content: '',
  };
  let rest = takeCache(block, part, ext.rest(block, TOOL_RESULT_KNOWN));
  const content = block.content;
  if (content === undefined) (rest ??= {}).$noContent = true;
  else if (typeof content === 'string') part.content = content;
  else if (content !== null) {
    const list = read.array(block, 'content', path);
    const contentPath = `${path}.content`;
    const parts: LlmToolResultContent[] = new Array(list.length);
    for (let index = 0; index < list.length; index++) {
      const item = read.object(list, index, contentPath);
      const itemPath = `${contentPath}[${index}]`;
      let decoded: LlmToolResultContent | LlmProviderPart;
      switch (item.type) {
        case 'text':
          decoded = decodeText(item, itemPath);
          break;
        case 'image':
          decoded = decodeImage(item, itemPath);
          break;
        case 'document':
          decoded = decodeDocument(item, itemPath);
          break;
        default:
          read.string(item, 'type', itemPath);
          decoded = provider(item);
      }
      // Blocks with no canonical part (search_result, tool_reference, ...) ride as a json part.
      parts[index] =
        decoded.type === 'provider'
          ? ({ type: 'json', value: item, extensions: { [PROTOCOL]: { $block: true } } } satisfies LlmJsonPart)
          : decoded;
    }
    part.content = parts;
  }
  if (typeof block.is_error === 'boolean') part.isError = block.is_error;
  else if (block.is_error != null) read.invalid(block, 'is_error', path, 'a boolean');
  return ext.keep(part, rest);
}

/**
 * One content block of a message -> a canonical part. Blocks with no canonical meaning (server
 * tool activity, `search_result`, beta blocks, unknown types) become provider parts, kept whole.
 * `tool_result` is handled by the caller (it moves to a tool message).
 */
export function decodeBlock(blocks: readonly unknown[], index: number, parent: string): LlmPart {
  const block = read.object(blocks, index, parent);
  const path = `${parent}[${index}]`;
  switch (block.type) {
    case 'text':
      return decodeText(block, path);
    case 'image':
      return decodeImage(block, path);
    case 'document':
      return decodeDocument(block, path);
    case 'thinking':
      return decodeThinking(block, path);
    case 'redacted_thinking':
      return decodeRedacted(block, path);
    case 'tool_use':
      return decodeToolUse(block, path);
    case 'tool_result':
      return decodeToolResult(block, path);
    default:
      read.string(block, 'type', path);
      return provider(block);
  }
}

/** Options of {@link encodePart}. */
export interface EncodePartOptions {
  context?: CodecContext;
  /** Model the request goes to (for origin checks). */
  model?: string;
  /** Encoding a response (Claude's own output): foreign reasoning keeps an empty signature. */
  response?: boolean;
}

function textBlock(part: LlmTextPart, path: string, options: EncodePartOptions): Wire {
  const out: Wire = { type: 'text', text: part.text };
  if (part.citations) {
    const citationsPath = `${path}.citations`;
    out.citations = part.citations.map((citation, index) => encodeCitation(citation, `${citationsPath}[${index}]`, options.context));
  }
  if (part.cache) out.cache_control = cacheHintToWire(part.cache);
  if (part.signature !== undefined && part.origin?.protocol !== PROTOCOL) {
    reportLoss(options.context, {
      ...opaqueStateWarning(path, { foreign: part.origin ?? { protocol: 'gemini' }, target: { protocol: PROTOCOL, model: options.model } }),
      protocol: PROTOCOL,
    });
  }
  ext.writeRest(out, part);
  return out;
}

/** A base64 `data:` URL that names its media type (Claude's `base64` source needs one). */
function typedDataUrl(url: string): DataUrl | undefined {
  const parsed = parseDataUrl(url);
  return parsed && parsed.mediaType !== '' ? parsed : undefined;
}

/** Canonical source -> wire source; `undefined` (reported) when Claude cannot take it. */
function encodeSource(source: LlmMediaSource, path: string, options: EncodePartOptions, document: boolean): Wire | undefined {
  switch (source.kind) {
    case 'base64':
      return { type: 'base64', media_type: source.mediaType, data: source.data };
    case 'url': {
      const inline = typedDataUrl(source.url);
      if (inline) return { type: 'base64', media_type: inline.mediaType, data: inline.data };
      return { type: 'url', url: source.url };
    }
    case 'file':
      if (source.provider === undefined || source.provider === PROTOCOL) return { type: 'file', file_id: source.fileId };
      reportLoss(options.context, {
        code: 'dropped-part',
        path,
        message: `a file uploaded to ${source.provider} cannot be sent to Claude`,
        protocol: PROTOCOL,
      });
      return undefined;
    case 'text':
      if (document) return { type: 'text', media_type: 'text/plain', data: source.text };
      reportLoss(options.context, { code: 'dropped-part', path, message: 'an image given as text was dropped', protocol: PROTOCOL });
      return undefined;
  }
}

function mediaTypeOf(source: LlmMediaSource): string | undefined {
  if (source.kind === 'url') return typedDataUrl(source.url)?.mediaType ?? source.mediaType;
  return source.mediaType;
}

function imageBlock(part: LlmImagePart | LlmFilePart, path: string, options: EncodePartOptions): Wire | undefined {
  const source = encodeSource(part.source, path, options, false);
  if (!source) return undefined;
  const out: Wire = { type: 'image', source };
  if (part.cache) out.cache_control = cacheHintToWire(part.cache);
  if (part.type === 'image' && part.detail !== undefined) {
    reportLoss(options.context, { code: 'dropped-field', path: `${path}.detail`, message: 'Claude has no image detail setting', protocol: PROTOCOL });
  }
  ext.writeRest(out, part);
  return out;
}

function documentBlock(part: LlmFilePart, path: string, options: EncodePartOptions): Wire | undefined {
  const mediaType = mediaTypeOf(part.source);
  if (mediaType?.startsWith('image/')) return imageBlock(part, path, options);
  let source: Wire | undefined;
  if (part.source.kind === 'base64' && mediaType !== 'application/pdf') {
    if (mediaType?.startsWith('text/') || mediaType === 'application/json') {
      source = { type: 'text', media_type: 'text/plain', data: decodeBase64Text(part.source.data) };
    } else {
      reportLoss(options.context, {
        code: 'dropped-part',
        path,
        message: `Claude documents take PDF or plain text, not ${mediaType ?? 'unknown media'}`,
        protocol: PROTOCOL,
      });
      return undefined;
    }
  } else source = encodeSource(part.source, path, options, true);
  if (!source) return undefined;
  const out: Wire = { type: 'document', source };
  if (part.title !== undefined) out.title = part.title;
  else if (part.filename !== undefined) out.title = part.filename;
  if (part.context !== undefined) out.context = part.context;
  if (part.citations !== undefined) out.citations = { enabled: part.citations };
  if (part.cache) out.cache_control = cacheHintToWire(part.cache);
  ext.writeRest(out, part);
  return out;
}

function decodeBase64Text(data: string): string {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return new TextDecoder().decode(bytes);
}

function reasoningBlock(part: LlmReasoningPart, path: string, options: EncodePartOptions): Wire | undefined {
  const foreign = part.origin !== undefined && part.origin.protocol !== PROTOCOL;
  if (foreign && !options.response) {
    reportLoss(options.context, {
      ...opaqueStateWarning(path, { foreign: part.origin!, target: { protocol: PROTOCOL, model: options.model } }),
      protocol: PROTOCOL,
    });
    return undefined;
  }
  if (part.signature === undefined && !options.response) {
    reportLoss(options.context, {
      code: 'dropped-part',
      path,
      message: 'reasoning without a Claude signature cannot be replayed to Claude',
      protocol: PROTOCOL,
    });
    return undefined;
  }
  const out: Wire = part.redacted
    ? { type: 'redacted_thinking', data: part.signature ?? '' }
    : { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
  ext.writeRest(out, part);
  return out;
}

function toolUseBlock(part: LlmToolCallPart, path: string, options: EncodePartOptions): Wire {
  let input = toolArgumentsObject(part.arguments);
  if (part.freeform) {
    input = { input: typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments) };
    reportLoss(options.context, {
      code: 'lossy-conversion',
      path,
      message: 'a free-form tool call was sent as a call with one string argument `input`',
      protocol: PROTOCOL,
    });
  } else if (input === undefined) {
    reportLoss(options.context, {
      code: 'lossy-conversion',
      path: `${path}.arguments`,
      message: 'tool-call arguments that are not a JSON object were replaced by {}',
      protocol: PROTOCOL,
    });
    input = {};
  }
  const out: Wire = { type: 'tool_use', id: part.id, name: part.name, input };
  if (part.cache) out.cache_control = cacheHintToWire(part.cache);
  if (part.signature !== undefined && part.origin?.protocol !== PROTOCOL) {
    reportLoss(options.context, {
      ...opaqueStateWarning(path, { foreign: part.origin ?? { protocol: 'gemini' }, target: { protocol: PROTOCOL, model: options.model } }),
      protocol: PROTOCOL,
    });
  }
  ext.writeRest(out, part);
  return out;
}

/** A tool result -> `tool_result` block. */
export function toolResultBlock(part: LlmToolResultPart, path: string, options: EncodePartOptions): Wire {
  const out: Wire = { type: 'tool_result', tool_use_id: part.toolCallId };
  const bag = ext.bag(part);
  if (typeof part.content === 'string') {
    if (!(bag?.$noContent && part.content === '')) out.content = part.content;
  } else {
    const blocks: Wire[] = [];
    const contentPath = `${path}.content`;
    for (let index = 0; index < part.content.length; index++) {
      const item = part.content[index]!;
      const itemPath = `${contentPath}[${index}]`;
      if (item.type === 'json') {
        if (ext.bag(item)?.$block) blocks.push(item.value as Wire);
        else blocks.push({ type: 'text', text: JSON.stringify(item.value) });
        continue;
      }
      const block = encodePart(item, itemPath, options);
      if (block) blocks.push(block);
    }
    out.content = blocks;
  }
  if (part.isError !== undefined) out.is_error = part.isError;
  if (part.cache) out.cache_control = cacheHintToWire(part.cache);
  ext.writeRest(out, part);
  return out;
}

/**
 * A canonical part -> a wire block, or `undefined` when Claude cannot take it (reported through
 * `options.context`).
 */
export function encodePart(part: LlmPart, path: string, options: EncodePartOptions): Wire | undefined {
  switch (part.type) {
    case 'text':
      return textBlock(part, path, options);
    case 'image':
      return imageBlock(part, path, options);
    case 'file':
      return documentBlock(part, path, options);
    case 'reasoning':
      return reasoningBlock(part, path, options);
    case 'tool-call':
      return toolUseBlock(part, path, options);
    case 'tool-result':
      return toolResultBlock(part, path, options);
    case 'refusal': {
      // Claude signals refusals with stop_reason; the text itself is plain assistant text.
      const out: Wire = { type: 'text', text: part.text };
      ext.writeRest(out, part);
      return out;
    }
    case 'json':
      return { type: 'text', text: JSON.stringify(part.value) };
    case 'provider':
      if (part.protocol === PROTOCOL) return part.value as Wire;
      reportLoss(options.context, {
        code: 'dropped-part',
        path,
        message: `a ${part.protocol} item has no Claude equivalent`,
        protocol: PROTOCOL,
      });
      return undefined;
    case 'audio':
      reportLoss(options.context, { code: 'dropped-part', path, message: 'Claude takes no audio input', protocol: PROTOCOL });
      return undefined;
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/** Encodes a list of parts, skipping the ones Claude cannot take. */
export function encodeParts(parts: readonly LlmPart[], path: string, options: EncodePartOptions): Wire[] {
  const out: Wire[] = [];
  for (let index = 0; index < parts.length; index++) {
    const block = encodePart(parts[index]!, `${path}[${index}]`, options);
    if (block) out.push(block);
  }
  return out;
}

/** Narrowing helper for assistant content decoded from a response. */
export function asAssistantContent(part: LlmPart, path: string): LlmAssistantContent {
  if (part.type === 'tool-result' || part.type === 'json') {
    // Both kinds come from a `tool_result` block, which an answer cannot hold.
    return read.invalid({ type: 'tool_result' }, 'type', path, 'an assistant content block');
  }
  return part;
}
