import type {
  CodecContext,
  LlmFilePart,
  LlmImagePart,
  LlmMediaSource,
  LlmOrigin,
  LlmPart,
  LlmReasoningPart,
  LlmToolCallPart,
  LlmToolResultPart,
} from '@llm/core';
import {
  CALL_ARGUMENTS_LOSS,
  objectCallArguments,
  isCodeExecutionPart,
  isMcpPart,
  reportCodeExecutionDropped,
  reportForeignPartState,
  reportLoss,
  reportMcpPartDropped,
  reportOpaqueState,
} from '@llm/core';
import { parseDataUrl } from '@llm/core/kit';
import { cachePointBlock } from './cache-point.js';
import { documentFormat, documentName, imageFormat } from './media.js';
import { PROTOCOL, ext } from './protocol.js';

type Wire = Record<string, unknown>;

/** Options of {@link encodeContent}. */
export interface EncodeContentOptions {
  context?: CodecContext;
  /** Model the request goes to (for origin checks). */
  model?: string;
  /** Encoding an answer (Converse's own output): reasoning is written as it is. */
  response?: boolean;
}

/** Reports a loss; returns `undefined` so that a dropped part reads `return loss(...)`. */
function loss(options: EncodeContentOptions, code: string, path: string, message: string): undefined {
  reportLoss(options.context, { code, path, message, protocol: PROTOCOL });
  return undefined;
}

/** Inline bytes and their media type, from base64 or a `data:` URL; `undefined` for other sources. */
function inline(source: LlmMediaSource): { mediaType: string | undefined; data: string } | undefined {
  if (source.kind === 'base64') return { mediaType: source.mediaType, data: source.data };
  if (source.kind === 'url') {
    const parsed = parseDataUrl(source.url);
    if (parsed) return { mediaType: parsed.mediaType || source.mediaType, data: parsed.data };
  }
  return undefined;
}

function sourceLoss(source: LlmMediaSource, what: string, path: string, options: EncodeContentOptions): undefined {
  const how = source.kind === 'url' ? 'by URL' : source.kind === 'file' ? `as a file uploaded to ${source.provider ?? 'a provider'}` : 'as text';
  return loss(options, 'dropped-part', path, `Converse takes ${what} as bytes, not ${how}`);
}

function imageBlock(part: LlmImagePart | LlmFilePart, path: string, options: EncodeContentOptions): Wire | undefined {
  const bytes = inline(part.source);
  if (!bytes) return sourceLoss(part.source, 'images', path, options);
  const format = imageFormat(bytes.mediaType);
  if (format === undefined)
    return loss(options, 'dropped-part', path, `Converse takes png, jpeg, gif or webp images, not ${bytes.mediaType ?? 'unknown media'}`);
  if (part.type === 'image' && part.detail !== undefined) loss(options, 'dropped-field', `${path}.detail`, 'Converse has no image detail setting');
  return { image: { format, source: { bytes: bytes.data } } };
}

function documentBlock(part: LlmFilePart, path: string, options: EncodeContentOptions): Wire | undefined {
  const source = part.source;
  const mediaType = source.kind === 'url' ? (parseDataUrl(source.url)?.mediaType ?? source.mediaType) : source.mediaType;
  if (mediaType?.startsWith('image/')) return imageBlock(part, path, options);
  let format: string | undefined;
  let body: Wire;
  if (source.kind === 'text') {
    format = documentFormat(source.mediaType);
    body = { text: source.text };
  } else {
    const bytes = inline(source);
    if (!bytes) return sourceLoss(source, 'documents', path, options);
    format = documentFormat(bytes.mediaType);
    if (format === undefined)
      return loss(
        options,
        'dropped-part',
        path,
        `Converse documents take pdf, csv, doc(x), xls(x), html, txt or md, not ${bytes.mediaType ?? 'unknown media'}`,
      );
    body = { bytes: bytes.data };
  }
  const given = part.filename ?? part.title;
  const name = documentName(given ?? 'document');
  if (given !== undefined && name !== given)
    loss(
      options,
      'lossy-conversion',
      `${path}.filename`,
      `Converse document names take letters, digits, spaces, -, () and []: "${given}" was sent as "${name}"`,
    );
  const out: Wire = format === undefined ? { name, source: body } : { format, name, source: body };
  if (part.filename !== undefined && part.title !== undefined)
    loss(options, 'dropped-field', `${path}.title`, 'a Converse document has one name: the file name was kept');
  if (part.context !== undefined) out.context = part.context;
  if (part.citations !== undefined) out.citations = { enabled: part.citations };
  ext.writeRest(out, part);
  return { document: out };
}

/** Reports reasoning state another protocol issued, which Converse cannot take. */
export function reportForeignReasoning(origin: LlmOrigin, path: string, options: Pick<EncodeContentOptions, 'context' | 'model'>): void {
  reportOpaqueState(options.context, path, origin, { protocol: PROTOCOL, model: options.model });
}

function reasoningBlock(part: LlmReasoningPart, path: string, options: EncodeContentOptions): Wire | undefined {
  const foreign = part.origin !== undefined && part.origin.protocol !== PROTOCOL;
  // In an answer, another protocol's reasoning keeps its text, never its state (a redacted block is nothing else).
  if (foreign && (!options.response || part.redacted)) {
    reportForeignReasoning(part.origin!, path, options);
    return undefined;
  }
  if (part.origin === undefined && part.signature === undefined && !options.response) {
    return loss(options, 'dropped-part', path, 'reasoning without a Converse signature cannot be replayed to Converse');
  }
  if (part.redacted) return { reasoningContent: { redactedContent: part.signature ?? '' } };
  const text: Wire = { text: part.text };
  if (part.signature !== undefined && !foreign) text.signature = part.signature;
  else if (part.signature !== undefined) reportForeignReasoning(part.origin!, path, options);
  return { reasoningContent: { reasoningText: text } };
}

function toolUseBlock(part: LlmToolCallPart, path: string, options: EncodeContentOptions): Wire {
  const input = objectCallArguments(part.arguments, part.freeform, (kind) =>
    loss(options, 'lossy-conversion', kind === 'freeform' ? path : `${path}.arguments`, CALL_ARGUMENTS_LOSS[kind]),
  );
  // Opaque state from another provider on a text part or call cannot travel (Converse has no field for it).
  reportForeignPartState(options.context, path, part, { protocol: PROTOCOL, model: options.model });
  const out: Wire = { toolUseId: part.id, name: part.name, input };
  ext.writeRest(out, part);
  return { toolUse: out };
}

/** A tool result -> a `toolResult` block (`status` only when the result says). */
function toolResultBlock(part: LlmToolResultPart, path: string, options: EncodeContentOptions): Wire {
  const content: Wire[] = [];
  if (typeof part.content === 'string') {
    if (part.content !== '') content.push({ text: part.content });
  } else {
    const contentPath = `${path}.content`;
    for (let index = 0; index < part.content.length; index++) {
      const item = part.content[index]!;
      const itemPath = `${contentPath}[${index}]`;
      let block: Wire | undefined;
      switch (item.type) {
        case 'json':
          block = ext.bag(item)?.$block ? (item.value as Wire) : { json: item.value };
          break;
        case 'text':
          block = { text: item.text };
          break;
        case 'image':
          block = imageBlock(item, itemPath, options);
          break;
        case 'file':
          block = documentBlock(item, itemPath, options);
          break;
        case 'audio':
          block = loss(options, 'dropped-part', itemPath, 'Converse takes no audio input');
          break;
      }
      if (block) content.push(block);
    }
  }
  const out: Wire = { toolUseId: part.toolCallId, content };
  if (part.isError !== undefined) out.status = part.isError ? 'error' : 'success';
  ext.writeRest(out, part);
  return { toolResult: out };
}

/** Why a code run is dropped, in an answer's body and its stream alike. */
const NO_CODE_EXECUTION = 'Converse hosts no code execution';

/** One part -> its wire block, or undefined when Converse cannot take it (the loss is reported). */
export function encodePart(part: LlmPart, path: string, options: EncodeContentOptions): Wire | undefined {
  if (isMcpPart(part)) return reportMcpPartDropped(part, path, PROTOCOL, options.context);
  if (isCodeExecutionPart(part)) return reportCodeExecutionDropped(part, path, PROTOCOL, options.context, NO_CODE_EXECUTION);
  switch (part.type) {
    case 'text':
      reportForeignPartState(options.context, path, part, { protocol: PROTOCOL, model: options.model });
      if (part.citations) loss(options, 'dropped-field', `${path}.citations`, 'Converse text blocks carry no citations');
      return { text: part.text };
    case 'refusal':
      // Converse says a refusal with its stop reason; the words are plain text.
      return { text: part.text };
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
    case 'json':
      return { text: JSON.stringify(part.value) };
    case 'provider':
      if (part.protocol === PROTOCOL) return part.value as Wire;
      return loss(options, 'dropped-part', path, `a ${part.protocol} item has no Converse equivalent`);
    case 'audio':
      return loss(options, 'dropped-part', path, 'Converse takes no audio input');
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/** Parts -> wire blocks, each part's cache hint as a `cachePoint` after it; appended to `out`. */
export function encodeContent(parts: readonly LlmPart[], path: string, options: EncodeContentOptions, out: Wire[] = []): Wire[] {
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const block = encodePart(part, `${path}[${index}]`, options);
    if (!block) continue;
    out.push(block);
    if (part.cache) out.push(cachePointBlock(part.cache));
  }
  return out;
}
