// REGRESSIONS.md entries about this codec's own wire handling (numbers as in that file).
import { accumulateEvents, type LlmStreamEvent } from '@llm/core';
import { runTransform } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiChat } from '../src/index.js';

const P = 'openai-chat';
const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] });
const decodeStream = async (payloads: unknown[]) =>
  runTransform<unknown, LlmStreamEvent>(
    openaiChat.stream.decode(),
    payloads.map((payload) => ({ data: JSON.stringify(payload) })),
  );

describe('regressions', () => {
  it('#29 DeepSeek reasoning_content after tool calls is read and written back on the assistant message', () => {
    const body = {
      model: 'deepseek-reasoner',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: '',
          reasoning_content: 'Need the tool.',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'w', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'sunny' },
      ],
    };
    const decoded = openaiChat.request.decode(structuredClone(body));
    expect(decoded.messages[1]?.content.map((part) => part.type)).toEqual(['reasoning', 'text', 'tool-call']);
    expect(openaiChat.request.encode(decoded)).toEqual(body);
  });

  it('#30/#36 reasoning then parallel tool calls: repeated id and name start no second block, the last fragment rides the finish chunk', async () => {
    const events = await decodeStream([
      chunk({ role: 'assistant', reasoning_content: 'think' }),
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '{"x"' } }] }),
      chunk({
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: ':1' } },
          { index: 1, id: 'b', type: 'function', function: { name: 'f', arguments: '{}' } },
        ],
      }),
      { ...head, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '}' } }] }, finish_reason: 'tool_calls' }] },
    ]);
    expect(events).toEqual([
      { type: 'start', id: 'chatcmpl-1', model: 'm', created: 1 },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', origin: { protocol: P } } },
      { type: 'reasoning-delta', index: 0, text: 'think' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'a', name: 'f' } },
      { type: 'tool-args-delta', index: 1, json: '{"x"' },
      { type: 'tool-args-delta', index: 1, json: ':1' },
      { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'b', name: 'f' } },
      { type: 'tool-args-delta', index: 2, json: '{}' },
      { type: 'tool-args-delta', index: 1, json: '}' },
      { type: 'block-end', index: 1 },
      { type: 'block-end', index: 2 },
      { type: 'finish', reason: 'tool_calls', rawReason: 'tool_calls' },
    ]);
    expect(accumulateEvents(events).choices[0]?.content).toEqual([
      { type: 'reasoning', text: 'think', origin: { protocol: P } },
      { type: 'tool-call', id: 'a', name: 'f', arguments: '{"x":1}' },
      { type: 'tool-call', id: 'b', name: 'f', arguments: '{}' },
    ]);
  });

  it('#39 assistant text next to tool_calls is kept, each call once', () => {
    const body = {
      model: 'm',
      messages: [
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } },
          ],
        },
      ],
    };
    const decoded = openaiChat.request.decode(structuredClone(body));
    expect(decoded.messages[0]?.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', id: 'a', name: 'f', arguments: '{}' },
      { type: 'tool-call', id: 'b', name: 'g', arguments: '{}' },
    ]);
    expect(openaiChat.request.encode(decoded)).toEqual(body);
  });
});
