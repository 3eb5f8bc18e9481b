// @llm/claude: request decode+encode (agent-shaped, 2 KB / 50 KB / 500 KB) and a 1,000-event
// stream decode+encode, as ratios to JSON.parse + JSON.stringify of the same bytes.
import { claude } from '@llm/claude';
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import type { BenchCase } from '../harness.js';
import { agentTools, type ArrivedEvent, loopTurns, REQUEST_SIZES, streamCase, systemPrompt } from '../workloads.js';

function request(bytes: number): string {
  const tools = bytes < 10_000 ? agentTools(2) : agentTools(20);
  const messages: unknown[] = [{ role: 'user', content: 'Fix the failing test in src/math.ts.' }];
  for (const turn of loopTurns(Math.max(0, bytes - 20_000))) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading the file.' },
        { type: 'tool_use', id: turn.id, name: turn.name, input: turn.args },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: turn.id, content: turn.result }] });
  }
  return JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 32000,
    system: [{ type: 'text', text: systemPrompt(Math.min(bytes / 2, 12_000)), cache_control: { type: 'ephemeral' } }],
    messages,
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
    stream: true,
  });
}

/** A 1,000-event stream (thinking, text, a tool call), as a JSON array of event payloads. */
function stream(): string {
  const events: unknown[] = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 900, output_tokens: 1 },
      },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  ];
  for (let index = 0; index < 300; index++)
    events.push({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: `step ${index} of the plan. ` } });
  events.push(
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM'.repeat(20) } },
    { type: 'content_block_stop', index: 0 },
  );
  events.push({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
  for (let index = 0; index < 590; index++) events.push({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: `word${index} ` } });
  events.push(
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} } },
  );
  for (let index = 0; index < 97; index++)
    events.push({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: index === 0 ? '{"command":"' : index === 96 ? '"}' : 'ls ' },
    });
  events.push(
    { type: 'content_block_stop', index: 2 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 700 } },
    { type: 'message_stop' },
  );
  return JSON.stringify(events);
}

/** Decodes and re-encodes a stream synchronously, event by event (what a bridge does per chunk). */
async function streamBench(wire: string): Promise<BenchCase> {
  const { createDecodeState, decodeStep } = await import('../../../../packages/claude/src/stream-decode.js');
  const { createEncodeState, encodeStep } = await import('../../../../packages/claude/src/stream-encode.js');
  const arrived = (JSON.parse(wire) as Array<{ type: string }>).map(
    (payload): ArrivedEvent => ({ event: payload.type, data: JSON.stringify(payload), id: undefined }),
  );
  return streamCase('claude stream 1,000 events decode+encode', arrived, () => {
    const decoded = createDecodeState();
    const encoded = createEncodeState();
    const sink = { enqueue: (_event: SseEvent) => undefined };
    const forward = { enqueue: (event: LlmStreamEvent) => encodeStep(encoded, event, sink) };
    return (event) => decodeStep(decoded, event, forward);
  });
}

export async function cases(): Promise<BenchCase[]> {
  const list: BenchCase[] = REQUEST_SIZES.map(([label, bytes]) => ({
    name: `claude request ${label} decode+encode`,
    wire: request(bytes),
    run: (text) => JSON.stringify(claude.request.encode(claude.request.decode(JSON.parse(text)))),
  }));
  list.push(await streamBench(stream()));
  return list;
}
