import {
  codeExecutionOutput,
  isCodeExecutionPart,
  codeExecutionAsText,
  reportCodeResultFields,
  reportLoss,
  type CodecContext,
  type LlmAssistantContent,
  type LlmCodeExecutionPart,
  type LlmCodeExecutionResultPart,
  type LlmMediaSource,
} from '@llm/core';
import { PROTOCOL, ext, read } from './protocol.js';

type Wire = Record<string, unknown>;

/**
 * `code_interpreter_call` <-> canonical code-execution parts: the item's `code` is the code of a
 * run, its `outputs` (logs and images) and `status` the result, one item for both (Gemini and
 * Claude have two parts). Bag marks: on the code, `$containerId`, `$nullCode` (a `null` code),
 * `$status` and `$noOutputs` (an item still running); on the result, `$status` (one other than
 * `completed` / `failed`), `$outputs` (outputs kept as sent) and `$noOutputs`.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses-object-output
 */
const KNOWN = new Set(['type', 'id', 'code', 'container_id', 'outputs', 'status']);

/** Statuses of an item whose run has ended, and the outcome each says. */
const ENDED: Readonly<Record<string, 'ok' | 'failed'>> = { completed: 'ok', failed: 'failed', incomplete: 'failed' };

/** `outputs` as one log text and image URLs, or `undefined` when that would not give them back exactly (several logs, logs after images). */
function readOutputs(outputs: unknown[]): { logs: string; files: LlmMediaSource[] } | undefined {
  let logs: string | undefined;
  const files: LlmMediaSource[] = [];
  for (const output of outputs) {
    const { type, logs: text, url, ...rest } = (output ?? {}) as Wire;
    if (Object.keys(rest).length > 0) return undefined;
    if (type === 'logs' && typeof text === 'string' && url === undefined && logs === undefined && files.length === 0) logs = text;
    else if (type === 'image' && typeof url === 'string' && text === undefined) files.push({ kind: 'url', url });
    else return undefined;
  }
  return { logs: logs ?? '', files };
}

/** `code_interpreter_call` -> the code of a run, and its result once the item says the run ended (or has outputs). */
export function decodeCodeInterpreterCall(item: Wire, path: string): [LlmCodeExecutionPart] | [LlmCodeExecutionPart, LlmCodeExecutionResultPart] {
  const id = read.string(item, 'id', path);
  const code = item.code === null ? null : read.string(item, 'code', path);
  const call: LlmCodeExecutionPart = { type: 'code-execution', id, language: 'python', code: code ?? '', origin: { protocol: PROTOCOL } };
  const callBag: Wire = ext.rest(item, KNOWN) ?? {};
  if (code === null) callBag.$nullCode = true;
  const container = read.optionalString(item, 'container_id', path);
  if (container !== undefined) callBag.$containerId = container;
  const status = read.optionalString(item, 'status', path);
  const outputs = item.outputs === null || item.outputs === undefined ? undefined : read.array(item, 'outputs', path);
  // Own keys only: a wire status such as `constructor` is no outcome.
  const outcome = status === undefined || !Object.hasOwn(ENDED, status) ? undefined : ENDED[status];
  if (outcome === undefined && outputs === undefined) {
    // Still running (a stream's snapshot): no result yet.
    callBag.$status = status ?? null;
    if (item.outputs === undefined) callBag.$noOutputs = true;
    return [ext.keep(call, callBag)];
  }
  ext.keep(call, callBag);
  const parsed = outputs ? readOutputs(outputs) : { logs: '', files: [] };
  const result: LlmCodeExecutionResultPart = {
    type: 'code-execution-result',
    callId: id,
    outcome: outcome ?? 'ok',
    output: parsed?.logs ?? '',
    origin: { protocol: PROTOCOL },
  };
  if (parsed && parsed.files.length > 0) result.files = parsed.files;
  const resultBag: Wire = {};
  if (status !== 'completed' && status !== 'failed') resultBag.$status = status ?? null;
  // Outputs the canonical result cannot give back exactly (or none: null, absent) are kept as sent.
  if (item.outputs === undefined) resultBag.$noOutputs = true;
  else if (!parsed || outputs === undefined) resultBag.$outputs = item.outputs;
  return [call, ext.keep(result, resultBag)];
}

/**
 * The code of a run (and its result, when it has one) -> one `code_interpreter_call` item. Another
 * protocol's run gets no `container_id` (none existed), its output as one log and its status from
 * the result: `completed` / `failed`, `in_progress` without one.
 */
export function codeInterpreterCallItem(
  call: LlmCodeExecutionPart,
  result: LlmCodeExecutionResultPart | undefined,
  id: string,
  paths: { call: string; result?: string },
  context: CodecContext | undefined,
): Wire {
  if (call.language !== 'python')
    reportLoss(context, {
      code: 'lossy-conversion',
      path: `${paths.call}.language`,
      message: `the Responses code interpreter runs Python; ${call.language} code was sent as it is`,
      protocol: PROTOCOL,
    });
  const callBag = ext.bag(call);
  const resultBag = result ? ext.bag(result) : undefined;
  let status = resultBag?.$status ?? callBag?.$status;
  if (status === undefined) status = result ? (result.outcome === 'ok' ? 'completed' : 'failed') : 'in_progress';
  const item: Wire = { id, type: 'code_interpreter_call' };
  if (status !== null) item.status = status;
  item.code = callBag?.$nullCode ? null : call.code;
  if (typeof callBag?.$containerId === 'string') item.container_id = callBag.$containerId;
  if (resultBag && Object.hasOwn(resultBag, '$outputs')) item.outputs = resultBag.$outputs;
  else if (result && !resultBag?.$noOutputs) item.outputs = outputsOf(result, paths.result ?? paths.call, context);
  else if (!result && !callBag?.$noOutputs) item.outputs = null;
  ext.writeRest(item, call);
  if (result) ext.writeRest(item, result);
  return item;
}

/** A result's `outputs`: its text as one log (when there is any), then its image URLs (other files reported). */
function outputsOf(result: LlmCodeExecutionResultPart, path: string, context: CodecContext | undefined): Wire[] {
  const images = reportCodeResultFields(result, path, PROTOCOL, context, { returnCode: false, takesFile: (file) => file.kind === 'url' });
  const outputs: Wire[] = [];
  const logs = codeExecutionOutput(result);
  if (logs !== '') outputs.push({ type: 'logs', logs });
  for (const image of images) outputs.push({ type: 'image', url: (image as { url: string }).url });
  return outputs;
}

/**
 * A part of a request's history: Responses' own code runs stay parts (sent back as their item);
 * another protocol's become text (reported), as the container they would name never existed.
 */
export function historyCodePart(part: LlmAssistantContent, path: () => string, context: CodecContext | undefined): LlmAssistantContent {
  if (!isCodeExecutionPart(part) || part.origin?.protocol === PROTOCOL) return part;
  return {
    type: 'text',
    text: codeExecutionAsText(part, path(), PROTOCOL, context, 'Responses takes back only the code interpreter calls of its own containers'),
  };
}
