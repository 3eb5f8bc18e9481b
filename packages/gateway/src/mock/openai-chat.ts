import { type MockPlan, type MockTurn, check, chunksOf, isObject, jsonResponse, sse, sseResponse } from './script.js';

/**
 * The OpenAI Chat Completions side of the mock upstream, written from the protocol digest.
 * @see https://platform.openai.com/docs/api-reference/chat
 */

/** Validates a Chat Completions request like the real API and reads the turn the script needs. */
export function readChatTurn(body: unknown): MockTurn {
  check(isObject(body), 'We could not parse the JSON body of your request.');
  check(typeof body.model === 'string' && body.model, "Missing required parameter: 'model'.");
  const messages = body.messages;
  check(Array.isArray(messages) && messages.length > 0, "Missing required parameter: 'messages'.");
  let pending: string[] = [];
  messages.forEach((message, i) => {
    check(isObject(message), `Invalid type for 'messages[${i}]': expected an object.`);
    const role = message.role;
    check(
      ['system', 'developer', 'user', 'assistant', 'tool'].includes(String(role)),
      `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function' and 'developer'.`,
    );
    if (role === 'tool') {
      const id = message.tool_call_id;
      check(
        typeof id === 'string' && pending.includes(id),
        `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`,
      );
      pending = pending.filter((p) => p !== id);
      return;
    }
    check(
      pending.length === 0,
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`,
    );
    if (role === 'assistant' && Array.isArray(message.tool_calls)) {
      pending = message.tool_calls.filter(isObject).map((call) => String(call.id));
    }
  });
  check(pending.length === 0, `The following tool_call_ids did not have response messages: ${pending.join(', ')}`);
  let tail = messages.length;
  while (tail > 0 && (messages[tail - 1] as Record<string, unknown>).role === 'tool') tail -= 1;
  const toolResults = messages.slice(tail).map((m) => textOf((m as Record<string, unknown>).content));
  const lastUser = [...messages].reverse().find((m) => (m as Record<string, unknown>).role === 'user') as Record<string, unknown> | undefined;
  const declared = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  const tools = declared.map((tool) => String(isObject(tool.function) ? tool.function.name : isObject(tool.custom) ? tool.custom.name : tool.name));
  const freeformTools = declared.flatMap((tool) => (tool.type === 'custom' && isObject(tool.custom) ? [String(tool.custom.name)] : []));
  return {
    model: body.model,
    stream: body.stream === true,
    lastUserText: toolResults.length > 0 ? '' : textOf(lastUser?.content),
    toolResults,
    toolNames: tools,
    freeformTools,
  };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .filter(isObject)
      .map((p) => (typeof p.text === 'string' ? p.text : ''))
      .join('');
  return '';
}

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'invalid_request_error',
  429: 'rate_limit_exceeded',
  500: 'server_error',
};
const CODES: Record<number, string> = { 405: 'method_not_allowed', 429: 'rate_limit_exceeded' };

/** An error body in OpenAI's shape (shared by Chat Completions and Responses). */
export function openaiErrorBody(status: number, message: string): Record<string, unknown> {
  return { error: { message, type: TYPES[status] ?? 'server_error', param: null, code: CODES[status] ?? null } };
}

/** An error in OpenAI's shape (shared by Chat Completions and Responses). */
export function openaiError(status: number, message: string, retryAfter?: number): Response {
  return jsonResponse(openaiErrorBody(status, message), status, retryAfter ? { 'retry-after': String(retryAfter) } : {});
}

/** Renders a scripted answer as a chat.completion or a chunk stream. */
export function renderChat(plan: Exclude<MockPlan, { kind: 'error' }>, turn: MockTurn, includeUsage: boolean): Response {
  const finish = plan.calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: plan.usage.input,
    completion_tokens: plan.usage.output,
    total_tokens: plan.usage.input + plan.usage.output,
    completion_tokens_details: { reasoning_tokens: plan.usage.reasoning },
  };
  // A custom tool is called with its raw input; a function with JSON arguments.
  const toolCalls = plan.calls.map((call) =>
    turn.freeformTools?.includes(call.name)
      ? { id: call.id, type: 'custom', custom: { name: call.name, input: call.args.input ?? '' } }
      : { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } },
  );
  const head = { id: 'chatcmpl-mock-1', created: 1_700_000_000, model: turn.model };
  if (!turn.stream) {
    const message = { role: 'assistant', content: plan.text ?? null, refusal: null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
    return jsonResponse({ ...head, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish, logprobs: null }], usage });
  }
  const chunk = (delta: object, finishReason: string | null = null) =>
    sse({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] });
  const events = [chunk({ role: 'assistant', content: '' })];
  if (plan.text !== undefined) for (const piece of chunksOf(plan.text)) events.push(chunk({ content: piece }));
  toolCalls.forEach((call, index) => {
    if (call.custom) {
      events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'custom', custom: { name: call.custom.name, input: '' } }] }));
      events.push(chunk({ tool_calls: [{ index, custom: { input: call.custom.input } }] }));
      return;
    }
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    events.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
  });
  events.push(chunk({}, finish));
  if (includeUsage) events.push(sse({ ...head, object: 'chat.completion.chunk', choices: [], usage }));
  events.push(sse('[DONE]'));
  return sseResponse(events);
}
