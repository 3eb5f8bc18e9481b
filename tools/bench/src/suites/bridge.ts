// @llm/router: the added cost of a bridge (request fixes, tool adaptation, opaque-state opening,
// policies) over the bare codecs (client decode + upstream encode) for the same request. The
// ratio here is bridge / bare codecs, not against JSON.
import { claude } from '@llm/claude';
import type { Codec } from '@llm/core';
import { openaiChat } from '@llm/openai-chat';
import type { BenchCase } from '../harness.js';
import { agentTools, loopTurns, systemPrompt } from '../workloads.js';

function claudeRequest(bytes: number): string {
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
  const tools = agentTools(20).map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  return JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 32000, system: systemPrompt(12_000), messages, tools, stream: true });
}

export async function cases(): Promise<BenchCase[]> {
  const { bridge } = await import('../../../../packages/router/src/index.js');
  const pairs: Array<[string, Codec, Codec]> = [['claude -> openai-chat', claude as Codec, openaiChat as Codec]];
  const list: BenchCase[] = [];
  for (const [label, client, upstream] of pairs) {
    const via = bridge({ client, upstream });
    for (const [size, bytes] of [
      ['50 KB', 50_000],
      ['500 KB', 500_000],
    ] as const) {
      const wire = claudeRequest(bytes);
      list.push({
        name: `bridge ${label} request ${size} (vs bare codecs)`,
        wire,
        baseline: () => JSON.stringify(upstream.request.encode(client.request.decode(JSON.parse(wire)))),
        run: (text) => JSON.stringify(via.request(JSON.parse(text)).body),
      });
    }
  }
  return list;
}
