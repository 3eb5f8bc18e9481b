import {
  answersCode,
  contentPartPath,
  opaqueStateWarning,
  reportCodeExecutionDropped,
  reportForeignPartState,
  reportLoss,
  textOf,
  toolArgumentsText,
  type CodecContext,
  type LlmAssistantContent,
  type LlmMessage,
  type LlmPart,
  type LlmProviderPart,
  type LlmReasoningPart,
  type LlmToolMessage,
  type LlmToolResultPart,
} from '@llm/core';
import { PartPath, partPathAt } from '@llm/core/kit';
import { PROTOCOL, ext } from './protocol.js';
import { writeCallName } from './namespaces.js';
import { mcpApprovalRequestItem, mcpApprovalResponseItem, mcpCallItem, mcpListToolsItem } from './mcp-items.js';
import { encodeContentPart } from './parts-encode.js';
import { codeInterpreterCallItem, historyCodePart } from './code-interpreter-call.js';

/** The origin a foreign part's state is reported against. */
const TARGET = { protocol: PROTOCOL };

/** What canonical messages become: `instructions` (leading system messages) and `input`. */
export interface EncodedInput {
  instructions?: string;
  input: string | unknown[];
}

/** Options of {@link encodeMessages}. */
export interface EncodeInputOptions {
  /** `store: false`: nothing resolves by id, so bare reasoning ids are dropped. */
  store?: boolean;
  /** Items to place before the message at index `at` (the end for `messages.length`). */
  insertions?: readonly { at: number; item: unknown }[];
}

/**
 * Canonical messages -> `instructions` and `input` items. Leading system messages that were not
 * `input` items become `instructions`; a lone user message that was a string stays a string.
 */
export function encodeMessages(messages: readonly LlmMessage[], context: CodecContext | undefined, options: EncodeInputOptions = {}): EncodedInput {
  let start = 0;
  let instructions: string | undefined;
  while (start < messages.length) {
    const message = messages[start] as LlmMessage;
    if (message.role !== 'system' || ext.bag(message)?.$item) break;
    const text = textOf(message.content);
    instructions = instructions === undefined ? text : `${instructions}\n\n${text}`;
    if (start > 0) {
      reportLoss(context, {
        code: 'lossy-conversion',
        path: `messages[${start}]`,
        message: 'several system messages were joined into instructions',
        protocol: PROTOCOL,
      });
    }
    start++;
  }
  const result: EncodedInput = { input: [] };
  if (instructions !== undefined) result.instructions = instructions;
  const insertions = options.insertions ?? [];
  if (messages.length - start === 1 && insertions.length === 0) {
    const only = messages[start] as LlmMessage;
    const first = only.content[0];
    if (only.role === 'user' && only.stringContent && !only.extensions && only.content.length === 1 && first?.type === 'text') {
      result.input = first.text;
      return result;
    }
  }
  const input: unknown[] = [];
  let next = 0;
  // Where a part's loss is reported, joined only then: one cursor moved along the messages.
  const path = new PartPath();
  for (let index = start; index < messages.length; index++) {
    while (next < insertions.length && (insertions[next] as { at: number }).at <= index) input.push(insertions[next++]?.item);
    path.message = index;
    encodeMessage(messages[index] as LlmMessage, path, input, context, options);
  }
  while (next < insertions.length) input.push(insertions[next++]?.item);
  result.input = input;
  return result;
}

function encodeMessage(message: LlmMessage, path: string | PartPath, out: unknown[], context: CodecContext | undefined, options: EncodeInputOptions): void {
  switch (message.role) {
    case 'system':
    case 'user': {
      const bag = ext.bag(message);
      const item: Record<string, unknown> = {};
      if (!bag) item.type = 'message';
      item.role = message.role === 'system' ? (message.developer ? 'developer' : 'system') : 'user';
      const stringContent = message.role === 'user' ? message.stringContent : bag?.$string === true;
      const first = message.content[0];
      if (stringContent && message.content.length === 1 && first?.type === 'text') item.content = first.text;
      else {
        const content: unknown[] = [];
        const providers: unknown[] = [];
        message.content.forEach((part, index) => {
          if (part.type === 'provider') {
            const value = ownProvider(part, partPathAt(path, index), context);
            if (value !== undefined) providers.push(value);
            return;
          }
          // Approvals are items of their own, after the message's other content.
          if (part.type === 'mcp-approval-response') {
            providers.push(mcpApprovalResponseItem(part));
            return;
          }
          const encoded = encodeContentPart(part, false, partPathAt(path, index), context);
          if (encoded) content.push(encoded);
        });
        if (providers.length > 0 && content.length === 0 && !bag) {
          for (const value of providers) out.push(value);
          return;
        }
        item.content = content;
        ext.writeRest(item, message);
        out.push(item);
        for (const value of providers) out.push(value);
        return;
      }
      ext.writeRest(item, message);
      out.push(item);
      return;
    }
    case 'assistant':
      encodeAssistantParts(message.content, path, out, context, options);
      return;
    case 'tool':
      for (let index = 0; index < message.content.length; index++) {
        const part = message.content[index] as LlmToolMessage['content'][number];
        if (part.type === 'provider') {
          const value = ownProvider(part, partPathAt(path, index), context);
          if (value !== undefined) out.push(value);
        } else out.push(encodeToolResult(part, path, index, context));
      }
      return;
    default: {
      const unreachable: never = message;
      return unreachable;
    }
  }
}

/**
 * Assistant parts -> output items in order: consecutive text/refusal parts share one `message`
 * item (a part carrying `$item` opens a new one), reasoning, tool calls and provider items each
 * become their own item.
 */
export function encodeAssistantParts(
  parts: readonly LlmAssistantContent[],
  path: string | PartPath,
  out: unknown[],
  context: CodecContext | undefined,
  options: EncodeInputOptions,
  defaults?: { status?: string; idFor?: (prefix: string, index: number) => string },
): void {
  let message: { content: unknown[] } | undefined;
  for (let index = 0; index < parts.length; index++) {
    // Towards the model, another protocol's code run goes as text (see historyCodePart).
    const part = defaults ? parts[index]! : historyCodePart(parts[index]!, () => partPathAt(path, index), context);
    // A part's path is joined where it is used: tool calls (one per call of an agent's loop) build none.
    // Towards a client, a text's or call's signature (Gemini's) has no Responses field: reported.
    if (defaults && (part.type === 'text' || part.type === 'tool-call') && part.signature !== undefined) {
      reportForeignPartState(context, partPathAt(path, index), part, TARGET);
    }
    if (part.type === 'text' || part.type === 'refusal') {
      const bag = ext.bag(part);
      const fields = bag?.$item as Record<string, unknown> | undefined;
      if (!message || fields) {
        const item: Record<string, unknown> = {};
        if (fields) Object.assign(item, fields);
        else {
          item.type = 'message';
          if (defaults?.idFor) item.id = defaults.idFor('msg', index);
          if (defaults?.status) item.status = defaults.status;
        }
        item.role = 'assistant';
        if (bag?.$string && part.type === 'text') {
          item.content = part.text;
          out.push(item);
          message = undefined;
          continue;
        }
        message = { content: [] };
        item.content = message.content;
        out.push(item);
      }
      const encoded = encodeContentPart(part, true, partPathAt(path, index), context);
      if (encoded) message.content.push(encoded);
      continue;
    }
    message = undefined;
    switch (part.type) {
      case 'mcp-call': {
        const next = parts[index + 1];
        out.push(mcpCallItem(part, next?.type === 'mcp-result' && next.callId === part.id ? next : undefined));
        continue;
      }
      case 'mcp-result': {
        const previous = parts[index - 1];
        if (previous?.type === 'mcp-call' && previous.id === part.callId) continue; // in its call's item
        reportLoss(context, {
          code: 'dropped-part',
          path: partPathAt(path, index),
          message: 'an MCP result without its call has no Responses form',
          protocol: PROTOCOL,
        });
        continue;
      }
      case 'mcp-list-tools':
        out.push(mcpListToolsItem(part));
        continue;
      case 'code-execution': {
        const next = parts[index + 1];
        const result = next?.type === 'code-execution-result' && answersCode(next, part) ? next : undefined;
        const id = part.id ?? defaults?.idFor?.('ci', index) ?? `ci_${index}`;
        out.push(codeInterpreterCallItem(part, result, id, { call: partPathAt(path, index), result: partPathAt(path, index + 1) }, context));
        continue;
      }
      case 'code-execution-result': {
        const previous = parts[index - 1];
        if (previous?.type === 'code-execution' && answersCode(part, previous)) continue; // in its code's item
        reportCodeExecutionDropped(part, partPathAt(path, index), PROTOCOL, context, 'Responses carries a result only in the item of its code');
        continue;
      }
      case 'mcp-approval-request':
        out.push(mcpApprovalRequestItem(part));
        continue;
      case 'reasoning': {
        if (defaults) {
          // Towards a client: state is written as it is (the router sealed foreign state already).
          const item = reasoningItem(part);
          if (item.id === undefined && defaults.idFor) item.id = defaults.idFor('rs', index);
          out.push(item);
          continue;
        }
        const item = encodeReasoning(part, partPathAt(path, index), context, options);
        if (item) out.push(item);
        continue;
      }
      case 'tool-call': {
        const bag = ext.bag(part);
        const item: Record<string, unknown> = { type: part.freeform ? 'custom_tool_call' : 'function_call', call_id: part.id };
        writeCallName(item, part.name);
        if (part.freeform) item.input = toolArgumentsText(part.arguments);
        else item.arguments = toolArgumentsText(part.arguments);
        if (!bag && defaults?.idFor) item.id = defaults.idFor(part.freeform ? 'ctc' : 'fc', index);
        if (!bag && defaults?.status) item.status = defaults.status;
        ext.writeRest(item, part);
        out.push(item);
        continue;
      }
      case 'provider': {
        const value = ownProvider(part, partPathAt(path, index), context);
        if (value !== undefined) out.push(value);
        continue;
      }
      case 'image':
      case 'audio':
      case 'file':
        reportLoss(context, {
          code: 'dropped-part',
          path: partPathAt(path, index),
          message: `assistant ${part.type} parts have no Responses input form`,
          protocol: PROTOCOL,
        });
        continue;
      default: {
        const unreachable: never = part;
        return unreachable;
      }
    }
  }
}

/**
 * A reasoning part -> a `reasoning` item. Foreign state is dropped (and reported); with
 * `store: false` an item is only sent with its `encrypted_content`, never as a bare id that the
 * server could not resolve.
 */
function encodeReasoning(
  part: LlmReasoningPart,
  path: string,
  context: CodecContext | undefined,
  options: EncodeInputOptions,
): Record<string, unknown> | undefined {
  if (part.origin && part.origin.protocol !== PROTOCOL) {
    reportLoss(context, { ...opaqueStateWarning(path, { foreign: part.origin, target: { protocol: PROTOCOL } }), protocol: PROTOCOL });
    return undefined;
  }
  const bag = ext.bag(part);
  if (part.id === undefined && bag?.id === undefined) {
    reportLoss(context, { code: 'dropped-part', path, message: 'reasoning without a Responses item id cannot be replayed', protocol: PROTOCOL });
    return undefined;
  }
  if (options.store === false && part.signature === undefined) {
    reportLoss(context, {
      code: 'dropped-part',
      path,
      message: 'with store:false a reasoning item needs its encrypted_content; a bare id cannot be resolved',
      protocol: PROTOCOL,
    });
    return undefined;
  }
  return reasoningItem(part);
}

/** The wire `reasoning` item of a reasoning part (no origin checks). */
export function reasoningItem(part: LlmReasoningPart): Record<string, unknown> {
  const bag = ext.bag(part);
  const item: Record<string, unknown> = { type: 'reasoning' };
  if (part.id !== undefined) item.id = part.id;
  if (bag?.$summary !== undefined) item.summary = bag.$summary;
  else if (!bag?.$noSummary) {
    item.summary = part.format === 'full' || part.text === '' ? [] : [{ type: 'summary_text', text: part.text }];
  }
  if (bag?.$content !== undefined) item.content = bag.$content;
  else if (part.format === 'full' && part.text !== '') item.content = [{ type: 'reasoning_text', text: part.text }];
  if (part.signature !== undefined) item.encrypted_content = part.signature;
  ext.writeRest(item, part);
  return item;
}

/**
 * Tool result `index` of the tool message at `messagePath`: its path is joined only for a loss
 * (one result per call of an agent's loop).
 */
function encodeToolResult(part: LlmToolResultPart, messagePath: string | PartPath, index: number, context: CodecContext | undefined): Record<string, unknown> {
  const bag = ext.bag(part);
  const item: Record<string, unknown> = { type: bag?.$custom ? 'custom_tool_call_output' : 'function_call_output', call_id: part.toolCallId };
  if (typeof part.content === 'string') item.output = part.content;
  else {
    const output: unknown[] = [];
    const path = partPathAt(messagePath, index);
    part.content.forEach((inner, at) => {
      const innerPath = contentPartPath(path, at);
      if (inner.type === 'json') {
        output.push({ type: 'input_text', text: JSON.stringify(inner.value) });
        reportLoss(context, { code: 'lossy-conversion', path: innerPath, message: 'a JSON tool result was sent as text', protocol: PROTOCOL });
        return;
      }
      const encoded = encodeContentPart(inner as LlmPart, false, innerPath, context);
      if (encoded) output.push(encoded);
    });
    item.output = output;
  }
  if (part.isError) {
    reportLoss(context, {
      code: 'dropped-field',
      path: `${partPathAt(messagePath, index)}.isError`,
      message: 'Responses tool outputs have no error flag',
      protocol: PROTOCOL,
    });
  }
  ext.writeRest(item, part);
  return item;
}

function ownProvider(part: LlmProviderPart, path: string, context: CodecContext | undefined): unknown {
  if (part.protocol === PROTOCOL) return part.value;
  reportLoss(context, { code: 'dropped-part', path, message: `a ${part.protocol} provider item has no Responses form`, protocol: PROTOCOL });
  return undefined;
}
