// @llm/openai-responses: request decode+encode (agent-shaped, 2 KB / 50 KB / 500 KB) and a
// 1,000-event stream decode+encode, as ratios to JSON.parse + JSON.stringify of the same bytes.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { openaiResponses } from '@llm/openai-responses';
import type { BenchCase } from '../harness.js';
import { agentTools, type ArrivedEvent, loopTurns, REQUEST_SIZES, streamCase, systemPrompt } from '../workloads.js';

function request(bytes: number): string {
  const tools = bytes < 10_000 ? agentTools(2) : agentTools(20);
  const input: unknown[] = [{ role: 'user', content: [{ type: 'input_text', text: 'Fix the failing test in src/math.ts.' }] }];
  for (const turn of loopTurns(Math.max(0, bytes - 20_000))) {
    input.push({ type: 'function_call', call_id: turn.id, name: turn.name, arguments: JSON.stringify(turn.args) });
    input.push({ type: 'function_call_output', call_id: turn.id, output: turn.result });
  }
  return JSON.stringify({
    model: 'gpt-5',
    instructions: systemPrompt(Math.min(bytes / 2, 12_000)),
    input,
    tools: tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false })),
    stream: true,
  });
}

function events(): unknown[] {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) => ({ type, sequence_number: sequence++, ...fields });
  const response = { id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-5', output: [] };
  const list: unknown[] = [event('response.created', { response }), event('response.in_progress', { response })];
  const message = { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] };
  list.push(event('response.output_item.added', { output_index: 0, item: message }));
  list.push(
    event('response.content_part.added', { output_index: 0, content_index: 0, item_id: 'msg_1', part: { type: 'output_text', text: '', annotations: [] } }),
  );
  let text = '';
  for (let index = 0; index < 990; index++) {
    text += `word${index} `;
    list.push(event('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'msg_1', delta: `word${index} `, logprobs: [] }));
  }
  list.push(event('response.output_text.done', { output_index: 0, content_index: 0, item_id: 'msg_1', text, logprobs: [] }));
  const part = { type: 'output_text', text, annotations: [] };
  list.push(event('response.content_part.done', { output_index: 0, content_index: 0, item_id: 'msg_1', part }));
  const done = { ...message, status: 'completed', content: [part] };
  list.push(event('response.output_item.done', { output_index: 0, item: done }));
  list.push(
    event('response.completed', {
      response: {
        ...response,
        status: 'completed',
        output: [done],
        usage: {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 990,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 1000,
        },
      },
    }),
  );
  return list;
}

export async function cases(): Promise<BenchCase[]> {
  const { createDecodeState, decodeStep } = await import('../../../../packages/openai-responses/src/stream-decode.js');
  const { createEncodeState, encodeStep } = await import('../../../../packages/openai-responses/src/stream-encode.js');
  const list: BenchCase[] = REQUEST_SIZES.map(([label, bytes]) => ({
    name: `openai-responses request ${label} decode+encode`,
    wire: request(bytes),
    run: (text) => JSON.stringify(openaiResponses.request.encode(openaiResponses.request.decode(JSON.parse(text)))),
  }));
  const arrived = events().map((payload): ArrivedEvent => ({ event: (payload as { type: string }).type, data: JSON.stringify(payload), id: undefined }));
  list.push(
    streamCase('openai-responses stream 1,000 events decode+encode', arrived, () => {
      const decoded = createDecodeState();
      const encoded = createEncodeState();
      const sink = { enqueue: (_event: SseEvent) => undefined };
      const forward = { enqueue: (event: LlmStreamEvent) => encodeStep(encoded, event, sink) };
      return (event) => decodeStep(decoded, event, forward);
    }),
  );
  return list;
}
