// @llm/core building blocks every codec leans on, as ratios to JSON.parse + JSON.stringify of the
// same bytes: SSE framing of 1,000 events, the stream accumulator over a 1,000-event answer, and
// the JSON Schema dialect conversions over 20 agent tools.
import { accumulateEvents, formatSseEvent, type LlmStreamEvent, toGeminiSchema, toOpenAIStrictSchema } from '@llm/core';
import type { BenchCase } from '../harness.js';
import { agentTools } from '../workloads.js';

/** A 1,000-event canonical answer: 900 text deltas, then one tool call in 93 argument fragments. */
function answerEvents(): LlmStreamEvent[] {
  const events: LlmStreamEvent[] = [{ type: 'start', id: 'resp_1', model: 'gpt-4.1' }, { type: 'block-start', index: 0, block: { kind: 'text' } }];
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
  return [
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
