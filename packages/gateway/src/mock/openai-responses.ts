import { type MockPlan, type MockTurn, check, chunksOf, isObject, jsonResponse, mockSignature, sse, sseResponse } from './script.js';

/**
 * The OpenAI Responses side of the mock upstream, written from the protocol digest.
 * @see https://platform.openai.com/docs/api-reference/responses
 */

/** Validates a Responses request like the real API (store: false) and reads the turn the script needs. */
export function readResponsesTurn(body: unknown): MockTurn {
  check(isObject(body), 'We could not parse the JSON body of your request.');
  check(typeof body.model === 'string' && body.model, "Missing required parameter: 'model'.");
  const effort = isObject(body.reasoning) ? body.reasoning.effort : undefined;
  check(
    effort === undefined || effort === null || ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'].includes(String(effort)),
    `Invalid value: '${String(effort)}'. Supported values are: 'none', 'minimal', 'low', 'medium', 'high', and 'xhigh'.`,
  );
  const limit = body.max_output_tokens;
  check(
    limit === undefined || limit === null || (Number.isInteger(limit) && Number(limit) >= 16),
    `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${String(limit)} instead.`,
  );
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input;
  check(Array.isArray(input) && input.length > 0, "Missing required parameter: 'input'.");
  const calls = new Set<string>();
  input.forEach((item, i) => {
    check(isObject(item), `Invalid type for 'input[${i}]': expected an object.`);
    const type = item.type ?? 'message';
    if (type === 'function_call' || type === 'custom_tool_call') {
      check(typeof item.call_id === 'string', `Missing required parameter: 'input[${i}].call_id'.`);
      calls.add(item.call_id);
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      check(typeof item.call_id === 'string' && calls.has(item.call_id), `No tool call found for function call output with call_id ${String(item.call_id)}.`);
    } else if (type === 'reasoning') {
      check(
        typeof item.encrypted_content === 'string' && item.encrypted_content === mockSignature('openai-responses', String(item.id)),
        `Item '${String(item.id)}' of type 'reasoning' was provided without its required encrypted_content (or it could not be verified).`,
      );
    }
  });
  let tail = input.length;
  const isOutput = (item: unknown) => isObject(item) && (item.type === 'function_call_output' || item.type === 'custom_tool_call_output');
  while (tail > 0 && isOutput(input[tail - 1])) tail -= 1;
  const toolResults = input.slice(tail).map((item) => textOf((item as Record<string, unknown>).output));
  const lastUser = [...input].reverse().find((item) => isObject(item) && (item.type ?? 'message') === 'message' && item.role === 'user') as
    | Record<string, unknown>
    | undefined;
  const tools = Array.isArray(body.tools)
    ? body.tools
        .filter(isObject)
        .filter((t) => t.type === 'function')
        .map((t) => String(t.name))
    : [];
  return {
    model: body.model,
    stream: body.stream === true,
    lastUserText: toolResults.length > 0 ? '' : textOf(lastUser?.content),
    toolResults,
    toolNames: tools,
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

/** Renders a scripted answer as a Response object or its event stream. */
export function renderResponses(plan: Exclude<MockPlan, { kind: 'error' }>, turn: MockTurn): Response {
  const output: Record<string, unknown>[] = [];
  if (plan.thinking) {
    const id = 'rs_mock_1';
    output.push({
      type: 'reasoning',
      id,
      summary: [{ type: 'summary_text', text: plan.thinking.text }],
      encrypted_content: mockSignature('openai-responses', id),
    });
  }
  if (plan.text !== undefined) {
    output.push({
      type: 'message',
      id: 'msg_mock_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: plan.text, annotations: [] }],
    });
  }
  plan.calls.forEach((call, i) => {
    output.push({
      type: 'function_call',
      id: `fc_mock_${i + 1}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.args),
      status: 'completed',
    });
  });
  const usage = {
    input_tokens: plan.usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: plan.usage.output,
    output_tokens_details: { reasoning_tokens: plan.usage.reasoning },
    total_tokens: plan.usage.input + plan.usage.output,
  };
  const base = {
    id: 'resp_mock_1',
    object: 'response',
    created_at: 1_700_000_000,
    model: turn.model,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
  };
  const done = { ...base, status: 'completed', output, usage };
  if (!turn.stream) return jsonResponse(done);
  let seq = 0;
  const events: string[] = [];
  const emit = (type: string, payload: object) => events.push(sse({ type, sequence_number: seq++, ...payload }, type));
  emit('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  emit('response.in_progress', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  output.forEach((item, output_index) => {
    if (item.type === 'reasoning') {
      emit('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      const part = { type: 'summary_text', text: '' };
      emit('response.reasoning_summary_part.added', { item_id: item.id, output_index, summary_index: 0, part });
      const text = plan.thinking?.text ?? '';
      for (const delta of chunksOf(text)) emit('response.reasoning_summary_text.delta', { item_id: item.id, output_index, summary_index: 0, delta });
      emit('response.reasoning_summary_text.done', { item_id: item.id, output_index, summary_index: 0, text });
      emit('response.reasoning_summary_part.done', { item_id: item.id, output_index, summary_index: 0, part: { type: 'summary_text', text } });
    } else if (item.type === 'message') {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const empty = { type: 'output_text', text: '', annotations: [] };
      emit('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part: empty });
      const text = plan.text ?? '';
      for (const delta of chunksOf(text)) emit('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: { ...empty, text } });
    } else {
      emit('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      emit('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
    }
    emit('response.output_item.done', { output_index, item });
  });
  emit('response.completed', { response: done });
  return sseResponse(events);
}
