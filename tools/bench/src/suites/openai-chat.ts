// @llm/openai-chat: request decode+encode (agent-shaped, 2 KB / 50 KB / 500 KB) and a
// 1,000-chunk stream decode+encode, as ratios to JSON.parse + JSON.stringify of the same bytes.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { createDecodeState, createEncodeState, decodeStep, encodeStep, openaiChat } from '@llm/openai-chat';
import type { BenchCase } from '../harness.js';
import { agentTools, type ArrivedEvent, loopTurns, REQUEST_SIZES, streamCase, systemPrompt } from '../workloads.js';

function request(bytes: number): string {
  const tools = bytes < 10_000 ? agentTools(2) : agentTools(20);
  const messages: unknown[] = [
    { role: 'system', content: systemPrompt(Math.min(bytes / 2, 12_000)) },
    { role: 'user', content: 'Fix the failing test in src/math.ts.' },
  ];
  for (const turn of loopTurns(Math.max(0, bytes - 20_000))) {
    messages.push({
      role: 'assistant',
      content: 'Reading the file.',
      tool_calls: [{ id: turn.id, type: 'function', function: { name: turn.name, arguments: JSON.stringify(turn.args) } }],
    });
    messages.push({ role: 'tool', tool_call_id: turn.id, content: turn.result });
  }
  return JSON.stringify({
    model: 'gpt-4.1',
    messages,
    tools: tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    stream: true,
    stream_options: { include_usage: true },
  });
}

function chunks(): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4.1',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const list: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (let index = 0; index < 900; index++) list.push(chunk({ content: `word${index} ` }));
  list.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'bash', arguments: '' } }] }));
  for (let index = 0; index < 97; index++)
    list.push(chunk({ tool_calls: [{ index: 0, function: { arguments: index === 0 ? '{"command":"' : index === 96 ? '"}' : 'ls ' } }] }));
  list.push(chunk({}, 'tool_calls'));
  return list;
}

export function cases(): BenchCase[] {
  const list: BenchCase[] = REQUEST_SIZES.map(([label, bytes]) => ({
    name: `openai-chat request ${label} decode+encode`,
    wire: request(bytes),
    run: (text) => JSON.stringify(openaiChat.request.encode(openaiChat.request.decode(JSON.parse(text)))),
  }));
  const arrived = chunks().map((payload): ArrivedEvent => ({ event: undefined, data: JSON.stringify(payload), id: undefined }));
  list.push(
    streamCase('openai-chat stream 1,000 chunks decode+encode', arrived, () => {
      const decoded = createDecodeState();
      const encoded = createEncodeState({ id: 'chatcmpl-1' });
      const sink = { enqueue: (_event: SseEvent) => undefined };
      const forward = { enqueue: (event: LlmStreamEvent) => encodeStep(encoded, event, sink) };
      return (event) => decodeStep(decoded, event, forward);
    }),
  );
  return list;
}
