import type {
  CodecContext,
  JsonSchema,
  LlmAssistantContent,
  LlmMessage,
  LlmProviderPart,
  LlmReasoningConfig,
  LlmReasoningEffort,
  LlmRequest,
  LlmSampling,
  LlmTextPart,
  LlmToolMessage,
  LlmUserContent,
} from '@llm/core';
import { REASONING_EFFORTS, isJsonObject } from '@llm/core';
import { decodeContent, type ConverseDecodedPart } from './content-decode.js';
import { isOutsideClaudeBounds } from './sampling-bounds.js';
import { decodeThinking, isOtherVendorModel } from './thinking.js';
import { PROTOCOL, ext, read } from './protocol.js';
import { decodeToolChoice, decodeTools } from './tools-decode.js';
import { hasOnly } from './union.js';

type Wire = Record<string, unknown>;

const KNOWN = new Set(['messages', 'system', 'inferenceConfig', 'toolConfig', 'requestMetadata', 'serviceTier', 'outputConfig']);
const MESSAGE_KNOWN = new Set(['role', 'content']);
const INFERENCE_KNOWN = new Set(['maxTokens', 'temperature', 'topP', 'stopSequences']);
const TOOL_CONFIG_KNOWN = new Set(['tools', 'toolChoice']);
const OUTPUT_KNOWN = new Set(['textFormat', 'effort']);

/**
 * Request body -> canonical request. The model and the stream flag are in the URL
 * (`/model/{modelId}/converse` or `/converse-stream`): pass them in `context`
 * (`bedrockConverse.http.matchRequest` reads them).
 */
export function decodeRequest(body: unknown, context?: CodecContext): LlmRequest {
  const wire = read.body(body);
  const request: LlmRequest = { model: context?.model ?? '', messages: [] };
  if (context?.stream !== undefined) request.stream = context.stream;
  const rest = ext.rest(wire, KNOWN) ?? {};

  if (wire.system != null && !decodeSystem(read.array(wire, 'system', ''), request.messages)) rest.system = wire.system;
  decodeMessages(read.array(wire, 'messages', ''), request.messages);

  const inference = read.optionalObject(wire, 'inferenceConfig', '');
  if (inference) decodeInference(inference, request, rest);

  const toolConfig = read.optionalObject(wire, 'toolConfig', '');
  if (toolConfig) {
    request.tools = decodeTools(toolConfig);
    if (toolConfig.toolChoice != null) request.toolChoice = decodeToolChoice(toolConfig);
    // Kept even when empty: it says the request had a toolConfig (an empty tool list comes back).
    rest.$toolConfig = ext.rest(toolConfig, TOOL_CONFIG_KNOWN) ?? {};
  }

  const metadata = read.optionalObject(wire, 'requestMetadata', '');
  if (metadata) {
    for (const key in metadata) read.string(metadata, key, 'requestMetadata');
    request.metadata = metadata as Record<string, string>;
  }
  const tier = read.optionalObject(wire, 'serviceTier', '');
  if (tier) {
    if (hasOnly(tier, ['type'])) request.serviceTier = read.string(tier, 'type', 'serviceTier');
    else rest.serviceTier = tier;
  }
  const output = read.optionalObject(wire, 'outputConfig', '');
  if (output) decodeOutputConfig(output, request, rest);
  const fields = read.optionalObject(wire, 'additionalModelRequestFields', '');
  if (fields && !isOtherVendorModel(request.model)) {
    const reasoning: LlmReasoningConfig = request.reasoning ?? {};
    const left = decodeThinking(fields, reasoning);
    if (left !== fields) {
      request.reasoning = reasoning;
      if (left) rest.additionalModelRequestFields = left;
      else delete rest.additionalModelRequestFields;
      // A Converse client's own budget goes back as sent; one from elsewhere is fitted to Anthropic's bounds.
      if (reasoning.budgetTokens !== undefined) rest.$budget = reasoning.budgetTokens;
    }
  }

  // A Converse client's own sampling goes back as sent; another protocol's is fitted to a Claude model's bounds.
  if (isOutsideClaudeBounds(wire, request.model)) rest.$asSent = true;
  for (const _ in rest) {
    request.extensions = { [PROTOCOL]: rest };
    break;
  }
  return request;
}

function decodeInference(inference: Wire, request: LlmRequest, rest: Wire): void {
  const path = 'inferenceConfig';
  const maxTokens = read.optionalInteger(inference, 'maxTokens', path);
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = read.optionalNumber(inference, 'temperature', path);
  const topP = read.optionalNumber(inference, 'topP', path);
  if (temperature !== undefined || topP !== undefined) {
    const sampling: LlmSampling = {};
    if (temperature !== undefined) sampling.temperature = temperature;
    if (topP !== undefined) sampling.topP = topP;
    request.sampling = sampling;
  }
  const stops = read.optionalArray(inference, 'stopSequences', path);
  if (stops) {
    for (let index = 0; index < stops.length; index++) read.string(stops, index, `${path}.stopSequences`);
    request.stop = stops as string[];
  }
  const inferenceRest = ext.rest(inference, INFERENCE_KNOWN);
  // An empty `inferenceConfig` is remembered so that it comes back.
  if (inferenceRest || (maxTokens === undefined && request.sampling === undefined && !stops)) rest.$inferenceConfig = inferenceRest ?? {};
}

function decodeOutputConfig(output: Wire, request: LlmRequest, rest: Wire): void {
  const outputRest = ext.rest(output, OUTPUT_KNOWN) ?? {};
  const format = output.textFormat;
  if (format != null) {
    const schema = jsonSchemaFormat(format);
    if (schema) {
      request.responseFormat = schema.format;
      outputRest.$schemaText = schema.text;
    } else outputRest.textFormat = format;
  }
  const effort = output.effort;
  if (typeof effort === 'string' && (REASONING_EFFORTS as readonly string[]).includes(effort)) {
    request.reasoning = { ...request.reasoning, effort: effort as LlmReasoningEffort };
  } else if (effort != null) outputRest.effort = effort;
  rest.$outputConfig = outputRest;
}

/** `{type: "json_schema", structure: {jsonSchema: {schema, name?, description?}}}` with a schema that is a JSON object. */
function jsonSchemaFormat(format: unknown): { format: NonNullable<LlmRequest['responseFormat']>; text: string } | undefined {
  if (!hasOnly(format, ['type', 'structure']) || format.type !== 'json_schema' || !hasOnly(format.structure, ['jsonSchema'])) return undefined;
  const definition = format.structure.jsonSchema;
  if (!hasOnly(definition, ['schema', 'name', 'description']) || typeof definition.schema !== 'string') return undefined;
  let schema: unknown;
  try {
    schema = JSON.parse(definition.schema);
  } catch {
    return undefined;
  }
  if (!isJsonObject(schema)) return undefined;
  const out: NonNullable<LlmRequest['responseFormat']> = { type: 'json-schema', schema: schema as JsonSchema };
  if (typeof definition.name === 'string') out.name = definition.name;
  else if (definition.name != null) return undefined;
  if (typeof definition.description === 'string') out.description = definition.description;
  else if (definition.description != null) return undefined;
  return { format: out, text: definition.schema };
}

/** `system` -> one system message; `false` when it holds blocks a system message cannot (guardContent): kept raw. */
function decodeSystem(blocks: unknown[], messages: LlmMessage[]): boolean {
  const parts = decodeContent(blocks, 'system').parts;
  for (const part of parts) if (part.type !== 'text') return false;
  messages.push({ role: 'system', content: parts as LlmTextPart[] });
  return true;
}

function decodeMessages(list: unknown[], messages: LlmMessage[]): void {
  // True when the previous wire message held only tool results (the encoder merges into such a message).
  let previousToolsOnly = false;
  for (let index = 0; index < list.length; index++) {
    const wire = read.object(list, index, 'messages');
    const path = `messages[${index}]`;
    const role = read.oneOf(wire, 'role', path, ['user', 'assistant']);
    const blocks = read.array(wire, 'content', path);
    const { parts, blockOf } = decodeContent(blocks, `${path}.content`);
    const first = messages.length;
    let toolsOnly = false;
    if (role === 'user') {
      toolsOnly = decodeUser(parts, blockOf, blocks, messages);
      if (previousToolsOnly) ext.mark(messages[first]!, 'separate', true);
    } else {
      const content: LlmAssistantContent[] = new Array(parts.length);
      for (let at = 0; at < parts.length; at++) {
        const part = parts[at]!;
        content[at] = part.type === 'tool-result' || part.type === 'json' ? kept(part, blocks[blockOf[at]!]) : part;
      }
      messages.push({ role: 'assistant', content });
    }
    ext.keep(messages[first]!, ext.rest(wire, MESSAGE_KNOWN));
    previousToolsOnly = toolsOnly;
  }
}

/** A part that cannot stand where it is (a tool result after user text) -> its wire block, kept whole. */
function kept(part: ConverseDecodedPart, block: unknown): LlmProviderPart {
  const out: LlmProviderPart = { type: 'provider', protocol: PROTOCOL, value: block };
  if (part.cache) out.cache = part.cache;
  return out;
}

/** A user turn: its leading tool results become tool messages, one result each. True when it held only those. */
function decodeUser(parts: ConverseDecodedPart[], blockOf: number[], blocks: unknown[], messages: LlmMessage[]): boolean {
  let at = 0;
  for (; at < parts.length && parts[at]!.type === 'tool-result'; at++) {
    messages.push({ role: 'tool', content: [parts[at] as LlmToolMessage['content'][number]] });
  }
  if (at > 0 && at === parts.length) return true;
  const content: LlmUserContent[] = new Array(parts.length - at);
  for (let from = at; at < parts.length; at++) {
    const part = parts[at]!;
    content[at - from] =
      part.type === 'text' || part.type === 'image' || part.type === 'file' || part.type === 'provider' ? part : kept(part, blocks[blockOf[at]!]);
  }
  messages.push({ role: 'user', content });
  return false;
}
