// @llm/gemini: request decode+encode (agent-shaped, 2 KB / 50 KB / 500 KB) and a 1,000-chunk
// stream decode+encode, as ratios to JSON.parse + JSON.stringify of the same bytes.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { gemini } from '@llm/gemini';
import type { BenchCase } from '../harness.js';
import { agentTools, type ArrivedEvent, loopTurns, REQUEST_SIZES, streamCase, systemPrompt } from '../workloads.js';

function request(bytes: number): string {
  const tools = bytes < 10_000 ? agentTools(2) : agentTools(20);
  const contents: unknown[] = [{ role: 'user', parts: [{ text: 'Fix the failing test in src/math.ts.' }] }];
  for (const turn of loopTurns(Math.max(0, bytes - 20_000))) {
    contents.push({
      role: 'model',
      parts: [{ text: 'Reading the file.' }, { functionCall: { name: turn.name, args: turn.args, id: turn.id }, thoughtSignature: 'CiQBjz1rX'.repeat(8) }],
    });
    contents.push({ role: 'user', parts: [{ functionResponse: { name: turn.name, id: turn.id, response: { output: turn.result } } }] });
  }
  return JSON.stringify({
    systemInstruction: { parts: [{ text: systemPrompt(Math.min(bytes / 2, 12_000)) }] },
    contents,
    tools: [{ functionDeclarations: tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }],
    generationConfig: { maxOutputTokens: 8192, thinkingConfig: { includeThoughts: true, thinkingBudget: 4096 } },
  });
}

/** 1,000 chunks (thoughts, text, a call), as a JSON array of chunk payloads. */
function chunks(): unknown[] {
  const wrap = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
    usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 5, totalTokenCount: 905 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp-bench',
  });
  const list: unknown[] = [];
  for (let index = 0; index < 300; index++) list.push(wrap([{ text: `step ${index} of the plan. `, thought: true }]));
  for (let index = 0; index < 698; index++) list.push(wrap([{ text: `word${index} ` }]));
  list.push(wrap([{ functionCall: { name: 'bash', args: { command: 'ls -la' } }, thoughtSignature: 'CiQBjz1rX'.repeat(20) }]));
  list.push(wrap([{ text: '' }], { finishReason: 'STOP' }));
  return list;
}

async function streamBench(): Promise<BenchCase> {
  const { createDecodeState, decodeStep } = await import('../../../../packages/gemini/src/stream-decode.js');
  const { createEncodeState, encodeStep } = await import('../../../../packages/gemini/src/stream-encode.js');
  const arrived = chunks().map((payload): ArrivedEvent => ({ event: undefined, data: JSON.stringify(payload), id: undefined }));
  return streamCase('gemini stream 1,000 chunks decode+encode', arrived, () => {
    const decoded = createDecodeState();
    const encoded = createEncodeState();
    const sink = { enqueue: (_event: SseEvent) => undefined };
    const forward = { enqueue: (event: LlmStreamEvent) => encodeStep(encoded, event, sink) };
    return (event) => decodeStep(decoded, event, forward);
  });
}

export async function cases(): Promise<BenchCase[]> {
  const list: BenchCase[] = REQUEST_SIZES.map(([label, bytes]) => ({
    name: `gemini request ${label} decode+encode`,
    wire: request(bytes),
    run: (text) => JSON.stringify(gemini.request.encode(gemini.request.decode(JSON.parse(text), { model: 'gemini-2.5-flash' }))),
  }));
  list.push(await streamBench());
  return list;
}
