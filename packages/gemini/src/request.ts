import {
  choiceWithoutHostedTools,
  reportCacheHints,
  reportLoss,
  type CodecContext,
  type LlmAssistantContent,
  type LlmMessage,
  type LlmRequest,
  type LlmTextPart,
  type LlmToolMessage,
  type LlmUserContent,
} from '@llm/core';
import { CallIds } from './call-ids.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeGenerationConfig, encodeGenerationConfig } from './generation-config.js';
import { asAssistantContent, decodePart, encodePart, encodeToolResult, type PartDecodeContext, type PartEncodeOptions } from './parts.js';
import { camel, field, unknownFields } from './read.js';
import { decodeToolConfig, decodeTools, encodeToolConfig, encodeTools } from './tools.js';
import type { GeminiContent, GeminiRequest } from './wire-types.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'store', 'serviceTier', 'model']);

/**
 * Request body -> canonical request. The model and the stream flag live in the URL: pass them as
 * `context.model` / `context.stream` (the HTTP binding's `matchRequest` reads them).
 */
export function decodeRequest(body: unknown, context?: CodecContext): LlmRequest {
  const wire = read.body(body);
  const model = context?.model ?? (typeof wire.model === 'string' ? wire.model.replace(/^models\//, '') : '');
  const request: LlmRequest = { model, messages: [] };
  if (context?.stream !== undefined) request.stream = context.stream;
  const bag: Wire = { ...unknownFields(wire, KNOWN) };
  if (typeof wire.model === 'string') bag.$model = wire.model;

  if (field(wire, 'systemInstruction') !== undefined) decodeSystem(wire, request.messages);
  const origin = model ? { protocol: PROTOCOL, model } : { protocol: PROTOCOL };
  const ids = new CallIds('call_');
  // Calls in model turns get new ids; results in user turns are paired with them.
  const contexts: TurnContexts = {
    ids,
    model: { origin, callId: (name) => ids.call(name) },
    user: { origin, callId: (name) => ids.result(name) },
  };
  const contents = read.array(wire, 'contents', '');
  for (let index = 0; index < contents.length; index++) decodeContent(contents, index, request.messages, contexts);

  if (wire.tools !== undefined) request.tools = decodeTools(wire, bag);
  if (field(wire, 'toolConfig') !== undefined) {
    const decoded = decodeToolConfig(wire);
    if (decoded.choice) request.toolChoice = decoded.choice;
    if (decoded.rest) bag.$toolConfig = decoded.rest;
  }
  if (field(wire, 'generationConfig') !== undefined) {
    const kept = decodeGenerationConfig(wire, request);
    bag.$generation = kept ?? {};
  }
  if (typeof wire.store === 'boolean') request.store = wire.store;
  const tier = field(wire, 'serviceTier');
  if (typeof tier === 'string') request.serviceTier = tier;
  if (Object.keys(bag).length === 0) return request;
  return ext.keep(request, bag);
}

function decodeSystem(wire: Wire, messages: LlmMessage[]): void {
  const system = read.object(camel(wire, 'systemInstruction'), 'systemInstruction', '');
  const parts = read.array(system, 'parts', 'systemInstruction');
  const content: LlmTextPart[] = parts.map((_, index) => {
    const part = read.object(parts, index, 'systemInstruction.parts');
    if (typeof part.text !== 'string') return read.invalid(part, 'text', `systemInstruction.parts[${index}]`, 'a string (system instructions hold text)');
    const rest = unknownFields(part, new Set(['text']));
    const text: LlmTextPart = { type: 'text', text: part.text };
    return rest ? ext.keep(text, rest) : text;
  });
  const message: LlmMessage = { role: 'system', content };
  ext.keep(message, unknownFields(system, new Set(['parts'])));
  messages.push(message);
}

interface TurnContexts {
  ids: CallIds;
  model: PartDecodeContext;
  user: PartDecodeContext;
}

function decodeContent(contents: readonly unknown[], index: number, messages: LlmMessage[], contexts: TurnContexts): void {
  const content = read.object(contents, index, 'contents');
  const path = `contents[${index}]`;
  const role = content.role;
  const parts = read.array(content, 'parts', path);
  const partsPath = `${path}.parts`;
  const rest = unknownFields(content, new Set(['role', 'parts']));
  const ids = contexts.ids;
  if (role === 'model') {
    ids.modelTurn();
    const out: LlmAssistantContent[] = [];
    for (let at = 0; at < parts.length; at++) {
      const part = asAssistantContent(decodePart(parts, at, partsPath, contexts.model), `${partsPath}[${at}]`);
      if (part.type === 'tool-call' && !ext.bag(part)?.$syntheticId) ids.known(part.id, part.name);
      out.push(part);
    }
    messages.push(ext.keep({ role: 'assistant', content: out } as LlmMessage, rest));
    return;
  }
  if (role !== undefined && role !== 'user' && role !== 'function') return read.invalid(content, 'role', path, '"user" or "model"');
  // A user content may hold function responses (moved to tool messages) and other parts, in order.
  const context = contexts.user;
  const produced: LlmMessage[] = [];
  let user: LlmUserContent[] | undefined;
  for (let at = 0; at < parts.length; at++) {
    const part = decodePart(parts, at, partsPath, context);
    if (part.type === 'tool-result') {
      user = undefined;
      produced.push({ role: 'tool', content: [part] } satisfies LlmToolMessage);
      continue;
    }
    if (part.type === 'reasoning' || part.type === 'tool-call' || part.type === 'refusal' || part.type === 'json') {
      // Thoughts or calls in a user turn have no canonical home there: kept whole.
      const kept: LlmUserContent = { type: 'provider', protocol: PROTOCOL, value: parts[at] };
      if (!user) produced.push({ role: 'user', content: (user = []) });
      user.push(kept);
      continue;
    }
    if (!user) produced.push({ role: 'user', content: (user = []) });
    user.push(part);
  }
  if (produced.length === 0) produced.push({ role: 'user', content: [] });
  const first = produced[0]!;
  const firstBag: Wire = { ...rest };
  if (role === undefined) firstBag.$noRole = true;
  else if (role === 'function') firstBag.$role = role;
  ext.keep(first, firstBag);
  for (let at = 1; at < produced.length; at++) ext.keep(produced[at]!, { $joined: true });
  messages.push(...produced);
}

/** A user-side content: the role it came with (none, or the legacy `function`) and its kept fields. */
function userContent(parts: Wire[], message: LlmMessage): GeminiContent {
  const bag = ext.bag(message);
  const content = (bag?.$noRole ? { parts } : { role: bag?.$role === 'function' ? 'function' : 'user', parts }) as GeminiContent;
  ext.writeRest(content as Wire, message);
  return content;
}

/**
 * Canonical request -> request body (model and stream go in the URL: see `http.buildRequest`).
 * System messages anywhere become `systemInstruction`; consecutive tool results share one user
 * content, as Gemini requires one content answering all calls of a turn.
 */
export function encodeRequest(request: LlmRequest, context?: CodecContext): GeminiRequest {
  const bag = ext.bag(request);
  const out: Wire = {};
  const options: PartEncodeOptions = { context, model: request.model, callNames: new Map() };
  const system: Wire[] = [];
  let systemRest: Wire | undefined;
  const contents: GeminiContent[] = [];
  let previous: { content: GeminiContent; kind: 'user' | 'tool' | 'model' } | undefined;
  for (let index = 0; index < request.messages.length; index++) {
    const message = request.messages[index]!;
    const path = `messages[${index}]`;
    const messageBag = ext.bag(message);
    switch (message.role) {
      case 'system': {
        if (contents.length > 0) {
          reportLoss(context, { code: 'lossy-conversion', path, message: 'a system message inside the conversation was moved to systemInstruction', protocol: PROTOCOL });
        }
        for (let at = 0; at < message.content.length; at++) {
          const part = message.content[at]!;
          const wire: Wire = { text: part.text };
          ext.writeRest(wire, part);
          system.push(wire);
        }
        systemRest ??= unknownWire(message);
        continue;
      }
      case 'assistant': {
        const parts = encodeAssistant(message.content, path, options);
        const content = { role: 'model', parts } as GeminiContent;
        ext.writeRest(content as Wire, message);
        contents.push(content);
        previous = { content, kind: 'model' };
        continue;
      }
      case 'tool': {
        const parts: Wire[] = [];
        for (let at = 0; at < message.content.length; at++) {
          const part = message.content[at]!;
          const partPath = `${path}.content[${at}]`;
          if (part.type === 'tool-result') parts.push(encodeToolResult(part, partPath, options));
          else {
            const encoded = encodePart(part, partPath, options);
            if (encoded) parts.push(encoded);
          }
        }
        if (previous && (previous.kind === 'tool' || (previous.kind === 'user' && messageBag?.$joined))) previous.content.parts.push(...(parts as GeminiContent['parts']));
        else {
          const content = userContent(parts, message);
          contents.push(content);
          previous = { content, kind: 'tool' };
        }
        previous.kind = 'tool';
        continue;
      }
      case 'user': {
        const parts: Wire[] = [];
        for (let at = 0; at < message.content.length; at++) {
          const encoded = encodePart(message.content[at]!, `${path}.content[${at}]`, options);
          if (encoded) parts.push(encoded);
        }
        if (previous && previous.kind !== 'model' && messageBag?.$joined) {
          previous.content.parts.push(...(parts as GeminiContent['parts']));
          previous.kind = 'user';
          continue;
        }
        const content = userContent(parts, message);
        contents.push(content);
        previous = { content, kind: 'user' };
        continue;
      }
    }
  }
  out.contents = contents;
  if (system.length > 0) out.systemInstruction = { ...systemRest, parts: system };
  if (request.tools && request.tools.length > 0) out.tools = encodeTools(request.tools, context);
  const toolConfig = encodeToolConfig(choiceWithoutHostedTools(request.toolChoice, request.tools, PROTOCOL, context), bag?.$toolConfig as Wire | undefined);
  if (toolConfig) out.toolConfig = toolConfig;
  const generation = encodeGenerationConfig(request, bag?.$generation as Wire | undefined, context);
  if (generation) out.generationConfig = generation;
  if (request.store !== undefined) out.store = request.store;
  if (request.serviceTier !== undefined) out.serviceTier = request.serviceTier;
  if (typeof bag?.$model === 'string') out.model = bag.$model;
  reportUnmapped(request, context);
  // Gemini caches through `cachedContent`, never per part, tool or request: every breakpoint is reported, none sent.
  reportCacheHints(request, context, PROTOCOL, 'Gemini has no cache breakpoints');
  ext.writeRest(out, request);
  return out as GeminiRequest;
}

/** Wire fields of a message's bag, without `$` bookkeeping. */
function unknownWire(message: LlmMessage): Wire | undefined {
  const out: Wire = {};
  ext.writeRest(out, message);
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A model turn. Gemini 3 rejects a function-call turn whose first call has no thought signature;
 * history from another provider has none, so that call gets the documented skip value.
 */
function encodeAssistant(content: readonly LlmAssistantContent[], path: string, options: PartEncodeOptions): GeminiContent['parts'] {
  const parts: Wire[] = [];
  let firstCall = true;
  for (let at = 0; at < content.length; at++) {
    const part = content[at]!;
    const partPath = `${path}.content[${at}]`;
    const encoded = encodePart(part, partPath, options);
    if (!encoded) continue;
    if (part.type === 'tool-call') {
      const own = ext.bag(part)?.$unsigned === true || part.origin?.protocol === PROTOCOL;
      if (firstCall && encoded.thoughtSignature === undefined && !own) encoded.thoughtSignature = SKIP_SIGNATURE;
      firstCall = false;
    }
    parts.push(encoded);
  }
  return parts as GeminiContent['parts'];
}

/** The documented value that lets Gemini 3 accept calls it did not sign (history from elsewhere). */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** Canonical fields Gemini has no place for: each dropped with a warning when set. */
const UNMAPPED: ReadonlyArray<{ path: string; read: (request: LlmRequest) => unknown; message: string }> = [
  // `parallelToolCalls: true` is what Gemini does anyway: only `false` is lost.
  { path: 'parallelToolCalls', read: (request) => (request.parallelToolCalls === false ? false : undefined), message: 'Gemini has no switch for parallel calls' },
  { path: 'maxToolCalls', read: (request) => request.maxToolCalls, message: 'Gemini has no tool-call limit' },
  { path: 'verbosity', read: (request) => request.verbosity, message: 'Gemini has no verbosity setting' },
  { path: 'user', read: (request) => request.user, message: 'Gemini takes no end-user id' },
  { path: 'metadata', read: (request) => request.metadata, message: 'Gemini has no request metadata (labels are Vertex billing labels)' },
  { path: 'promptCacheKey', read: (request) => request.promptCacheKey, message: 'Gemini caches through cachedContent, not a cache key' },
  { path: 'previousResponseId', read: (request) => request.previousResponseId, message: 'Gemini keeps no server-side conversation' },
];

function reportUnmapped(request: LlmRequest, context: CodecContext | undefined): void {
  for (const { path, read, message } of UNMAPPED) if (read(request) !== undefined) reportLoss(context, { code: 'dropped-field', path, message, protocol: PROTOCOL });
}
