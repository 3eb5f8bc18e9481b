import type { CodecContext, LlmAssistantContent, LlmMessage, LlmRequest, LlmTextPart, LlmToolMessage, LlmUserContent } from '@llm/core';
import { CallIds } from './call-ids.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeGenerationConfig } from './generation-config-decode.js';
import { asAssistantContent, decodePart, type PartDecodeContext } from './parts-decode.js';
import { camel, field, unknownFields } from './read.js';
import { decodeToolConfig, decodeTools } from './tools-decode.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'store', 'serviceTier', 'model']);
const SYSTEM_KNOWN = new Set(['parts']);
const SYSTEM_PART_KNOWN = new Set(['text']);
const CONTENT_KNOWN = new Set(['role', 'parts']);

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
    const rest = unknownFields(part, SYSTEM_PART_KNOWN);
    const text: LlmTextPart = { type: 'text', text: part.text };
    return rest ? ext.keep(text, rest) : text;
  });
  const message: LlmMessage = { role: 'system', content };
  ext.keep(message, unknownFields(system, SYSTEM_KNOWN));
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
  const rest = unknownFields(content, CONTENT_KNOWN);
  const ids = contexts.ids;
  if (role === 'model') {
    const out: LlmAssistantContent[] = [];
    ids.modelTurn(out);
    for (let at = 0; at < parts.length; at++) out.push(asAssistantContent(decodePart(parts, at, partsPath, contexts.model), partsPath, at));
    messages.push(ext.keep({ role: 'assistant', content: out } as LlmMessage, rest));
    return;
  }
  if (role !== undefined && role !== 'user' && role !== 'function') return read.invalid(content, 'role', path, '"user" or "model"');
  // A user content may hold function responses (moved to tool messages) and other parts, in order.
  const context = contexts.user;
  // The messages it becomes go straight to `messages`, from `start` on.
  const start = messages.length;
  let user: LlmUserContent[] | undefined;
  for (let at = 0; at < parts.length; at++) {
    const part = decodePart(parts, at, partsPath, context);
    if (part.type === 'tool-result') {
      user = undefined;
      messages.push({ role: 'tool', content: [part] } satisfies LlmToolMessage);
      continue;
    }
    if (
      part.type === 'reasoning' ||
      part.type === 'tool-call' ||
      part.type === 'refusal' ||
      part.type === 'json' ||
      part.type === 'code-execution' ||
      part.type === 'code-execution-result'
    ) {
      // Thoughts, calls or code runs in a user turn have no canonical home there: kept whole.
      const kept: LlmUserContent = { type: 'provider', protocol: PROTOCOL, value: parts[at] };
      if (!user) messages.push({ role: 'user', content: (user = []) });
      user.push(kept);
      continue;
    }
    if (!user) messages.push({ role: 'user', content: (user = []) });
    user.push(part);
  }
  if (messages.length === start) messages.push({ role: 'user', content: [] });
  const first = messages[start]!;
  // The role mark goes into the content's own rest (a fresh object, or none: then one is made only for a mark).
  if (role === undefined) ext.keep(first, { ...rest, $noRole: true });
  else if (role === 'function') ext.keep(first, { ...rest, $role: role });
  else ext.keep(first, rest);
  for (let at = start + 1; at < messages.length; at++) ext.mark(messages[at]!, 'joined', true);
}
