import type {
  JsonObject,
  LlmFilePart,
  LlmImagePart,
  LlmJsonPart,
  LlmMcpPart,
  LlmPart,
  LlmProviderPart,
  LlmReasoningPart,
  LlmTextPart,
  LlmToolCallPart,
  LlmToolResultContent,
  LlmToolResultPart,
} from '@llm/core';
import { cacheHintFromPoint } from './cache-point.js';
import { documentMediaType, imageMediaType } from './media.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { hasOnly, memberOf } from './union.js';

type Wire = Record<string, unknown>;

const TOOL_USE_KNOWN = new Set(['toolUseId', 'name', 'input']);
const TOOL_RESULT_KNOWN = new Set(['toolUseId', 'content', 'status']);
const DOCUMENT_KNOWN = new Set(['format', 'name', 'source', 'context', 'citations']);

function provider(block: Wire): LlmProviderPart {
  return { type: 'provider', protocol: PROTOCOL, value: block };
}

/** `{format, source: {bytes}}` -> an image part; S3 sources and unknown formats stay whole. */
function decodeImage(block: Wire, path: string): LlmImagePart | LlmProviderPart {
  const image = read.object(block, 'image', path);
  const mediaType = imageMediaType(image.format);
  const source = image.source;
  if (mediaType === undefined || !hasOnly(image, ['format', 'source']) || !hasOnly(source, ['bytes']) || typeof source.bytes !== 'string') {
    return provider(block);
  }
  return { type: 'image', source: { kind: 'base64', mediaType, data: source.bytes } };
}

/** `{format, name, source: {bytes} | {text}}` -> a file part; S3 and content sources stay whole. */
function decodeDocument(block: Wire, path: string): LlmFilePart | LlmProviderPart {
  const document = read.object(block, 'document', path);
  const inner = `${path}.document`;
  const name = read.string(document, 'name', inner);
  const source = read.object(document, 'source', inner);
  const mediaType = documentMediaType(document.format);
  if (document.format != null && mediaType === undefined) return provider(block);
  let part: LlmFilePart;
  if (hasOnly(source, ['bytes']) && typeof source.bytes === 'string' && mediaType !== undefined) {
    part = { type: 'file', source: { kind: 'base64', mediaType, data: source.bytes }, filename: name };
  } else if (hasOnly(source, ['text']) && typeof source.text === 'string') {
    part = { type: 'file', source: mediaType ? { kind: 'text', text: source.text, mediaType } : { kind: 'text', text: source.text }, filename: name };
  } else return provider(block);
  const context = read.optionalString(document, 'context', inner);
  if (context !== undefined) part.context = context;
  const citations = read.optionalObject(document, 'citations', inner);
  if (citations) {
    if (!hasOnly(citations, ['enabled']) || typeof citations.enabled !== 'boolean') return provider(block);
    part.citations = citations.enabled;
  }
  return ext.keep(part, ext.rest(document, DOCUMENT_KNOWN));
}

function decodeToolUse(block: Wire, path: string): LlmToolCallPart {
  const call = read.object(block, 'toolUse', path);
  const inner = `${path}.toolUse`;
  const part: LlmToolCallPart = {
    type: 'tool-call',
    id: read.string(call, 'toolUseId', inner),
    name: read.string(call, 'name', inner),
    arguments: read.object(call, 'input', inner) as JsonObject,
  };
  return ext.keep(part, ext.rest(call, TOOL_USE_KNOWN));
}

function decodeReasoning(block: Wire, path: string): LlmReasoningPart | LlmProviderPart {
  const reasoning = read.object(block, 'reasoningContent', path);
  const inner = `${path}.reasoningContent`;
  switch (memberOf(reasoning)) {
    case 'reasoningText': {
      const text = read.object(reasoning, 'reasoningText', inner);
      if (!hasOnly(text, ['text', 'signature'])) return provider(block);
      const textPath = `${inner}.reasoningText`;
      const part: LlmReasoningPart = { type: 'reasoning', text: read.string(text, 'text', textPath), origin: { protocol: PROTOCOL } };
      const signature = read.optionalString(text, 'signature', textPath);
      if (signature !== undefined) part.signature = signature;
      return part;
    }
    case 'redactedContent':
      return { type: 'reasoning', text: '', redacted: true, signature: read.string(reasoning, 'redactedContent', inner), origin: { protocol: PROTOCOL } };
    default:
      return provider(block);
  }
}

/** One item of a tool result's `content` -> a canonical part (unknown items ride as kept JSON). */
function decodeResultItem(list: unknown[], index: number, parent: string): LlmToolResultContent {
  const item = read.object(list, index, parent);
  const path = `${parent}[${index}]`;
  let part: LlmToolResultContent | LlmProviderPart;
  switch (memberOf(item)) {
    case 'text':
      return { type: 'text', text: read.string(item, 'text', path) };
    case 'json':
      if (item.json === undefined) read.invalid(item, 'json', path, 'a JSON value');
      return { type: 'json', value: item.json };
    case 'image':
      part = decodeImage(item, path);
      break;
    case 'document':
      part = decodeDocument(item, path);
      break;
    default:
      part = provider(item);
  }
  // Items with no canonical part (video, search results, S3 media) ride as a json part kept whole.
  return part.type === 'provider' ? ({ type: 'json', value: item, extensions: { [PROTOCOL]: { $block: true } } } satisfies LlmJsonPart) : part;
}

function decodeToolResult(block: Wire, path: string): LlmToolResultPart {
  const result = read.object(block, 'toolResult', path);
  const inner = `${path}.toolResult`;
  const list = read.array(result, 'content', inner);
  const contentPath = `${inner}.content`;
  const content: LlmToolResultContent[] = new Array(list.length);
  for (let index = 0; index < list.length; index++) content[index] = decodeResultItem(list, index, contentPath);
  const part: LlmToolResultPart = { type: 'tool-result', toolCallId: read.string(result, 'toolUseId', inner), content };
  const status = result.status;
  if (status != null) part.isError = read.oneOf(result, 'status', inner, ['success', 'error']) === 'error';
  return ext.keep(part, ext.rest(result, TOOL_RESULT_KNOWN));
}

/** One content block -> a canonical part; blocks with no canonical meaning are kept whole. */
function decodeBlock(block: Wire, path: string): ConverseDecodedPart {
  switch (memberOf(block)) {
    case 'text':
      return { type: 'text', text: read.string(block, 'text', path) } satisfies LlmTextPart;
    case 'image':
      return decodeImage(block, path);
    case 'document':
      return decodeDocument(block, path);
    case 'toolUse':
      return decodeToolUse(block, path);
    case 'toolResult':
      return decodeToolResult(block, path);
    case 'reasoningContent':
      return decodeReasoning(block, path);
    default:
      // video, guardContent, citationsContent, searchResult, ...: Converse's own, kept whole.
      return provider(block);
  }
}

/** A part Converse content decodes to: Converse hosts no MCP, so never an MCP part. */
export type ConverseDecodedPart = Exclude<LlmPart, LlmMcpPart>;

/** Decoded content: the parts, and for each the index of the wire block it came from. */
export interface DecodedContent {
  parts: ConverseDecodedPart[];
  blockOf: number[];
}

/**
 * A message's `content` (or `system`) -> canonical parts. A `cachePoint` becomes the cache hint
 * of the part before it; one that cannot (first in the list, after a part that has one, or of an
 * unknown shape) is kept whole.
 */
export function decodeContent(list: unknown[], parent: string): DecodedContent {
  const parts: ConverseDecodedPart[] = [];
  const blockOf: number[] = [];
  for (let index = 0; index < list.length; index++) {
    const block = read.object(list, index, parent);
    if (memberOf(block) === 'cachePoint') {
      const hint = cacheHintFromPoint(block.cachePoint);
      const previous = parts[parts.length - 1];
      if (hint && previous && previous.cache === undefined && previous.type !== 'provider') {
        previous.cache = hint;
        continue;
      }
    }
    parts.push(decodeBlock(block, `${parent}[${index}]`));
    blockOf.push(index);
  }
  return { parts, blockOf };
}
