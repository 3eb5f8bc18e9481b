import type {
  CodecContext,
  LlmFilePart,
  LlmImagePart,
  LlmMediaSource,
  LlmPart,
  LlmReasoningPart,
  LlmTextPart,
  LlmToolCallPart,
  LlmToolResultPart,
} from '@llm/core';
import {
  CALL_ARGUMENTS_LOSS,
  codeExecutionAsText,
  type CodeExecutionPairs,
  type LlmCodeExecutionPartKind,
  cacheHintToWire,
  objectCallArguments,
  reportForeignPartState,
  reportLoss,
  reportMcpPartDropped,
  reportOpaqueState,
} from '@llm/core';
import { encodeCitation } from './citations.js';
import { parseDataUrl, type DataUrl, type PartPath, type PathLike } from '@llm/core/kit';
import { MCP_PART_LOSS, mcpToolListingBlock, mcpToolResultBlock, mcpToolUseBlock } from './mcp-blocks.js';
import { PROTOCOL, ext } from './protocol.js';
import { codeExecutionPairs, codeResultBlock, codeUseBlock } from './code-execution-blocks.js';

type Wire = Record<string, unknown>;

/** Options of {@link encodePart}. */
export interface EncodePartOptions {
  context?: CodecContext;
  /** Model the request goes to (for origin checks). */
  model?: string;
  /** Encoding a response (Claude's own output): foreign reasoning keeps an empty signature. */
  response?: boolean;
  /** Pairs the answer's code runs with their results (one per answer). */
  codePairs?: CodeExecutionPairs;
}

/**
 * A code run -> its block in an answer, or in history when Claude's sandbox ran it. Another
 * protocol's run goes back to Claude as text (reported): Claude takes back only its own server tool blocks.
 */
function codeBlock(part: LlmCodeExecutionPartKind, path: PathLike, options: EncodePartOptions): Wire {
  if (!options.response && part.origin?.protocol !== PROTOCOL) {
    return {
      type: 'text',
      text: codeExecutionAsText(part, String(path), PROTOCOL, options.context, 'Claude takes back only the code runs of its own sandbox'),
    };
  }
  const pairs = (options.codePairs ??= codeExecutionPairs());
  return part.type === 'code-execution' ? codeUseBlock(part, path, pairs, options.context) : codeResultBlock(part, path, pairs, options.context);
}

function textBlock(part: LlmTextPart, path: PathLike, options: EncodePartOptions): Wire {
  const out: Wire = { type: 'text', text: part.text };
  if (part.citations) {
    const citationsPath = `${path}.citations`;
    out.citations = part.citations.map((citation, index) => encodeCitation(citation, `${citationsPath}[${index}]`, options.context));
  }
  if (part.cache) out.cache_control = cacheHintToWire(part.cache);
  reportForeignPartState(options.context, path, part, { protocol: PROTOCOL, model: options.model });
  ext.writeRest(out, part);
  return out;
}

/** A base64 `data:` URL that names its media type (Claude's `base64` source needs one). */
function typedDataUrl(url: string): DataUrl | undefined {
  const parsed = parseDataUrl(url);
  return parsed && parsed.mediaType !== '' ? parsed : undefined;
}

/** Canonical source -> wire source; `undefined` (reported) when Claude cannot take it. */
function encodeSource(source: LlmMediaSource, path: PathLike, options: EncodePartOptions, document: boolean): Wire | undefined {
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
        path: String(path),
        message: `a file uploaded to ${source.provider} cannot be sent to Claude`,
        protocol: PROTOCOL,
      });
      return undefined;
    case 'text':
      if (document) return { type: 'text', media_type: 'text/plain', data: source.text };
      reportLoss(options.context, { code: 'dropped-part', path: String(path), message: 'an image given as text was dropped', protocol: PROTOCOL });
      return undefined;
  }
}

function mediaTypeOf(source: LlmMediaSource): string | undefined {
  if (source.kind === 'url') return typedDataUrl(source.url)?.mediaType ?? source.mediaType;
  return source.mediaType;
}

function imageBlock(part: LlmImagePart | LlmFilePart, path: PathLike, options: EncodePartOptions): Wire | undefined {
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

function documentBlock(part: LlmFilePart, path: PathLike, options: EncodePartOptions): Wire | undefined {
  const mediaType = mediaTypeOf(part.source);
  if (mediaType?.startsWith('image/')) return imageBlock(part, path, options);
  let source: Wire | undefined;
  if (part.source.kind === 'base64' && mediaType !== 'application/pdf') {
    if (mediaType?.startsWith('text/') || mediaType === 'application/json') {
      source = { type: 'text', media_type: 'text/plain', data: decodeBase64Text(part.source.data) };
    } else {
      reportLoss(options.context, {
        code: 'dropped-part',
        path: String(path),
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

/** Reports reasoning state another protocol issued, which Claude cannot take. */
export function reportForeignReasoning(part: Pick<LlmReasoningPart, 'origin'>, path: PathLike, options: EncodePartOptions): void {
  reportOpaqueState(options.context, path, part.origin!, { protocol: PROTOCOL, model: options.model });
}

function reasoningBlock(part: LlmReasoningPart, path: PathLike, options: EncodePartOptions): Wire | undefined {
  const foreign = part.origin !== undefined && part.origin.protocol !== PROTOCOL;
  if (foreign && !options.response) {
    reportForeignReasoning(part, path, options);
    return undefined;
  }
  if (part.signature === undefined && !options.response) {
    reportLoss(options.context, {
      code: 'dropped-part',
      path: String(path),
      message: 'reasoning without a Claude signature cannot be replayed to Claude',
      protocol: PROTOCOL,
    });
    return undefined;
  }
  // In an answer, another protocol's signature is not Claude's to replay: the thinking stays, unsigned.
  const keptSignature = foreign && !part.redacted ? undefined : part.signature;
  if (part.signature !== undefined && keptSignature === undefined) reportForeignReasoning(part, path, options);
  const out: Wire = part.redacted
    ? { type: 'redacted_thinking', data: part.signature ?? '' }
    : { type: 'thinking', thinking: part.text, signature: keptSignature ?? '' };
  ext.writeRest(out, part);
  return out;
}

function toolUseBlock(part: LlmToolCallPart, path: PathLike, options: EncodePartOptions): Wire {
  const input = objectCallArguments(part.arguments, part.freeform, (kind) =>
    reportLoss(options.context, {
      code: 'lossy-conversion',
      path: kind === 'freeform' ? String(path) : `${path}.arguments`,
      message: CALL_ARGUMENTS_LOSS[kind],
      protocol: PROTOCOL,
    }),
  );
  const out: Wire = { type: 'tool_use', id: part.id, name: part.name, input };
  if (part.cache) out.cache_control = cacheHintToWire(part.cache);
  reportForeignPartState(options.context, path, part, { protocol: PROTOCOL, model: options.model });
  ext.writeRest(out, part);
  return out;
}

/** A tool result -> `tool_result` block. */
export function toolResultBlock(part: LlmToolResultPart, path: PathLike, options: EncodePartOptions): Wire {
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
export function encodePart(part: LlmPart, path: PathLike, options: EncodePartOptions): Wire | undefined {
  switch (part.type) {
    case 'mcp-call':
      return mcpToolUseBlock(part, path, options.context);
    case 'mcp-result':
      return mcpToolResultBlock(part);
    case 'mcp-list-tools':
      return mcpToolListingBlock(part) ?? reportMcpPartDropped(part, String(path), PROTOCOL, options.context, MCP_PART_LOSS);
    case 'mcp-approval-request':
    case 'mcp-approval-response':
      return reportMcpPartDropped(part, String(path), PROTOCOL, options.context, MCP_PART_LOSS);
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
    case 'code-execution':
    case 'code-execution-result':
      return codeBlock(part, path, options);
    case 'provider':
      if (part.protocol === PROTOCOL) return part.value as Wire;
      reportLoss(options.context, {
        code: 'dropped-part',
        path: String(path),
        message: `${part.protocol} item has no Claude equivalent`,
        protocol: PROTOCOL,
      });
      return undefined;
    case 'audio':
      reportLoss(options.context, { code: 'dropped-part', path: String(path), message: 'Claude takes no audio input', protocol: PROTOCOL });
      return undefined;
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/** Encodes a message's parts (`path` moved along them), skipping the ones Claude cannot take. */
export function encodeParts(parts: readonly LlmPart[], path: PartPath, options: EncodePartOptions): Wire[] {
  const out: Wire[] = [];
  for (let index = 0; index < parts.length; index++) {
    path.part = index;
    const block = encodePart(parts[index]!, path, options);
    if (block) out.push(block);
  }
  return out;
}
