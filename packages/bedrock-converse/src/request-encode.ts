import type { CodecContext, LlmMessage, LlmReasoningConfig, LlmRequest, LlmSystemMessage } from '@llm/core';
import { reportLoss } from '@llm/core';
import { encodeContent, type EncodeContentOptions } from './content-encode.js';
import { fitToClaudeBounds } from './sampling-bounds.js';
import { encodeThinking } from './thinking.js';
import { PROTOCOL, ext } from './protocol.js';
import { encodeTool, encodeToolChoice } from './tools-encode.js';
import type { ConverseRequest } from './wire-types.js';

type Wire = Record<string, unknown>;

/** Efforts Converse's `outputConfig.effort` takes. */
const EFFORTS = new Set(['low', 'medium', 'high', 'xhigh', 'max']);

function loss(context: CodecContext | undefined, code: string, path: string, message: string): void {
  reportLoss(context, { code, path, message, protocol: PROTOCOL });
}

/** Canonical request -> request body (the model and the stream flag go in the URL: `http.buildRequest`). */
export function encodeRequest(request: LlmRequest, context?: CodecContext): ConverseRequest {
  const out: Wire = {};
  const own = ext.bag(request);
  const options: EncodeContentOptions = { context, model: request.model };
  const messages = request.messages;

  let start = 0;
  while (start < messages.length && messages[start]!.role === 'system') start++;
  if (start > 0) {
    const system: Wire[] = [];
    for (let index = 0; index < start; index++) encodeContent((messages[index] as LlmSystemMessage).content, `messages[${index}].content`, options, system);
    out.system = system;
  }
  out.messages = encodeMessages(messages, start, options);

  const inference: Wire = {};
  if (request.maxOutputTokens !== undefined) inference.maxTokens = request.maxOutputTokens;
  const sampling = request.sampling;
  if (sampling) {
    if (sampling.temperature !== undefined) inference.temperature = sampling.temperature;
    if (sampling.topP !== undefined) inference.topP = sampling.topP;
    for (const key of ['topK', 'frequencyPenalty', 'presencePenalty', 'seed', 'logitBias'] as const) {
      if (sampling[key] !== undefined) loss(context, 'dropped-field', `sampling.${key}`, `Converse has no model-independent ${key}`);
    }
  }
  if (request.stop !== undefined) inference.stopSequences = request.stop;
  const inferenceExt = own?.$inferenceConfig as Wire | undefined;
  if (inferenceExt) Object.assign(inference, inferenceExt);
  if (inferenceExt || Object.keys(inference).length > 0) out.inferenceConfig = inference;

  encodeTools(request, out, own, context);
  if (out.toolConfig === undefined) declareCalledTools(out, context);

  if (request.metadata) out.requestMetadata = request.metadata;
  if (request.serviceTier !== undefined) out.serviceTier = { type: request.serviceTier };
  encodeOutputConfig(request, out, own, context);
  reportUnmapped(request, context);
  ext.writeRest(out, request);
  const thinking = request.reasoning && encodeThinking(request.reasoning, request.model, request.maxOutputTokens, own?.$budget, context);
  if (thinking) out.additionalModelRequestFields = { ...(out.additionalModelRequestFields as Wire | undefined), thinking };
  if (!own?.$asSent) fitToClaudeBounds(out, request.model, context);
  return out as unknown as ConverseRequest;
}

function encodeTools(request: LlmRequest, out: Wire, own: Wire | undefined, context: CodecContext | undefined): void {
  const { wire: choice, only } = encodeToolChoice(request.toolChoice, context);
  if (request.parallelToolCalls === false) loss(context, 'dropped-field', 'parallelToolCalls', 'Converse has no switch for parallel tool calls');
  if (!request.tools) return;
  const tools: Wire[] = [];
  for (let index = 0; index < request.tools.length; index++) {
    const tool = request.tools[index]!;
    if (only && !only.has(tool.name)) continue;
    encodeTool(tool, index, context, tools);
  }
  // Converse refuses an empty tool list (a Converse client's own is written back as it came).
  if (tools.length === 0 && own?.$toolConfig === undefined) return;
  const config: Wire = { tools };
  if (choice) config.toolChoice = choice;
  const configExt = own?.$toolConfig as Wire | undefined;
  if (configExt) Object.assign(config, configExt);
  out.toolConfig = config;
}

/**
 * Converse refuses a conversation holding `toolUse` / `toolResult` blocks without a `toolConfig`
 * (a client may stop sending tools once it wants only a summary): the tools the history called
 * are declared with an open schema, reported as `defaulted`. Runs only when no tool went out.
 */
function declareCalledTools(out: Wire, context: CodecContext | undefined): void {
  const names = new Set<string>();
  for (const message of out.messages as Wire[]) {
    for (const block of message.content as Wire[]) {
      const call = block.toolUse as Wire | undefined;
      if (call && typeof call.name === 'string') names.add(call.name);
    }
  }
  if (names.size === 0) return;
  out.toolConfig = { tools: [...names].map((name) => ({ toolSpec: { name, inputSchema: { json: { type: 'object' } } } })) };
  reportLoss(context, {
    code: 'defaulted',
    path: 'tools',
    message: `Converse needs toolConfig when the conversation holds tool calls: ${[...names].join(', ')} declared from the history`,
    protocol: PROTOCOL,
  });
}

function encodeOutputConfig(request: LlmRequest, out: Wire, own: Wire | undefined, context: CodecContext | undefined): void {
  const config: Wire = {};
  const { $schemaText: schemaText, ...configExt } = (own?.$outputConfig as Wire | undefined) ?? {};
  const format = request.responseFormat;
  if (format?.type === 'json-schema') {
    // Bedrock enforces the schema (constrained decoding): `strict` has nothing to add.
    const definition: Wire = { schema: typeof schemaText === 'string' ? schemaText : JSON.stringify(format.schema) };
    if (format.name !== undefined) definition.name = format.name;
    if (format.description !== undefined) definition.description = format.description;
    config.textFormat = { type: 'json_schema', structure: { jsonSchema: definition } };
  } else if (format?.type === 'json') {
    loss(context, 'dropped-field', 'responseFormat', 'Converse has no JSON mode without a schema');
  }
  if (request.reasoning) encodeEffort(request.reasoning, config, context);
  Object.assign(config, configExt);
  if (own?.$outputConfig !== undefined || Object.keys(config).length > 0) out.outputConfig = config;
}

/** `outputConfig.effort`: Converse's one model-independent reasoning setting (thinking switches are `thinking.ts`'s). */
function encodeEffort(reasoning: LlmReasoningConfig, config: Wire, context: CodecContext | undefined): void {
  const effort = reasoning.effort;
  if (effort !== undefined && EFFORTS.has(effort)) config.effort = effort;
  else if (effort === 'minimal') {
    loss(context, 'lossy-conversion', 'reasoning.effort', 'effort "minimal" was sent as "low"');
    config.effort = 'low';
  } else if (effort !== undefined && effort !== 'none') loss(context, 'dropped-field', 'reasoning.effort', `Converse has no effort "${effort}"`);
}

function reportUnmapped(request: LlmRequest, context: CodecContext | undefined): void {
  if (!context) return;
  const fields: Array<[keyof LlmRequest, boolean]> = [
    ['candidateCount', request.candidateCount !== undefined && request.candidateCount !== 1],
    ['logprobs', request.logprobs !== undefined],
    ['verbosity', request.verbosity !== undefined],
    ['promptCacheKey', request.promptCacheKey !== undefined],
    ['cache', request.cache !== undefined],
    ['user', request.user !== undefined],
    ['store', request.store !== undefined],
    ['previousResponseId', request.previousResponseId !== undefined],
    ['maxToolCalls', request.maxToolCalls !== undefined],
  ];
  for (const [field, present] of fields) if (present) loss(context, 'dropped-field', field, `Converse has no ${field}`);
}

interface OpenWire {
  content: Wire[];
  /** True while the wire message holds only tool results (user content may still join it). */
  toolsOnly: boolean;
}

/**
 * Messages from `start` -> wire turns. Tool results go in a user turn, joined by the user content
 * that follows them (Converse turns alternate); a system message after the first turn is user
 * text (reported).
 */
function encodeMessages(messages: readonly LlmMessage[], start: number, options: EncodeContentOptions): Wire[] {
  const out: Wire[] = [];
  let current: OpenWire | undefined;
  for (let index = start; index < messages.length; index++) {
    const message = messages[index]!;
    const path = `messages[${index}]`;
    const joins = current?.toolsOnly === true && !ext.marker(message, 'separate');
    if (message.role !== 'tool' && message.name !== undefined) {
      loss(options.context, 'dropped-field', `${path}.name`, 'Converse messages have no participant name');
    }
    switch (message.role) {
      case 'tool':
        if (joins) encodeContent(message.content, `${path}.content`, options, current!.content);
        else current = open(out, 'user', encodeContent(message.content, `${path}.content`, options), message, true);
        break;
      case 'user':
        if (joins) {
          encodeContent(message.content, `${path}.content`, options, current!.content);
          current!.toolsOnly = false;
        } else current = open(out, 'user', encodeContent(message.content, `${path}.content`, options), message, false);
        break;
      case 'assistant':
        current = open(out, 'assistant', encodeContent(message.content, `${path}.content`, options), message, false);
        break;
      case 'system':
        loss(options.context, 'lossy-conversion', path, 'Converse takes system instructions only before the conversation: sent as user text');
        current = open(out, 'user', encodeContent(message.content, `${path}.content`, options), message, false);
        break;
    }
  }
  return out;
}

function open(out: Wire[], role: string, content: Wire[], message: LlmMessage, toolsOnly: boolean): OpenWire {
  const wire: Wire = { role, content };
  ext.writeRest(wire, message);
  out.push(wire);
  return { content, toolsOnly };
}
