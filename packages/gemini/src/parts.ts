import {
  bytesToBase64,
  opaqueStateWarning,
  reportLoss,
  toolArgumentsObject,
  type CodecContext,
  type JsonObject,
  type LlmAssistantContent,
  type LlmMediaSource,
  type LlmOrigin,
  type LlmPart,
  type LlmReasoningPart,
  type LlmTextPart,
  type LlmToolCallPart,
  type LlmToolResultContent,
  type LlmToolResultPart,
} from '@llm/core';
import { isMadeUpId } from './call-ids.js';
import { parseDataUrl } from '@llm/core/kit';
import { PROTOCOL, ext, read } from './protocol.js';
import { camel, field, unknownFields } from './read.js';

type Wire = Record<string, unknown>;

/** Part fields the codec maps; the rest (videoMetadata, mediaResolution, ...) ride in the bag. */
const PART_KNOWN = new Set(['text', 'thought', 'thoughtSignature', 'inlineData', 'fileData', 'functionCall', 'functionResponse']);
const INLINE_KNOWN = new Set(['mimeType', 'data', 'displayName']);
const FILE_KNOWN = new Set(['mimeType', 'fileUri', 'displayName']);
const CALL_KNOWN = new Set(['name', 'args', 'id']);
const RESPONSE_KNOWN = new Set(['name', 'response', 'id', 'parts']);

/** Files API URIs need the caller's key: they are file ids, not URLs another provider can fetch. */
const FILES_API = /^https:\/\/generativelanguage\.googleapis\.com\/[^/]+\/files\//;

/** Context of decoding one part. */
export interface PartDecodeContext {
  /** Origin stamped on signatures (the model they were issued by, when known). */
  origin: LlmOrigin;
  /** An id for a function call that came without one. */
  callId(name: string): string;
}

function mediaPart(source: LlmMediaSource, mimeType: string | undefined, displayName: unknown): LlmToolResultContent {
  if (mimeType?.startsWith('image/')) return { type: 'image', source };
  if (mimeType?.startsWith('audio/')) return { type: 'audio', source };
  const file: LlmToolResultContent = { type: 'file', source };
  if (typeof displayName === 'string') file.filename = displayName;
  return file;
}

function decodeInline(wire: Wire, path: string): LlmToolResultContent {
  const inline = read.object(camel(wire, 'inlineData'), 'inlineData', path);
  const inlinePath = `${path}.inlineData`;
  const mimeType = read.string(camel(inline, 'mimeType'), 'mimeType', inlinePath);
  const data = read.string(inline, 'data', inlinePath);
  const part = mediaPart({ kind: 'base64', mediaType: mimeType, data }, mimeType, field(inline, 'displayName'));
  // An image or audio part has no file name: the name stays in the bag.
  const rest = unknownFields(inline, part.type === 'file' ? INLINE_KNOWN : new Set(['mimeType', 'data']));
  return rest ? ext.keep(part, { $inline: rest }) : part;
}

function decodeFileData(wire: Wire, path: string): LlmToolResultContent {
  const data = read.object(camel(wire, 'fileData'), 'fileData', path);
  const uri = read.string(camel(data, 'fileUri'), 'fileUri', `${path}.fileData`);
  const mimeType = field(data, 'mimeType');
  const mediaType = typeof mimeType === 'string' ? mimeType : undefined;
  const source: LlmMediaSource = FILES_API.test(uri)
    ? { kind: 'file', fileId: uri, provider: PROTOCOL, ...(mediaType ? { mediaType } : {}) }
    : { kind: 'url', url: uri, ...(mediaType ? { mediaType } : {}) };
  const part = mediaPart(source, mediaType, field(data, 'displayName'));
  const rest = unknownFields(data, part.type === 'file' ? FILE_KNOWN : new Set(['mimeType', 'fileUri']));
  return rest ? ext.keep(part, { $file: rest }) : part;
}

/** The signature fields of a wire part, as canonical `signature` + `origin`. */
function signatureOf(part: Wire, context: PartDecodeContext): { signature?: string; origin?: LlmOrigin } {
  const signature = field(part, 'thoughtSignature');
  return typeof signature === 'string' ? { signature, origin: context.origin } : {};
}

/**
 * A wire part -> canonical part. Function responses become tool results (the caller moves them to
 * tool messages); parts with no canonical meaning (code execution, server tool records, unknown
 * data fields) become provider parts kept whole.
 */
export function decodePart(holder: readonly unknown[], index: number, parent: string, context: PartDecodeContext): LlmPart {
  const part = read.object(holder, index, parent);
  const path = `${parent}[${index}]`;
  const rest = unknownFields(part, PART_KNOWN);
  const thought = field(part, 'thought');
  const text = part.text;
  if (typeof text === 'string') {
    if (thought === true) {
      const reasoning: LlmReasoningPart = { type: 'reasoning', text, ...signatureOf(part, context), origin: context.origin };
      return ext.keep(reasoning, rest);
    }
    const plain: LlmTextPart = { type: 'text', text, ...signatureOf(part, context) };
    return ext.keep(plain, thought === undefined ? rest : { ...rest, thought });
  }
  if (text !== undefined) return read.invalid(part, 'text', path, 'a string');
  const bag = thought === undefined ? rest : { ...rest, thought };
  if (field(part, 'inlineData') !== undefined) return keepMedia(decodeInline(part, path), bag, part, context);
  if (field(part, 'fileData') !== undefined) return keepMedia(decodeFileData(part, path), bag, part, context);
  if (field(part, 'functionCall') !== undefined) {
    const wire = read.object(camel(part, 'functionCall'), 'functionCall', path);
    const callPath = `${path}.functionCall`;
    const name = read.string(wire, 'name', callPath);
    const args = wire.args === undefined ? {} : read.object(wire, 'args', callPath);
    const id = wire.id;
    // An explicit null id is refused too (optionalString would read it as absent).
    if (id !== undefined && typeof id !== 'string') return read.invalid(wire, 'id', callPath, 'a string');
    const signed = signatureOf(part, context);
    const callBag: Wire = { ...bag };
    if (id === undefined) callBag.$syntheticId = true;
    if (wire.args === undefined) callBag.$noArgs = true;
    if (signed.signature === undefined) callBag.$unsigned = true;
    const callRest = unknownFields(wire, CALL_KNOWN);
    if (callRest) callBag.$call = callRest;
    const toolCall: LlmToolCallPart = { type: 'tool-call', id: id ?? context.callId(name), name, arguments: args as JsonObject, ...signed };
    return ext.keep(toolCall, callBag);
  }
  if (field(part, 'functionResponse') !== undefined) return decodeFunctionResponse(part, path, bag, context);
  if (Object.keys(part).length === 0) return read.invalid(holder, index, parent, 'a part with one data field');
  return { type: 'provider', protocol: PROTOCOL, value: part };
}

function keepMedia(part: LlmToolResultContent, bag: Wire | undefined, wire: Wire, context: PartDecodeContext): LlmPart {
  const signed = signatureOf(wire, context);
  // A signed media part (generated images) keeps its signature in the bag: media parts have none.
  const extra = signed.signature !== undefined ? { ...bag, thoughtSignature: signed.signature } : bag;
  return ext.keep(part, extra);
}

function decodeFunctionResponse(part: Wire, path: string, bag: Wire | undefined, context: PartDecodeContext): LlmToolResultPart {
  const wire = read.object(camel(part, 'functionResponse'), 'functionResponse', path);
  const responsePath = `${path}.functionResponse`;
  const name = read.string(wire, 'name', responsePath);
  const response = wire.response === undefined ? {} : read.object(wire, 'response', responsePath);
  const id = wire.id;
  if (id !== undefined && typeof id !== 'string') return read.invalid(wire, 'id', responsePath, 'a string');
  const keys = Object.keys(response);
  const isError = keys.length === 1 && keys[0] === 'error';
  const single = keys.length === 1 && (keys[0] === 'output' || isError) ? response[keys[0]!] : undefined;
  let content: LlmToolResultPart['content'];
  // An `{output: text}` whose text would be sent as the object it spells stays wrapped on the way back.
  const wrapped = typeof single === 'string' && !isError && responseObjectOf(single) !== undefined;
  if (typeof single === 'string') content = single;
  else if (isError) content = [{ type: 'json', value: single }];
  // Any other object is the function's own answer: kept as its JSON text, which every protocol's
  // tool result can carry and which goes back to Gemini as the same object.
  else content = JSON.stringify(response);
  if (wire.parts !== undefined) {
    const list = read.array(wire, 'parts', responsePath);
    const items: LlmToolResultContent[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    const partsPath = `${responsePath}.parts`;
    for (let at = 0; at < list.length; at++) {
      const decoded = decodePart(list, at, partsPath, context);
      if (decoded.type === 'image' || decoded.type === 'file' || decoded.type === 'audio' || decoded.type === 'text') items.push(decoded);
      else items.push({ type: 'json', value: list[at], extensions: { [PROTOCOL]: { $part: true } } });
    }
    content = items;
  }
  const result: LlmToolResultPart = { type: 'tool-result', toolCallId: id ?? context.callId(name), toolName: name, content };
  if (isError) result.isError = true;
  const resultBag: Wire = { ...bag };
  if (id === undefined) resultBag.$syntheticId = true;
  if (typeof content !== 'string' && typeof single === 'string') resultBag.$textFirst = true;
  if (wrapped) resultBag.$wrapped = true;
  const rest = unknownFields(wire, RESPONSE_KNOWN);
  if (rest) resultBag.$response = rest;
  return ext.keep(result, resultBag);
}

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

function loss(options: PartEncodeOptions, path: string, message: string, code = 'dropped-part'): void {
  reportLoss(options.context, { code, path, message, protocol: PROTOCOL });
}


/** Whether a signature may be written to Gemini (its own, or one with no stated origin). */
function ownSignature(signature: string | undefined, origin: LlmOrigin | undefined, path: string, options: PartEncodeOptions): string | undefined {
  if (signature === undefined) return undefined;
  if (origin === undefined || origin.protocol === PROTOCOL) return signature;
  reportLoss(options.context, { ...opaqueStateWarning(path, { foreign: origin, target: { protocol: PROTOCOL, model: options.model } }), protocol: PROTOCOL });
  return undefined;
}

function encodeSource(source: LlmMediaSource, path: string, options: PartEncodeOptions, extra: Wire | undefined): Wire | undefined {
  switch (source.kind) {
    case 'base64':
      return { inlineData: { mimeType: source.mediaType, data: source.data, ...extra } };
    case 'url': {
      const inline = parseDataUrl(source.url);
      if (inline?.mediaType) return { inlineData: { mimeType: inline.mediaType, data: inline.data, ...extra } };
      return { fileData: { ...(source.mediaType ? { mimeType: source.mediaType } : {}), fileUri: source.url, ...extra } };
    }
    case 'file':
      if (source.provider === PROTOCOL || (source.provider === undefined && FILES_API.test(source.fileId))) {
        return { fileData: { ...(source.mediaType ? { mimeType: source.mediaType } : {}), fileUri: source.fileId, ...extra } };
      }
      loss(options, path, `a file uploaded to ${source.provider ?? 'another provider'} cannot be sent to Gemini`);
      return undefined;
    case 'text':
      return { inlineData: { mimeType: source.mediaType ?? 'text/plain', data: bytesToBase64(new TextEncoder().encode(source.text)) } };
  }
}

function encodeMedia(part: Extract<LlmPart, { type: 'image' | 'audio' | 'file' }>, path: string, options: PartEncodeOptions): Wire | undefined {
  const bag = ext.bag(part);
  const extra = (bag?.$inline ?? bag?.$file) as Wire | undefined;
  const named = part.type === 'file' && part.filename !== undefined ? { displayName: part.filename, ...extra } : extra;
  const out = encodeSource(part.source, path, options, named);
  if (!out) return undefined;
  if (part.type === 'image' && part.detail !== undefined) loss(options, `${path}.detail`, 'Gemini sets media resolution per request, not per image', 'dropped-field');
  if (part.type === 'file' && (part.title !== undefined || part.context !== undefined || part.citations !== undefined)) {
    loss(options, path, 'document title, context and citation settings have no Gemini field', 'dropped-field');
  }
  ext.writeRest(out, part);
  return out;
}

/** Why a call's arguments could not go to Gemini as they were (each reported once per call). */
export type CallArgsLoss = 'freeform' | 'not-an-object';

/** The message of each {@link CallArgsLoss}, the same on the stream and the non-stream path. */
export const CALL_ARGS_LOSS: Readonly<Record<CallArgsLoss, string>> = {
  freeform: 'a free-form tool call was sent as a call with one string argument `input`',
  'not-an-object': 'tool-call arguments that are not a JSON object were replaced by {}',
};

/**
 * A call's arguments as Gemini `args` (an object): a free-form call's raw input becomes the one
 * string argument `input` its declaration takes (see encodeTools); text that is not a JSON object
 * becomes `{}`. `report` hears each loss. Shared by the response and the stream encoder so both
 * send the same call.
 */
export function callArgs(args: string | JsonObject, freeform: boolean | undefined, report: (loss: CallArgsLoss) => void): JsonObject {
  if (freeform) {
    report('freeform');
    return { input: typeof args === 'string' ? args : JSON.stringify(args) };
  }
  const object = toolArgumentsObject(args);
  if (object) return object;
  report('not-an-object');
  return {};
}

function encodeArgs(part: Extract<LlmPart, { type: 'tool-call' }>, path: string, options: PartEncodeOptions): JsonObject {
  return callArgs(part.arguments, part.freeform, (kind) => loss(options, kind === 'freeform' ? path : `${path}.arguments`, CALL_ARGS_LOSS[kind], 'lossy-conversion'));
}

/**
 * The object a tool result's text spells, sent as `functionResponse.response` itself (the form
 * Gemini documents for a function's structured answer), or `undefined` for text that is not a
 * JSON object, nests deeper than MAX_JSON_DEPTH, or is an object with the one key `output` or
 * `error` (the wrappers themselves: sent as such it would read back as another text, or as an
 * error). Only text that starts with `{` is parsed.
 */
function responseObjectOf(text: string): JsonObject | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  const object = toolArgumentsObject(text);
  if (!object) return undefined;
  const keys = Object.keys(object);
  return keys.length === 1 && (keys[0] === 'output' || keys[0] === 'error') ? undefined : object;
}

/**
 * A tool result -> a `functionResponse` part. Text that is a JSON object is sent as that object
 * (see responseObjectOf), other text as `{output: text}` (`{error: text}` for a failed call).
 */
export function encodeToolResult(part: LlmToolResultPart, path: string, options: PartEncodeOptions): Wire {
  const bag = ext.bag(part);
  const name = part.toolName ?? options.callNames.get(part.toolCallId);
  if (name === undefined) loss(options, `${path}.toolName`, 'a tool result names no call Gemini knows; its name was left empty', 'lossy-conversion');
  const key = part.isError ? 'error' : 'output';
  const wrap = part.isError || bag?.$wrapped === true;
  const textResponse = (text: string): unknown => (wrap ? undefined : responseObjectOf(text)) ?? { [key]: text };
  let response: unknown;
  const media: Wire[] = [];
  if (typeof part.content === 'string') response = textResponse(part.content);
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
      response = textResponse(bag?.$textFirst && texts.length === 1 ? texts[0]! : texts.join(''));
    } else {
      loss(options, `${path}.content`, 'a tool result mixing several JSON values and text was sent as one text output', 'lossy-conversion');
      response = { [key]: items.map((item) => (item.type === 'text' ? item.text : item.type === 'json' ? JSON.stringify(item.value) : '')).join('') };
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
export function encodePart(part: LlmPart, path: string, options: PartEncodeOptions): Wire | undefined {
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
          reportLoss(options.context, { ...opaqueStateWarning(path, { foreign: part.origin, target: { protocol: PROTOCOL, model: options.model } }), protocol: PROTOCOL });
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

/** Narrows a decoded model-turn part to assistant content (a function response is misplaced there). */
export function asAssistantContent(part: LlmPart, path: string): LlmAssistantContent {
  if (part.type === 'tool-result' || part.type === 'json') return read.invalid({ functionResponse: 'functionResponse' }, 'functionResponse', path, 'no function response in a model turn');
  return part;
}
