import {
  reportLoss,
  stepStream,
  toolArgumentsObject,
  type CodecContext,
  type JsonObject,
  type LlmAssistantContent,
  type LlmRequest,
  type LlmStreamEvent,
  type StreamStep,
} from '@llm/core';
import { protocolTraits, type ProtocolRef } from './protocol-traits.js';

/** How a request's tools were adapted to the target, so answers can be mapped back. */
export interface ToolAdaptation {
  /** Upstream tool name -> client tool name, for renamed tools. */
  names: Map<string, string>;
  /** Upstream names of freeform (custom) tools sent as functions taking `{ input: string }`. */
  freeform: Set<string>;
}

/** True when an adaptation changed nothing: its answers need no restoring. */
export function isEmptyAdaptation(adaptation: ToolAdaptation): boolean {
  return adaptation.names.size === 0 && adaptation.freeform.size === 0;
}

const FREEFORM_SCHEMA: JsonObject = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw tool input.' } },
  required: ['input'],
};

/**
 * A tool name the target accepts, by its codec's `traits.toolNames` (`[A-Za-z0-9_-]`, Gemini also
 * `.:` and a letter or `_` first, at most 64 characters): rejected characters become `_`, a name
 * too long keeps its start and a hash of the whole.
 */
export function targetToolName(name: string, protocol: ProtocolRef): string {
  const rule = protocolTraits(protocol).traits.toolNames;
  let out = name.replace(rule.invalidCharacter, '_');
  if (rule.validStart && !rule.validStart.test(out)) out = `_${out}`;
  if (out === '') out = '_';
  if (out.length > rule.maxLength) out = `${out.slice(0, rule.maxLength - 9)}_${hash(name)}`;
  return out;
}

/**
 * Adapts tools to the target, in place: renames tools whose names the target rejects (tool
 * calls, results and tool choice follow), turns freeform (custom) tools into functions taking
 * `{ input: string }` on function-only targets (Claude, Gemini). Reports each change as
 * `lossy-conversion`.
 */
export function adaptTools(request: LlmRequest, protocol: ProtocolRef, context?: CodecContext): ToolAdaptation {
  const { id: target, traits } = protocolTraits(protocol);
  const adaptation: ToolAdaptation = { names: new Map(), freeform: new Set() };
  const rename = new Map<string, string>();
  const nameFor = (name: string): string => rename.get(name) ?? name;
  request.tools?.forEach((tool, index) => {
    const renamed = targetToolName(tool.name, protocol);
    if (renamed !== tool.name) {
      rename.set(tool.name, renamed);
      adaptation.names.set(renamed, tool.name);
      reportLoss(context, {
        code: 'lossy-conversion',
        path: `tools[${index}].name`,
        message: `tool name ${JSON.stringify(tool.name)} sent to ${target} as ${JSON.stringify(renamed)}`,
      });
    }
  });
  if (request.tools) {
    request.tools = request.tools.map((tool, index) => {
      if (tool.type === 'custom' && !traits.freeformTools) {
        adaptation.freeform.add(nameFor(tool.name));
        reportLoss(context, {
          code: 'lossy-conversion',
          path: `tools[${index}]`,
          message: `freeform tool ${tool.name} sent to ${target} as a function taking { input: string }`,
        });
        const fn: LlmRequest['tools'] extends Array<infer T> | undefined ? T : never = {
          type: 'function',
          name: nameFor(tool.name),
          parameters: FREEFORM_SCHEMA,
        };
        if (tool.description !== undefined) fn.description = tool.description;
        return fn;
      }
      return tool.name === nameFor(tool.name) ? tool : { ...tool, name: nameFor(tool.name) };
    });
  }
  if (rename.size === 0 && adaptation.freeform.size === 0) return adaptation;
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'tool-call') {
        part.name = nameFor(part.name);
        if (adaptation.freeform.has(part.name)) {
          part.arguments = { input: typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments) };
          delete part.freeform;
        }
      } else if (part.type === 'tool-result' && part.toolName !== undefined) part.toolName = nameFor(part.toolName);
    }
  }
  const choice = request.toolChoice;
  if (choice?.type === 'tool') request.toolChoice = { ...choice, name: nameFor(choice.name) };
  else if (choice?.type === 'allowed') request.toolChoice = { ...choice, names: choice.names.map(nameFor) };
  return adaptation;
}

/** Maps tool calls of an answer back to the client's tool names and freeform inputs, in place. */
export function restoreToolCalls(content: LlmAssistantContent[], adaptation: ToolAdaptation): void {
  if (isEmptyAdaptation(adaptation)) return;
  for (const part of content) {
    if (part.type !== 'tool-call') continue;
    if (adaptation.freeform.has(part.name)) {
      const input = toolArgumentsObject(part.arguments)?.input;
      part.arguments = typeof input === 'string' ? input : toolArgumentsText(part.arguments);
      part.freeform = true;
    }
    part.name = adaptation.names.get(part.name) ?? part.name;
  }
}

function toolArgumentsText(args: string | JsonObject): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/** The stream form of {@link restoreToolCalls}; freeform arguments are buffered per open call. */
export function restoreToolStream(adaptation: ToolAdaptation): TransformStream<LlmStreamEvent, LlmStreamEvent> {
  return stepStream(restoreToolStep(adaptation));
}

/** {@link restoreToolStream} as a stream step. */
export function restoreToolStep(adaptation: ToolAdaptation): StreamStep<LlmStreamEvent, LlmStreamEvent> {
  const buffered = new Map<number, string>();
  return {
    transform(event, controller) {
      if (event.type === 'block-start' && event.block.kind === 'tool_call') {
        const block = { ...event.block, name: adaptation.names.get(event.block.name) ?? event.block.name };
        if (adaptation.freeform.has(event.block.name)) {
          block.freeform = true;
          buffered.set(event.index, '');
        }
        controller.enqueue({ ...event, block });
        return;
      }
      if (event.type === 'tool-args-delta' && buffered.has(event.index)) {
        buffered.set(event.index, (buffered.get(event.index) ?? '') + event.json);
        return;
      }
      if (event.type === 'block-end' && buffered.has(event.index)) {
        const json = buffered.get(event.index) ?? '';
        buffered.delete(event.index);
        const input = toolArgumentsObject(json)?.input;
        controller.enqueue({ type: 'tool-args-delta', index: event.index, json: typeof input === 'string' ? input : json });
      }
      controller.enqueue(event);
    },
  };
}

function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) value = Math.imul(value ^ text.charCodeAt(index), 0x01000193);
  return (value >>> 0).toString(16).padStart(8, '0');
}
