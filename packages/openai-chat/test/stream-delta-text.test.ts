// Deltas are written as JSON text built around one JSON.stringify of their strings (the encoder's
// hot path): the bytes must be exactly what JSON.stringify writes for the chunk object, whatever
// the strings hold.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { createEncodeState, encodeEnd, encodeStep } from '../src/stream-encode.js';

/** Strings JSON must escape, and the text the encoder splits its envelope at. */
const TRICKY = 'say "hi"\\ \n\t\u2028 \u{1F600} \uD800 "choices":[] </script>';

function encode(events: LlmStreamEvent[]): string[] {
  const state = createEncodeState({});
  const data: string[] = [];
  const out = { enqueue: (event: SseEvent) => void data.push(event.data) };
  for (const event of events) encodeStep(state, event, out);
  encodeEnd(state, out);
  return data;
}

describe('delta chunks written as text', () => {
  const events: LlmStreamEvent[] = [
    {
      type: 'start',
      id: `chatcmpl-${TRICKY}`,
      model: `m${TRICKY}`,
      created: 7,
      serviceTier: 'default',
      extensions: { 'openai-chat': { system_fingerprint: 'fp_"1"' } },
    },
    { type: 'block-start', index: 0, block: { kind: 'text' } },
    { type: 'text-delta', index: 0, text: TRICKY },
    { type: 'block-end', index: 0 },
    { type: 'block-start', index: 1, block: { kind: 'reasoning' } },
    { type: 'reasoning-delta', index: 1, text: TRICKY },
    { type: 'block-end', index: 1 },
    { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'call_1', name: 'bash' } },
    { type: 'tool-args-delta', index: 2, json: `{"command":${JSON.stringify(TRICKY)}}` },
    { type: 'block-end', index: 2 },
    { type: 'block-start', index: 3, block: { kind: 'tool_call', id: 'call_2', name: 'patch', freeform: true } },
    { type: 'tool-args-delta', index: 3, json: TRICKY },
    { type: 'block-end', index: 3 },
    { type: 'finish', reason: 'tool_calls' },
  ];
  const data = encode(events);
  const envelope = { id: `chatcmpl-${TRICKY}`, object: 'chat.completion.chunk', created: 7, model: `m${TRICKY}` };
  const tail = { service_tier: 'default', system_fingerprint: 'fp_"1"' };
  const chunk = (delta: Record<string, unknown>) => ({ ...envelope, choices: [{ index: 0, delta, finish_reason: null }], ...tail });

  it('writes every chunk as the exact bytes JSON.stringify gives its object', () => {
    for (const text of data) if (text !== '[DONE]') expect(text).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('writes the delta chunks with their exact payloads', () => {
    expect(data.slice(0, 5).map((text) => JSON.parse(text))).toEqual([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: TRICKY }),
      chunk({ reasoning_content: TRICKY }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'bash', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: `{"command":${JSON.stringify(TRICKY)}}` } }] }),
    ]);
    expect(JSON.parse(data[6]!)).toEqual(chunk({ tool_calls: [{ index: 1, custom: { input: TRICKY } }] }));
  });

  it('starts a new envelope when a second start changes the id', () => {
    const again = encode([
      { type: 'start', id: 'chatcmpl-a', model: 'm', created: 1 },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'x' },
      { type: 'start', id: 'chatcmpl-b', model: 'n', created: 2 },
      { type: 'text-delta', index: 0, text: 'y' },
    ]);
    expect(again.slice(1, 3)).toEqual([
      '{"id":"chatcmpl-a","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}',
      '{"id":"chatcmpl-b","object":"chat.completion.chunk","created":2,"model":"n","choices":[{"index":0,"delta":{"content":"y"},"finish_reason":null}]}',
    ]);
  });
});
