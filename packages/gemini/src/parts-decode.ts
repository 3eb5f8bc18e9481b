import type {
  JsonObject,
  LlmAssistantContent,
  LlmMediaSource,
  LlmMcpPart,
  LlmOrigin,
  LlmPart,
  LlmReasoningPart,
  LlmTextPart,
  LlmToolCallPart,
  LlmToolResultContent,
  LlmToolResultPart,
} from '@llm/core';
import { joinPath } from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';
import { camel, field, unknownFields } from './read.js';
import { isFilesApiUri } from './files-api.js';
import { responseObjectOf } from './function-response.js';
import { decodeCodeExecutionResult, decodeExecutableCode } from './code-execution-parts.js';

type Wire = Record<string, unknown>;

/** Part fields the codec maps; the rest (videoMetadata, mediaResolution, ...) ride in the bag. */
const PART_KNOWN = new Set([
  'text',
  'thought',
  'thoughtSignature',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
]);
const INLINE_KNOWN = new Set(['mimeType', 'data', 'displayName']);
const FILE_KNOWN = new Set(['mimeType', 'fileUri', 'displayName']);
const CALL_KNOWN = new Set(['name', 'args', 'id']);
const RESPONSE_KNOWN = new Set(['name', 'response', 'id', 'parts']);
/** An image or audio part has no file name: theirs stays in the bag. */
const INLINE_MEDIA_KNOWN = new Set(['mimeType', 'data']);
const FILE_MEDIA_KNOWN = new Set(['mimeType', 'fileUri']);

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
  const rest = unknownFields(inline, part.type === 'file' ? INLINE_KNOWN : INLINE_MEDIA_KNOWN);
  return rest ? ext.keep(part, { $inline: rest }) : part;
}

function decodeFileData(wire: Wire, path: string): LlmToolResultContent {
  const data = read.object(camel(wire, 'fileData'), 'fileData', path);
  const uri = read.string(camel(data, 'fileUri'), 'fileUri', `${path}.fileData`);
  const mimeType = field(data, 'mimeType');
  const mediaType = typeof mimeType === 'string' ? mimeType : undefined;
  const source: LlmMediaSource = isFilesApiUri(uri)
    ? { kind: 'file', fileId: uri, provider: PROTOCOL, ...(mediaType ? { mediaType } : {}) }
    : { kind: 'url', url: uri, ...(mediaType ? { mediaType } : {}) };
  const part = mediaPart(source, mediaType, field(data, 'displayName'));
  const rest = unknownFields(data, part.type === 'file' ? FILE_KNOWN : FILE_MEDIA_KNOWN);
  return rest ? ext.keep(part, { $file: rest }) : part;
}

/**
 * `thoughtSignature` (or `thought_signature`) of a wire part, as {@link field} reads it. Read on
 * every part, so by name: a load that sees only part shapes, not every object `field` is given.
 */
function thoughtSignatureOf(part: Wire): unknown {
  const value = part.thoughtSignature;
  return value !== undefined ? value : part.thought_signature;
}

/** The signature fields of a wire part, as canonical `signature` + `origin`. */
function signatureOf(part: Wire, context: PartDecodeContext): { signature?: string; origin?: LlmOrigin } {
  const signature = thoughtSignatureOf(part);
  return typeof signature === 'string' ? { signature, origin: context.origin } : {};
}

/**
 * A wire part -> canonical part. Function responses become tool results (the caller moves them to
 * tool messages); code runs become code-execution parts; parts with no canonical meaning (server
 * tool records, unknown data fields) become provider parts kept whole.
 */
export function decodePart(holder: readonly unknown[], index: number, parent: string, context: PartDecodeContext): Exclude<LlmPart, LlmMcpPart> {
  const part = read.object(holder, index, parent);
  const rest = unknownFields(part, PART_KNOWN);
  // `thought` has no snake_case spelling: read directly (this runs for every part).
  const thought = part.thought;
  const text = part.text;
  if (typeof text === 'string') {
    // Built literally (no spread of a signature object): text parts are most of a long history.
    const signature = thoughtSignatureOf(part);
    const origin = context.origin;
    if (thought === true) {
      const reasoning: LlmReasoningPart = typeof signature === 'string' ? { type: 'reasoning', text, signature, origin } : { type: 'reasoning', text, origin };
      return ext.keep(reasoning, rest);
    }
    const plain: LlmTextPart = typeof signature === 'string' ? { type: 'text', text, signature, origin } : { type: 'text', text };
    return ext.keep(plain, thought === undefined ? rest : { ...rest, thought });
  }
  // Joined after the text branch: text parts, most of a long history, need no path.
  const path = `${parent}[${index}]`;
  if (text !== undefined) return read.invalid(part, 'text', path, 'a string');
  // A fresh object (the part's own rest, or a copy with `thought`) or none: call and result bags are built on it.
  const bag = thought === undefined ? rest : { ...rest, thought };
  // Which data field the part holds, in either spelling (what `field` reads), by name: this runs
  // for every non-text part, and named loads stay fast where `field`'s keyed load does not.
  if (part.inlineData !== undefined || part.inline_data !== undefined) return keepMedia(decodeInline(part, path), bag, part, context);
  if (part.fileData !== undefined || part.file_data !== undefined) return keepMedia(decodeFileData(part, path), bag, part, context);
  if (part.functionCall !== undefined || part.function_call !== undefined) {
    const wire = read.object(camel(part, 'functionCall'), 'functionCall', path);
    const callPath = `${path}.functionCall`;
    const name = read.string(wire, 'name', callPath);
    const args = wire.args === undefined ? {} : read.object(wire, 'args', callPath);
    const id = wire.id;
    // An explicit null id is refused too (optionalString would read it as absent).
    if (id !== undefined && typeof id !== 'string') return read.invalid(wire, 'id', callPath, 'a string');
    const signature = thoughtSignatureOf(part);
    const callBag: Wire = bag ?? {};
    if (id === undefined) callBag.$syntheticId = true;
    if (wire.args === undefined) callBag.$noArgs = true;
    if (typeof signature !== 'string') callBag.$unsigned = true;
    const callRest = unknownFields(wire, CALL_KNOWN);
    if (callRest) callBag.$call = callRest;
    const callId = id ?? context.callId(name);
    const toolCall: LlmToolCallPart =
      typeof signature === 'string'
        ? { type: 'tool-call', id: callId, name, arguments: args as JsonObject, signature, origin: context.origin }
        : { type: 'tool-call', id: callId, name, arguments: args as JsonObject };
    return ext.keep(toolCall, callBag);
  }
  if (part.functionResponse !== undefined || part.function_response !== undefined) return decodeFunctionResponse(part, path, bag, context);
  if (part.executableCode !== undefined || part.executable_code !== undefined) return decodeExecutableCode(part, path, bag, context.origin);
  if (part.codeExecutionResult !== undefined || part.code_execution_result !== undefined) return decodeCodeExecutionResult(part, path, bag, context.origin);
  if (Object.keys(part).length === 0) return read.invalid(holder, index, parent, 'a part with one data field');
  return { type: 'provider', protocol: PROTOCOL, value: part };
}

function keepMedia(part: LlmToolResultContent, bag: Wire | undefined, wire: Wire, context: PartDecodeContext): LlmToolResultContent {
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
  const resultBag: Wire = bag ?? {};
  if (id === undefined) resultBag.$syntheticId = true;
  if (typeof content !== 'string' && typeof single === 'string') resultBag.$textFirst = true;
  if (wrapped) resultBag.$wrapped = true;
  const rest = unknownFields(wire, RESPONSE_KNOWN);
  if (rest) resultBag.$response = rest;
  return ext.keep(result, resultBag);
}

/** What the error for a function response in a model turn shows as found (the field's name, not its value). */
const MISPLACED_RESPONSE = { functionResponse: 'functionResponse' } as const;

/** Narrows a decoded model-turn part to assistant content (a function response is misplaced there). */
export function asAssistantContent(part: Exclude<LlmPart, LlmMcpPart>, parent: string, index: number): LlmAssistantContent {
  if (part.type === 'tool-result' || part.type === 'json')
    return read.invalid(MISPLACED_RESPONSE, 'functionResponse', joinPath(parent, index), 'no function response in a model turn');
  return part;
}
