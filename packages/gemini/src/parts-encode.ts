import {
  bytesToBase64,
  opaqueStateWarning,
  reportLoss,
  isMcpPart,
  reportMcpPartDropped,
  CALL_ARGUMENTS_LOSS,
  objectCallArguments,
  toolArgumentsObject,
  type CodecContext,
  type JsonObject,
  type LlmMediaSource,
  type LlmOrigin,
  type LlmPart,
  type LlmToolResultPart,
} from '@llm/core';
import { isMadeUpId } from './call-ids.js';
import { parseDataUrl, type PathLike } from '@llm/core/kit';
import { PROTOCOL, ext } from './protocol.js';
import { isFilesApiUri } from './files-api.js';
import { responseObjectOf } from './function-response.js';
import { codeExecutionResultPart, executableCodePart } from './code-execution-parts.js';

type Wire = Record<string, unknown>;

/** Options of encoding parts. */
export interface PartEncodeOptions {
  context?: CodecContext;
  /** Model the request goes to (origin checks, signature escape hatch). */
  model?: string;
  /** Names of the calls seen so far, by id (function responses need the name). */
  callNames: Map<string, string>;
  /** Encoding a response (Gemini's own output): foreign state is not reported twice. */
  response?: boolean;
  /** Id of the response being encoded: calls with ids made up for it go without. */
  responseId?: string;
}

function loss(options: PartEncodeOptions, path: PathLike, message: string, code = 'dropped-part'): void {
  reportLoss(options.context, { code, path: String(path), message, protocol: PROTOCOL });
}

/** Whether a signature may be written to Gemini (its own, or one with no stated origin). */
function ownSignature(signature: string | undefined, origin: LlmOrigin | undefined, path: PathLike, options: PartEncodeOptions): string | undefined {
  if (signature === undefined) return undefined;
  if (origin === undefined || origin.protocol === PROTOCOL) return signature;
  reportLoss(options.context, {
    ...opaqueStateWarning(String(path), { foreign: origin, target: { protocol: PROTOCOL, model: options.model } }),
    protocol: PROTOCOL,
  });
  return undefined;
}

function encodeSource(source: LlmMediaSource, path: PathLike, options: PartEncodeOptions, extra: Wire | undefined): Wire | undefined {
  switch (source.kind) {
    case 'base64':
      return { inlineData: { mimeType: source.mediaType, data: source.data, ...extra } };
    case 'url': {
      const inline = parseDataUrl(source.url);
      if (inline?.mediaType) return { inlineData: { mimeType: inline.mediaType, data: inline.data, ...extra } };
      return { fileData: { ...(source.mediaType ? { mimeType: source.mediaType } : {}), fileUri: source.url, ...extra } };
    }
    case 'file':
      if (source.provider === PROTOCOL || (source.provider === undefined && isFilesApiUri(source.fileId))) {
        return { fileData: { ...(source.mediaType ? { mimeType: source.mediaType } : {}), fileUri: source.fileId, ...extra } };
      }
      loss(options, path, `a file uploaded to ${source.provider ?? 'another provider'} cannot be sent to Gemini`);
      return undefined;
    case 'text':
      return { inlineData: { mimeType: source.mediaType ?? 'text/plain', data: bytesToBase64(new TextEncoder().encode(source.text)) } };
  }
}

function encodeMedia(part: Extract<LlmPart, { type: 'image' | 'audio' | 'file' }>, path: PathLike, options: PartEncodeOptions): Wire | undefined {
  const bag = ext.bag(part);
  const extra = (bag?.$inline ?? bag?.$file) as Wire | undefined;
  const named = part.type === 'file' && part.filename !== undefined ? { displayName: part.filename, ...extra } : extra;
  const out = encodeSource(part.source, path, options, named);
  if (!out) return undefined;
  if (part.type === 'image' && part.detail !== undefined)
    loss(options, `${path}.detail`, 'Gemini sets media resolution per request, not per image', 'dropped-field');
  if (part.type === 'file' && (part.title !== undefined || part.context !== undefined || part.citations !== undefined)) {
    loss(options, path, 'document title, context and citation settings have no Gemini field', 'dropped-field');
  }
  ext.writeRest(out, part);
  return out;
}

function encodeArgs(part: Extract<LlmPart, { type: 'tool-call' }>, path: PathLike, options: PartEncodeOptions): JsonObject {
  return objectCallArguments(part.arguments, part.freeform, (kind) =>
    loss(options, kind === 'freeform' ? path : `${path}.arguments`, CALL_ARGUMENTS_LOSS[kind], 'lossy-conversion'),
  );
}

/**
 * The `response` of a tool result's text: the object it spells, unless wrapped (see
 * responseObjectOf), else `{output: text}`, or `{error: text}` for a failed call. A function of
 * its own, not a closure per result.
 */
function textResponse(text: string, isError: boolean | undefined, wrap: boolean): unknown {
  return (wrap ? undefined : responseObjectOf(text)) ?? { [isError ? 'error' : 'output']: text };
}

/**
 * A tool result -> a `functionResponse` part. Text that is a JSON object is sent as that object
 * (see responseObjectOf), other text as `{output: text}` (`{error: text}` for a failed call).
 */
export function encodeToolResult(part: LlmToolResultPart, path: PathLike, options: PartEncodeOptions): Wire {
  const bag = ext.bag(part);
  const name = part.toolName ?? options.callNames.get(part.toolCallId);
  if (name === undefined) loss(options, `${path}.toolName`, 'a tool result names no call Gemini knows; its name was left empty', 'lossy-conversion');
  const wrap = part.isError === true || bag?.$wrapped === true;
  let response: unknown;
  const media: Wire[] = [];
  if (typeof part.content === 'string') response = textResponse(part.content, part.isError, wrap);
  else {
    const items = part.content;
    const texts: string[] = [];
    let json: unknown;
    let jsonCount = 0;
    for (let at = 0; at < items.length; at++) {
      const item = items[at]!;
      const itemPath = `${path}.content[${at}]`;
      if (item.type === 'text') texts.push(item.text);
      else if (item.type === 'json') {
        if (ext.bag(item)?.$part) media.push(item.value as Wire);
        else {
          json = item.value;
          jsonCount++;
        }
      } else {
        const encoded = encodeMedia(item, itemPath, options);
        if (encoded) media.push(encoded);
      }
    }
    if (jsonCount === 1 && texts.length === 0) {
      response = part.isError ? { error: json } : typeof json === 'object' && json !== null && !Array.isArray(json) ? json : { output: json };
    } else if (jsonCount === 0) {
      response = textResponse(bag?.$textFirst && texts.length === 1 ? texts[0]! : texts.join(''), part.isError, wrap);
    } else {
      loss(options, `${path}.content`, 'a tool result mixing several JSON values and text was sent as one text output', 'lossy-conversion');
      response = {
        [part.isError ? 'error' : 'output']: items
          .map((item) => (item.type === 'text' ? item.text : item.type === 'json' ? JSON.stringify(item.value) : ''))
          .join(''),
      };
    }
  }
  const wire: Wire = { name: name ?? '', response };
  if (!bag?.$syntheticId) wire.id = part.toolCallId;
  if (media.length > 0) wire.parts = media;
  if (bag?.$response) Object.assign(wire, bag.$response);
  const out: Wire = { functionResponse: wire };
  ext.writeRest(out, part);
  return out;
}

/**
 * A canonical part -> a wire part, or `undefined` when Gemini cannot take it (reported through
 * `options.context`).
 */
export function encodePart(part: LlmPart, path: PathLike, options: PartEncodeOptions): Wire | undefined {
  if (isMcpPart(part)) return reportMcpPartDropped(part, String(path), PROTOCOL, options.context);
  switch (part.type) {
    case 'text': {
      const signature = ownSignature(part.signature, part.origin, path, options);
      const out: Wire = { text: part.text };
      if (signature !== undefined) out.thoughtSignature = signature;
      // An answer's citations become its candidate's groundingMetadata (response.ts).
      if (part.citations && !options.response) loss(options, `${path}.citations`, 'Gemini takes no citations on input text', 'dropped-field');
      ext.writeRest(out, part);
      return out;
    }
    case 'refusal':
      return { text: part.text };
    case 'reasoning': {
      if (part.origin !== undefined && part.origin.protocol !== PROTOCOL) {
        if (!options.response) {
          reportLoss(options.context, {
            ...opaqueStateWarning(String(path), { foreign: part.origin, target: { protocol: PROTOCOL, model: options.model } }),
            protocol: PROTOCOL,
          });
          return undefined;
        }
        return { text: part.text, thought: true };
      }
      if (part.redacted) {
        loss(options, path, 'redacted reasoning has no Gemini form');
        return undefined;
      }
      const out: Wire = { text: part.text, thought: true };
      if (part.signature !== undefined) out.thoughtSignature = part.signature;
      ext.writeRest(out, part);
      return out;
    }
    case 'image':
    case 'audio':
    case 'file':
      return encodeMedia(part, path, options);
    case 'tool-call': {
      options.callNames.set(part.id, part.name);
      const bag = ext.bag(part);
      const call: Wire = { name: part.name };
      if (!(bag?.$noArgs && toolArgumentsObject(part.arguments) && Object.keys(toolArgumentsObject(part.arguments)!).length === 0)) {
        call.args = encodeArgs(part, path, options);
      }
      if (!bag?.$syntheticId && !isMadeUpId(part.id, options.responseId)) call.id = part.id;
      if (bag?.$call) Object.assign(call, bag.$call);
      const out: Wire = { functionCall: call };
      const signature = ownSignature(part.signature, part.origin, path, options);
      if (signature !== undefined) out.thoughtSignature = signature;
      ext.writeRest(out, part);
      return out;
    }
    case 'tool-result':
      return encodeToolResult(part, path, options);
    case 'json':
      return { text: JSON.stringify(part.value) };
    case 'code-execution':
      return executableCodePart(part, path, options.context);
    case 'code-execution-result':
      return codeExecutionResultPart(part, path, options.context);
    case 'provider':
      if (part.protocol === PROTOCOL) return part.value as Wire;
      loss(options, path, `a ${part.protocol} item has no Gemini equivalent`);
      return undefined;
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}
