// @llm/core building blocks every codec leans on, as ratios to JSON.parse + JSON.stringify of the
// same bytes: SSE framing of 1,000 events, the stream accumulator over a 1,000-event answer, and
// the JSON Schema dialect conversions over 20 agent tools, and parseJson (JSON.parse plus the
// MAX_JSON_DEPTH check every client body and upstream event goes through).
import { accumulateEvents, formatSseEvent, type LlmStreamEvent, parseJson, toGeminiSchema, toOpenAIStrictSchema } from '@llm/core';
import type { BenchCase } from '../harness.js';
import { agentTools, loopTurns, systemPrompt } from '../workloads.js';

/** A Chat Completions agent request of about `bytes`: system prompt, tools, a tool loop. */
function chatRequest(bytes: number): string {
  const messages: unknown[] = [
    { role: 'system', content: systemPrompt(Math.min(1_000, bytes / 2)) },
    { role: 'user', content: 'Fix the failing test.' },
  ];
  for (const turn of loopTurns(Math.max(0, bytes - 1_500))) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: turn.id, type: 'function', function: { name: turn.name, arguments: JSON.stringify(turn.args) } }],
    });
    messages.push({ role: 'tool', tool_call_id: turn.id, content: turn.result });
  }
  const tools = bytes > 10_000 ? agentTools(20).map((tool) => ({ type: 'function', function: tool })) : undefined;
  return JSON.stringify({ model: 'gpt-4.1', messages, tools, stream: true });
}

/** A 1,000-event canonical answer: 900 text deltas, then one tool call in 93 argument fragments. */
function answerEvents(): LlmStreamEvent[] {
  const events: LlmStreamEvent[] = [
    { type: 'start', id: 'resp_1', model: 'gpt-4.1' },
    { type: 'block-start', index: 0, block: { kind: 'text' } },
  ];
  for (let index = 0; index < 900; index++) events.push({ type: 'text-delta', index: 0, text: `word${index} ` });
  events.push({ type: 'block-end', index: 0 }, { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_1', name: 'bash' } });
  for (let index = 0; index < 93; index++) events.push({ type: 'tool-args-delta', index: 1, json: index === 0 ? '{"command":"' : index === 92 ? '"}' : 'ls ' });
  events.push({ type: 'block-end', index: 1 }, { type: 'usage', usage: { inputTokens: 1200, outputTokens: 950 } }, { type: 'finish', reason: 'tool_calls' });
  return events;
}

export function cases(): BenchCase[] {
  const events = answerEvents();
  const datas = events.map((event) => JSON.stringify(event));
  const tools = agentTools(20).map((tool) => tool.parameters);
  const perEventFloor = (): unknown => {
    let bytes = 0;
    for (const data of datas) bytes += JSON.stringify(JSON.parse(data)).length;
    return bytes;
  };
  const parseCases = [chatRequest(2_000), chatRequest(30_000)].map(
    (wire): BenchCase => ({
      name: `core parseJson (depth-checked) request ${Math.round(wire.length / 1000)} KB`,
      wire,
      // A fresh parse each time: parseJson remembers values it already checked.
      run: (text) => JSON.stringify(parseJson(text)),
    }),
  );
  return [
    ...parseCases,
    {
      name: `core SSE framing ${datas.length} events`,
      wire: `[${datas.join(',')}]`,
      baseline: perEventFloor,
      run: () => {
        let bytes = 0;
        for (const data of datas) bytes += formatSseEvent({ event: 'message', data, id: '' }).length;
        return bytes;
      },
    },
    {
      name: `core accumulateEvents ${events.length} events`,
      wire: `[${datas.join(',')}]`,
      baseline: perEventFloor,
      run: () => accumulateEvents(events),
    },
    {
      name: 'core toOpenAIStrictSchema 20 tools',
      wire: JSON.stringify(tools),
      run: (text) => JSON.stringify((JSON.parse(text) as Record<string, unknown>[]).map((schema) => toOpenAIStrictSchema(schema))),
    },
    {
      name: 'core toGeminiSchema 20 tools',
      wire: JSON.stringify(tools),
      run: (text) => JSON.stringify((JSON.parse(text) as Record<string, unknown>[]).map((schema) => toGeminiSchema(schema))),
    },
  ];
}
