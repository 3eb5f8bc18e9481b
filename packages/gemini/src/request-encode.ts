import {
  choiceWithoutHostedTools,
  reportCacheHints,
  reportLoss,
  type CodecContext,
  type LlmAssistantContent,
  type LlmMessage,
  type LlmRequest,
} from '@llm/core';
import { PartPath } from '@llm/core/kit';
import { PROTOCOL, ext } from './protocol.js';
import { encodeGenerationConfig } from './generation-config-encode.js';
import { encodePart, encodeToolResult, type PartEncodeOptions } from './parts-encode.js';
import { encodeToolConfig, encodeTools } from './tools-encode.js';
import type { GeminiContent, GeminiRequest } from './wire-types.js';

type Wire = Record<string, unknown>;

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
  // The last content written and what it holds (two locals: no object per message).
  let previous: GeminiContent | undefined;
  let previousKind: 'user' | 'tool' | 'model' = 'model';
  // Where a part's loss is reported, joined only then: one cursor moved along every part.
  const path = new PartPath();
  for (let index = 0; index < request.messages.length; index++) {
    const message = request.messages[index]!;
    path.message = index;
    const messageBag = ext.bag(message);
    switch (message.role) {
      case 'system': {
        if (contents.length > 0) {
          reportLoss(context, {
            code: 'lossy-conversion',
            path: `messages[${index}]`,
            message: 'a system message inside the conversation was moved to systemInstruction',
            protocol: PROTOCOL,
          });
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
        previous = content;
        previousKind = 'model';
        continue;
      }
      case 'tool': {
        const parts: Wire[] = [];
        for (let at = 0; at < message.content.length; at++) {
          const part = message.content[at]!;
          path.part = at;
          if (part.type === 'tool-result') parts.push(encodeToolResult(part, path, options));
          else {
            const encoded = encodePart(part, path, options);
            if (encoded) parts.push(encoded);
          }
        }
        if (previous && (previousKind === 'tool' || (previousKind === 'user' && messageBag?.$joined)))
          previous.parts.push(...(parts as GeminiContent['parts']));
        else {
          const content = userContent(parts, message);
          contents.push(content);
          previous = content;
        }
        previousKind = 'tool';
        continue;
      }
      case 'user': {
        const parts: Wire[] = [];
        for (let at = 0; at < message.content.length; at++) {
          path.part = at;
          const encoded = encodePart(message.content[at]!, path, options);
          if (encoded) parts.push(encoded);
        }
        if (previous && previousKind !== 'model' && messageBag?.$joined) {
          previous.parts.push(...(parts as GeminiContent['parts']));
          previousKind = 'user';
          continue;
        }
        const content = userContent(parts, message);
        contents.push(content);
        previous = content;
        previousKind = 'user';
        continue;
      }
    }
  }
  out.contents = contents;
  if (system.length > 0) out.systemInstruction = { ...systemRest, parts: system };
  // Tools that all were dropped (foreign hosted tools, MCP servers) leave no empty `tools` behind.
  const tools = request.tools && request.tools.length > 0 ? encodeTools(request.tools, context) : [];
  if (tools.length > 0) out.tools = tools;
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
function encodeAssistant(content: readonly LlmAssistantContent[], path: PartPath, options: PartEncodeOptions): GeminiContent['parts'] {
  const parts: Wire[] = [];
  let firstCall = true;
  for (let at = 0; at < content.length; at++) {
    const part = content[at]!;
    path.part = at;
    const encoded = encodePart(part, path, options);
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
  {
    path: 'parallelToolCalls',
    read: (request) => (request.parallelToolCalls === false ? false : undefined),
    message: 'Gemini has no switch for parallel calls',
  },
  { path: 'maxToolCalls', read: (request) => request.maxToolCalls, message: 'Gemini has no tool-call limit' },
  { path: 'verbosity', read: (request) => request.verbosity, message: 'Gemini has no verbosity setting' },
  { path: 'user', read: (request) => request.user, message: 'Gemini takes no end-user id' },
  { path: 'metadata', read: (request) => request.metadata, message: 'Gemini has no request metadata (labels are Vertex billing labels)' },
  { path: 'promptCacheKey', read: (request) => request.promptCacheKey, message: 'Gemini caches through cachedContent, not a cache key' },
  { path: 'previousResponseId', read: (request) => request.previousResponseId, message: 'Gemini keeps no server-side conversation' },
];

function reportUnmapped(request: LlmRequest, context: CodecContext | undefined): void {
  for (const { path, read, message } of UNMAPPED)
    if (read(request) !== undefined) reportLoss(context, { code: 'dropped-field', path, message, protocol: PROTOCOL });
}
