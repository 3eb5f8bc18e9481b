import type {
  JsonObject,
  LlmAssistantContent,
  LlmCacheHint,
  LlmFilePart,
  LlmImagePart,
  LlmJsonPart,
  LlmMcpApprovalResponsePart,
  LlmMediaSource,
  LlmPart,
  LlmProviderPart,
  LlmReasoningPart,
  LlmTextPart,
  LlmToolCallPart,
  LlmToolResultContent,
  LlmToolResultPart,
} from '@llm/core';
import { cacheHintFromWire } from '@llm/core';
import { decodeCitation } from './citations.js';
import { decodeMcpToolListing, decodeMcpToolResult, decodeMcpToolUse } from './mcp-blocks.js';
import { decodeCodeResult, decodeCodeUse } from './code-execution-blocks.js';
import type { PathLike } from '@llm/core/kit';
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
function decodeSource(block: Wire, path: PathLike): LlmMediaSource | undefined {
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

function decodeText(block: Wire, path: PathLike): LlmTextPart {
  const part: LlmTextPart = { type: 'text', text: read.string(block, 'text', path) };
  const rest = takeCache(block, part, ext.rest(block, TEXT_KNOWN));
  const list = read.optionalArray(block, 'citations', path);
  if (list) {
    const citationsPath = `${path}.citations`;
    part.citations = list.map((_, index) => decodeCitation(list, index, citationsPath));
  }
  return ext.keep(part, rest);
}

function decodeImage(block: Wire, path: PathLike): LlmImagePart | LlmProviderPart {
  const source = decodeSource(block, path);
  if (!source || source.kind === 'text') return provider(block);
  const part: LlmImagePart = { type: 'image', source };
  return ext.keep(part, takeCache(block, part, ext.rest(block, IMAGE_KNOWN)));
}

function decodeDocument(block: Wire, path: PathLike): LlmFilePart | LlmProviderPart {
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

function decodeThinking(block: Wire, path: PathLike): LlmReasoningPart {
  const part: LlmReasoningPart = {
    type: 'reasoning',
    text: read.string(block, 'thinking', path),
    signature: read.string(block, 'signature', path),
    origin: { protocol: PROTOCOL },
  };
  return ext.keep(part, ext.rest(block, THINKING_KNOWN));
}

function decodeRedacted(block: Wire, path: PathLike): LlmReasoningPart {
  const part: LlmReasoningPart = {
    type: 'reasoning',
    text: '',
    redacted: true,
    signature: read.string(block, 'data', path),
    origin: { protocol: PROTOCOL },
  };
  return ext.keep(part, ext.rest(block, REDACTED_KNOWN));
}

function decodeToolUse(block: Wire, path: PathLike): LlmToolCallPart {
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
export function decodeToolResult(block: Wire, path: PathLike): LlmToolResultPart {
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
        decoded.type === 'provider' ? ({ type: 'json', value: item, extensions: { [PROTOCOL]: { $block: true } } } satisfies LlmJsonPart) : decoded;
    }
    part.content = parts;
  }
  if (typeof block.is_error === 'boolean') part.isError = block.is_error;
  else if (block.is_error != null) read.invalid(block, 'is_error', path, 'a boolean');
  return ext.keep(part, rest);
}

/** A part a Claude block decodes to: Claude has no approval step, so never an MCP approval response. */
export type ClaudeDecodedPart = Exclude<LlmPart, LlmMcpApprovalResponsePart>;

/**
 * One content block of a message -> a canonical part. Code runs become code-execution parts;
 * blocks with no canonical meaning (other server tool activity, `search_result`, beta blocks, unknown types) become provider parts, kept whole.
 * `tool_result` is handled by the caller (it moves to a tool message).
 */
export function decodeBlock(blocks: readonly unknown[], index: number, parent: string): ClaudeDecodedPart {
  return decodeBlockAt(read.object(blocks, index, parent), `${parent}[${index}]`);
}

/** {@link decodeBlock} of a block read already, found at `path` (a ChildPath, for a request's messages). */
export function decodeBlockAt(block: Wire, path: PathLike): ClaudeDecodedPart {
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
    case 'mcp_tool_use':
      return decodeMcpToolUse(block, path);
    case 'mcp_tool_result':
      return decodeMcpToolResult(block, path);
    case 'mcp_tool_listing':
      return decodeMcpToolListing(block, path);
    case 'tool_use':
      return decodeToolUse(block, path);
    case 'tool_result':
      return decodeToolResult(block, path);
    case 'server_tool_use':
      return decodeCodeUse(block, path) ?? provider(block);
    case 'code_execution_tool_result':
    case 'bash_code_execution_tool_result':
      return decodeCodeResult(block, path) ?? provider(block);
    default:
      read.string(block, 'type', path);
      return provider(block);
  }
}

/** Narrowing helper for assistant content decoded from a response. */
export function asAssistantContent(part: ClaudeDecodedPart, path: string): LlmAssistantContent {
  if (part.type === 'tool-result' || part.type === 'json') {
    // Both kinds come from a `tool_result` block, which an answer cannot hold.
    return read.invalid({ type: 'tool_result' }, 'type', path, 'an assistant content block');
  }
  return part;
}
