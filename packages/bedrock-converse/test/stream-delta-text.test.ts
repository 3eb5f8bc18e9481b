// Text, reasoning and tool-input deltas are written as JSON text built around one JSON.stringify
// of their strings (the encoder's hot path): the bytes must be exactly what JSON.stringify writes
// for the payload object, whatever the strings hold.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { createEncodeState, encodeEnd, encodeStep } from '../src/stream-encode.js';

/** Strings JSON must escape. */
const TRICKY = 'say "hi"\\ \n\t\u2028 \u{1F600} \uD800 </script>';

describe('contentBlockDelta events written as text', () => {
  const state = createEncodeState({});
  const sent: SseEvent[] = [];
  const out = { enqueue: (event: SseEvent) => void sent.push(event) };
  const events: LlmStreamEvent[] = [
    { type: 'start' },
    { type: 'block-start', index: 0, block: { kind: 'reasoning', signature: 'sig' } },
    { type: 'reasoning-delta', index: 0, text: TRICKY },
    { type: 'block-end', index: 0 },
    { type: 'block-start', index: 1, block: { kind: 'text' } },
    { type: 'text-delta', index: 1, text: TRICKY },
    { type: 'block-end', index: 1 },
    { type: 'block-start', index: 2, block: { kind: 'tool_call', id: 'tooluse_1', name: 'bash' } },
    { type: 'tool-args-delta', index: 2, json: `{"command":${JSON.stringify(TRICKY)}}` },
    { type: 'block-end', index: 2 },
    { type: 'finish', reason: 'tool_calls' },
  ];
  for (const event of events) encodeStep(state, event, out);
  encodeEnd(state, out);
  const deltas = sent.filter((event) => event.event === 'contentBlockDelta');

  it('writes every event as the exact bytes JSON.stringify gives its object', () => {
    for (const event of sent) expect(event.data).toBe(JSON.stringify(JSON.parse(event.data)));
  });

  it('writes the deltas with their exact payloads', () => {
    expect(deltas.map((event) => event.data)).toEqual([
      JSON.stringify({ contentBlockIndex: 0, delta: { reasoningContent: { text: TRICKY } } }),
      JSON.stringify({ contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } }),
      JSON.stringify({ contentBlockIndex: 1, delta: { text: TRICKY } }),
      JSON.stringify({ contentBlockIndex: 2, delta: { toolUse: { input: `{"command":${JSON.stringify(TRICKY)}}` } } }),
    ]);
  });
});
