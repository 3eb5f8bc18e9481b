import {
  collectUnknown,
  joinPath,
  type LlmAssistantContent,
  type LlmMessage,
  type LlmProviderPart,
  type LlmReasoningPart,
  type LlmToolCallPart,
  type LlmToolResultContent,
  type LlmToolMessage,
  type LlmToolResultPart,
  type LlmUserContent,
} from '@llm/core';
import { isJsonText } from '@llm/core/kit';
import { PROTOCOL, ext, invalidAt, read } from './protocol.js';
import { liftAdditionalTools, type LiftedTools } from './additional-tools.js';
import { callItemName } from './namespaces.js';
import { decodeMcpApprovalRequest, decodeMcpApprovalResponse, decodeMcpCall, decodeMcpListTools } from './mcp-items.js';
import { decodeContentPart } from './parts-decode.js';
import { decodeCodeInterpreterCall } from './code-interpreter-call.js';

/** Built-in items the assistant side produces (kept whole as provider parts; MCP items and code runs as their canonical parts). */
const ASSISTANT_ITEMS = new Set([
  'web_search_call',
  'file_search_call',
  'computer_call',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'shell_call',
  'apply_patch_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_call',
  'tool_search_call',
  'compaction',
  'additional_tools',
  'program',
]);

/** Items that answer a call (kept whole in tool messages). */
function isToolSideItem(type: string): boolean {
  return type.endsWith('_output');
}

/** Fields of a message item with a canonical home; the rest ride along as `$item`. */
export const MESSAGE_KNOWN: ReadonlySet<string> = new Set(['role', 'content']);
const REASONING_KNOWN = new Set(['type', 'id', 'summary', 'content', 'encrypted_content']);
const FUNCTION_CALL_KNOWN = new Set(['type', 'call_id', 'name', 'namespace', 'arguments']);
const CUSTOM_CALL_KNOWN = new Set(['type', 'call_id', 'name', 'namespace', 'input']);
const OUTPUT_KNOWN = new Set(['type', 'call_id', 'output']);

/** `input` (a string or items) -> canonical messages, after the `instructions` message if any. */
export function decodeInput(body: Record<string, unknown>, messages: LlmMessage[], lifted: LiftedTools): void {
  const input = body.input;
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: [{ type: 'text', text: input }], stringContent: true });
    return;
  }
  const items = read.array(body, 'input', '');
  for (let index = 0; index < items.length; index++) decodeInputItem(items, index, messages, lifted);
}

function decodeInputItem(items: unknown[], index: number, messages: LlmMessage[], lifted: LiftedTools): void {
  const item = read.object(items, index, 'input');
  const type = item.type;
  // The two items of every turn of an agent's loop, read directly when well formed (no path joined).
  if (type === 'function_call' && decodeFunctionCallItem(item, index, messages)) return;
  if (type === 'function_call_output' && decodeFunctionOutputItem(item, messages)) return;
  if (type === undefined || type === 'message') {
    decodeMessageItem(item, index, messages);
    return;
  }
  if (typeof type !== 'string') return read.invalid(item, 'type', joinPath('input', index), 'a string');
  if (type === 'additional_tools' && Array.isArray(item.tools)) {
    liftAdditionalTools(item, index, messages.length, lifted);
    return;
  }
  const path = joinPath('input', index);
  if (type === 'mcp_approval_response') {
    // The client's answer to an approval request: user content, next to other answers.
    const part = decodeMcpApprovalResponse(item, path);
    const last = messages[messages.length - 1];
    if (last?.role === 'user' && !last.extensions && last.content.every((earlier) => earlier.type === 'mcp-approval-response')) last.content.push(part);
    else messages.push({ role: 'user', content: [part] });
    return;
  }
  if (isToolSideItem(type)) {
    toolTail(messages).push(type === 'function_call_output' || type === 'custom_tool_call_output' ? decodeToolOutput(item, path) : providerPart(item));
    return;
  }
  if (type === 'reasoning' || type === 'function_call' || type === 'custom_tool_call' || ASSISTANT_ITEMS.has(type)) {
    // Arguments sent back in the input must be JSON text (answers are not checked: cut-off
    // arguments are still the model's answer); '' is accepted for calls without parameters.
    if (type === 'function_call' && typeof item.arguments === 'string' && item.arguments !== '') read.jsonText(item, 'arguments', path);
    const tail = assistantTail(messages);
    for (const part of decodeAssistantItem(item, path)) tail.push(part);
    return;
  }
  // item_reference, compaction_trigger and item types this codec does not know: kept whole.
  messages.push({ role: 'user', content: [providerPart(item)] });
}

/**
 * A `function_call` item whose `call_id`, `name` and `arguments` are strings, into the assistant
 * message it joins; `false` (nothing done) for any other shape, which the checked readers decode
 * with the same errors as ever. Its path is joined only for arguments that are not JSON.
 */
function decodeFunctionCallItem(item: Record<string, unknown>, index: number, messages: LlmMessage[]): boolean {
  const { call_id: id, name, arguments: args } = item;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string') return false;
  if (args !== '' && !isJsonText(args)) read.jsonText(item, 'arguments', joinPath('input', index));
  const part: LlmToolCallPart = { type: 'tool-call', id, name: callItemName(item, name), arguments: args };
  ext.keep(part, collectUnknown(item, FUNCTION_CALL_KNOWN));
  assistantTail(messages).push(part);
  return true;
}

/** A `function_call_output` item with a string `call_id` and `output`, into its tool message; `false` for any other shape. */
function decodeFunctionOutputItem(item: Record<string, unknown>, messages: LlmMessage[]): boolean {
  const { call_id: id, output } = item;
  if (typeof id !== 'string' || typeof output !== 'string') return false;
  const part: LlmToolResultPart = { type: 'tool-result', toolCallId: id, content: output };
  ext.keep(part, collectUnknown(item, OUTPUT_KNOWN));
  toolTail(messages).push(part);
  return true;
}

/** The tool message the next tool-side item joins (a new one unless the last is one without a bag). */
function toolTail(messages: LlmMessage[]): LlmToolMessage['content'] {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool' && !last.extensions) return last.content;
  const message: LlmToolMessage = { role: 'tool', content: [] };
  messages.push(message);
  return message.content;
}

/** The assistant message the next assistant-side item joins (a new one unless the last is one). */
function assistantTail(messages: LlmMessage[]): LlmAssistantContent[] {
  const last = messages[messages.length - 1];
  if (last?.role === 'assistant') return last.content;
  const message: LlmMessage = { role: 'assistant', content: [] };
  messages.push(message);
  return message.content;
}

function decodeMessageItem(item: Record<string, unknown>, index: number, messages: LlmMessage[]): void {
  const path = joinPath('input', index);
  const role = item.role;
  // This item's own unknown fields, in a fresh object: the message's bag is built on it in place.
  const rest = collectUnknown(item, MESSAGE_KNOWN) ?? {};
  const content = item.content;
  const stringContent = typeof content === 'string';
  const wireParts: unknown[] = stringContent ? [] : read.array(item, 'content', path);
  const contentPath = joinPath(path, 'content');
  switch (role) {
    case 'assistant': {
      const parts = decodeAssistantMessage(item, path);
      const tail = assistantTail(messages);
      for (const part of parts) tail.push(part);
      return;
    }
    case 'user': {
      const parts: LlmUserContent[] = stringContent
        ? [{ type: 'text', text: content as string }]
        : wireParts.map((_, key) => {
            const decoded = decodeContentPart(wireParts, key, contentPath);
            if (decoded.type === 'refusal') return invalidAt(joinPath(contentPath, key), 'a user content part', 'refusal');
            return decoded;
          });
      const message: LlmMessage = { role: 'user', content: parts };
      if (stringContent) message.stringContent = true;
      rest.$item = true;
      ext.keep(message, rest);
      messages.push(message);
      return;
    }
    case 'system':
    case 'developer': {
      const parts = stringContent
        ? [{ type: 'text' as const, text: content as string }]
        : wireParts.map((_, key) => {
            const decoded = decodeContentPart(wireParts, key, contentPath);
            if (decoded.type !== 'text') return invalidAt(joinPath(contentPath, key), 'a text part', decoded.type);
            return decoded;
          });
      const message: LlmMessage = { role: 'system', content: parts };
      if (role === 'developer') message.developer = true;
      rest.$item = true;
      if (stringContent) rest.$string = true;
      ext.keep(message, rest);
      messages.push(message);
      return;
    }
    default:
      return read.invalid(item, 'role', path, '"user", "assistant", "system" or "developer"');
  }
}

/**
 * An assistant `message` item -> its parts. The item's own fields (`id`, `status`, `phase`,
 * `type`) ride on the first part as `$item`, so consecutive message items stay apart; an item
 * with no content is kept whole as a provider part.
 */
export function decodeAssistantMessage(item: Record<string, unknown>, path: string): LlmAssistantContent[] {
  const content = item.content;
  const fields = collectUnknown(item, MESSAGE_KNOWN) ?? {};
  if (typeof content === 'string') {
    const part: LlmAssistantContent = { type: 'text', text: content };
    ext.keep(part, { $item: fields, $string: true });
    return [part];
  }
  const wireParts = read.array(item, 'content', path);
  if (wireParts.length === 0) return [providerPart(item)];
  const contentPath = joinPath(path, 'content');
  const parts: LlmAssistantContent[] = [];
  for (let key = 0; key < wireParts.length; key++) parts.push(decodeContentPart(wireParts, key, contentPath));
  const first = parts[0] as LlmAssistantContent;
  // The first part's own bag (made by its decoder for it alone) takes the item's fields.
  ext.mark(first, 'item', fields);
  return parts;
}

/** An assistant-side item (message, reasoning, tool call, built-in call) -> canonical parts. */
export function decodeAssistantItem(item: Record<string, unknown>, path: string): LlmAssistantContent[] {
  switch (item.type) {
    case 'message':
      return decodeAssistantMessage(item, path);
    case 'reasoning':
      return [decodeReasoning(item, path)];
    case 'function_call': {
      const part: LlmToolCallPart = {
        type: 'tool-call',
        id: read.string(item, 'call_id', path),
        name: callItemName(item, read.string(item, 'name', path)),
        arguments: read.string(item, 'arguments', path),
      };
      ext.keep(part, collectUnknown(item, FUNCTION_CALL_KNOWN));
      return [part];
    }
    case 'custom_tool_call': {
      const part: LlmToolCallPart = {
        type: 'tool-call',
        id: read.string(item, 'call_id', path),
        name: callItemName(item, read.string(item, 'name', path)),
        arguments: read.string(item, 'input', path),
        freeform: true,
      };
      ext.keep(part, collectUnknown(item, CUSTOM_CALL_KNOWN));
      return [part];
    }
    case 'mcp_call':
      return decodeMcpCall(item, path);
    case 'mcp_list_tools':
      return [decodeMcpListTools(item, path)];
    case 'mcp_approval_request':
      return [decodeMcpApprovalRequest(item, path)];
    case 'code_interpreter_call':
      return decodeCodeInterpreterCall(item, path);
    default:
      return [providerPart(item)];
  }
}

/**
 * A `reasoning` item -> one reasoning part. Summaries are joined with blank lines
 * (`format: 'summary'`); raw `reasoning_text` content wins as the text (`format: 'full'`) and
 * the summaries are kept in `$summary`. Structure the text cannot say is kept in the bag.
 */
function decodeReasoning(item: Record<string, unknown>, path: string): LlmReasoningPart {
  const summary = item.summary === undefined ? undefined : read.array(item, 'summary', path);
  const content = read.optionalArray(item, 'content', path);
  const part: LlmReasoningPart = { type: 'reasoning', text: '' };
  const bag: Record<string, unknown> = collectUnknown(item, REASONING_KNOWN) ?? {};
  if (content !== undefined) {
    part.text = joinTexts(content, joinPath(path, 'content'));
    part.format = 'full';
    bag.$content = content;
    if (summary !== undefined) bag.$summary = summary;
  } else {
    if (summary !== undefined) {
      part.text = joinTexts(summary, joinPath(path, 'summary'));
      if (summary.length > 1 || (summary.length === 1 && (part.text === '' || hasExtraKeys(summary[0])))) bag.$summary = summary;
    } else bag.$noSummary = true;
    part.format = 'summary';
  }
  if (item.content === null) bag.content = null;
  if (typeof item.id === 'string') part.id = item.id;
  else if (item.id !== undefined) bag.id = item.id;
  const encrypted = item.encrypted_content;
  if (typeof encrypted === 'string') part.signature = encrypted;
  else if (encrypted !== undefined) bag.encrypted_content = encrypted;
  part.origin = { protocol: PROTOCOL };
  ext.keep(part, bag);
  return part;
}

function hasExtraKeys(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  for (const key in value) if (key !== 'type' && key !== 'text') return true;
  return (value as Record<string, unknown>).type !== 'summary_text';
}

function joinTexts(parts: unknown[], path: string): string {
  let text = '';
  for (let index = 0; index < parts.length; index++) {
    const part = read.object(parts, index, path);
    if (index > 0) text += '\n\n';
    text += read.string(part, 'text', joinPath(path, index));
  }
  return text;
}

function decodeToolOutput(item: Record<string, unknown>, path: string): LlmToolResultPart {
  const output = item.output;
  let content: LlmToolResultPart['content'];
  if (typeof output === 'string') content = output;
  else {
    const list = read.array(item, 'output', path);
    const outputPath = joinPath(path, 'output');
    content = list.map((_, key) => {
      const decoded = decodeContentPart(list, key, outputPath);
      if (decoded.type === 'refusal') return invalidAt(joinPath(outputPath, key), 'a tool output part', 'refusal');
      return decoded as LlmToolResultContent;
    });
  }
  const part: LlmToolResultPart = { type: 'tool-result', toolCallId: read.string(item, 'call_id', path), content };
  const rest = collectUnknown(item, OUTPUT_KNOWN);
  ext.keep(part, item.type === 'custom_tool_call_output' ? { ...rest, $custom: true } : rest);
  return part;
}

/** An item kept whole for same-protocol round trips. */
export function providerPart(item: Record<string, unknown>): LlmProviderPart {
  return { type: 'provider', protocol: PROTOCOL, value: item };
}
