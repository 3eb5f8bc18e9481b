import { type MockPlan, type MockTurn, check, chunksOf, isObject, jsonResponse, mockSignature, sse, sseResponse } from './script.js';

/**
 * The Claude (Anthropic Messages) side of the mock upstream, written from the protocol digest
 * (not from @llm/claude) so it judges the codecs independently.
 * @see https://docs.anthropic.com/en/api/messages
 */

/**
 * Sampling as the API bounds it (temperature 0 to 1; beside thinking, see checkBesideThinking),
 * and a manual thinking budget as the API bounds it: at least 1024 tokens, and below `max_tokens`
 * (thinking counts towards it). With tools the budget may exceed `max_tokens` (interleaved
 * thinking spans the turn's thinking blocks), so that rule is checked without tools only.
 */
function checkSamplingAndThinking(body: Record<string, unknown>, countTokens: boolean): void {
  const thinking = body.thinking;
  if (typeof body.temperature === 'number') check(body.temperature >= 0 && body.temperature <= 1, 'temperature: range: 0..1');
  // As current Claude models (Sonnet 4.5 and later) do.
  check(body.temperature === undefined || body.top_p === undefined, '`temperature` and `top_p` cannot both be specified for this model. Please use only one.');
  if (isObject(thinking) && (thinking.type === 'enabled' || thinking.type === 'adaptive')) checkBesideThinking(body);
  if (!isObject(thinking) || thinking.type !== 'enabled') return;
  const budget = thinking.budget_tokens;
  check(Number.isInteger(budget), 'thinking.enabled.budget_tokens: Field required');
  check(Number(budget) >= 1024, 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  check(
    countTokens || hasTools || Number(body.max_tokens) > Number(budget),
    '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
  );
}

/** What Claude refuses beside thinking: sampling changes (temperature other than 1, top_k, top_p below 0.95) and forced tool use. */
function checkBesideThinking(body: Record<string, unknown>): void {
  const choice = body.tool_choice;
  check(!isObject(choice) || (choice.type !== 'any' && choice.type !== 'tool'), 'Thinking may not be enabled when tool_choice forces tool use.');
  check(
    body.temperature === undefined || body.temperature === 1,
    '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#important-considerations-when-using-extended-thinking',
  );
  check(body.top_k === undefined, '`top_k` may not be set when thinking is enabled');
  check(body.top_p === undefined || Number(body.top_p) >= 0.95, '`top_p` must be between 0.95 and 1 when thinking is enabled');
}

/** Validates a Messages request like the real API and reads the turn the script needs. */
export function readClaudeTurn(body: unknown, countTokens = false): MockTurn {
  check(isObject(body), 'body: expected an object');
  check(typeof body.model === 'string' && body.model, 'model: Field required');
  check(countTokens || typeof body.max_tokens === 'number', 'max_tokens: Field required');
  if (!countTokens) check(Number.isInteger(body.max_tokens) && Number(body.max_tokens) >= 1, 'max_tokens: Input should be greater than or equal to 1');
  checkSamplingAndThinking(body, countTokens);
  const messages = body.messages;
  check(Array.isArray(messages) && messages.length > 0, 'messages: Field required');
  let previous: string | undefined;
  let pendingIds: string[] = [];
  messages.forEach((message, i) => {
    check(isObject(message), `messages.${i}: expected an object`);
    const role = message.role;
    check(role === 'user' || role === 'assistant', `messages.${i}.role: Input should be 'user' or 'assistant'`);
    check(i > 0 || role === 'user', 'messages.0.role: first message must use the "user" role');
    check(role !== previous, `messages.${i}: roles must alternate between "user" and "assistant"`);
    previous = role;
    const blocks = typeof message.content === 'string' ? [] : message.content;
    check(Array.isArray(blocks), `messages.${i}.content: expected a string or an array`);
    if (role === 'user') {
      let seenOther = false;
      const answered: string[] = [];
      blocks.forEach((block, j) => {
        check(isObject(block), `messages.${i}.content.${j}: expected an object`);
        if (block.type === 'tool_result') {
          check(!seenOther, `messages.${i}.content.${j}: tool_result blocks must come first in the user message`);
          check(typeof block.tool_use_id === 'string', `messages.${i}.content.${j}.tool_use_id: Field required`);
          answered.push(block.tool_use_id);
        } else {
          seenOther = true;
        }
      });
      for (const id of answered) {
        check(
          pendingIds.includes(id),
          `messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
      for (const id of pendingIds) {
        check(answered.includes(id), `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}`);
      }
      pendingIds = [];
    } else {
      pendingIds = [];
      blocks.forEach((block, j) => {
        check(isObject(block), `messages.${i}.content.${j}: expected an object`);
        if (block.type === 'tool_use') {
          check(typeof block.id === 'string' && isObject(block.input), `messages.${i}.content.${j}: tool_use needs id and input object`);
          pendingIds.push(block.id);
        }
        if (block.type === 'thinking') {
          check(
            typeof block.signature === 'string' && block.signature === mockSignature('claude', String(block.thinking)),
            `messages.${i}.content.${j}.signature: Invalid \`signature\` in \`thinking\` block`,
          );
        }
      });
    }
  });
  check(pendingIds.length === 0 || previous === 'assistant', 'messages: tool_use without tool_result');
  const last = messages[messages.length - 1] as Record<string, unknown>;
  check(last.role === 'user', 'messages: the last message must be a user message (no prefill in the mock)');
  const content = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : (last.content as Record<string, unknown>[]);
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject).map((tool) => String(tool.name)) : [];
  return {
    model: body.model,
    stream: body.stream === true,
    lastUserText: content
      .filter((b) => b.type === 'text')
      .map((b) => String(b.text))
      .join('\n'),
    toolResults: content.filter((b) => b.type === 'tool_result').map((b) => resultText(b.content)),
    toolNames: tools,
  };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .filter(isObject)
      .map((b) => (b.type === 'text' ? String(b.text) : `[${String(b.type)}]`))
      .join('');
  return '';
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** An error body in Claude's shape. */
export function claudeErrorBody(status: number, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } };
}

/** An error in Claude's shape. */
export function claudeError(status: number, message: string, retryAfter?: number): Response {
  return jsonResponse(claudeErrorBody(status, message), status, retryAfter ? { 'retry-after': String(retryAfter) } : {});
}

/** Renders a scripted answer as a Messages response or stream. */
export function renderClaude(plan: Exclude<MockPlan, { kind: 'error' }>, turn: MockTurn): Response {
  const content: Record<string, unknown>[] = [];
  if (plan.thinking) content.push({ type: 'thinking', thinking: plan.thinking.text, signature: plan.thinking.signature });
  if (plan.text !== undefined) content.push({ type: 'text', text: plan.text });
  for (const call of plan.calls) content.push({ type: 'tool_use', id: `toolu_${call.id}`, name: call.name, input: call.args });
  const stopReason = plan.calls.length > 0 ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: plan.usage.input, output_tokens: plan.usage.output };
  const message = { id: 'msg_mock_1', type: 'message', role: 'assistant', model: turn.model, content, stop_reason: stopReason, stop_sequence: null, usage };
  if (!turn.stream) return jsonResponse(message);
  const events = [
    sse(
      { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } },
      'message_start',
    ),
  ];
  content.forEach((block, index) => {
    const add = (type: string, payload: object) => events.push(sse({ type, index, ...payload }, type));
    if (block.type === 'thinking') {
      add('content_block_start', { content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const piece of chunksOf(String(block.thinking))) add('content_block_delta', { delta: { type: 'thinking_delta', thinking: piece } });
      add('content_block_delta', { delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      add('content_block_start', { content_block: { type: 'text', text: '' } });
      for (const piece of chunksOf(String(block.text))) add('content_block_delta', { delta: { type: 'text_delta', text: piece } });
    } else {
      add('content_block_start', { content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      const json = JSON.stringify(block.input);
      const cut = Math.floor(json.length / 2);
      for (const piece of [json.slice(0, cut), json.slice(cut)]) add('content_block_delta', { delta: { type: 'input_json_delta', partial_json: piece } });
    }
    add('content_block_stop', {});
  });
  events.push(
    sse({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, 'message_delta'),
  );
  events.push(sse({ type: 'message_stop' }, 'message_stop'));
  return sseResponse(events);
}
