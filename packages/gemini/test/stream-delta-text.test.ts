// Text and thought chunks are written as JSON text built around one JSON.stringify of their
// strings (the encoder's hot path): the bytes must be exactly what JSON.stringify writes for the
// chunk object, whatever the strings hold.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { createEncodeState, encodeEnd, encodeStep } from '../src/stream-encode.js';

/** Strings JSON must escape. */
const TRICKY = 'say "hi"\\ \n\t\u2028 \u{1F600} \uD800 </script>';

function encode(events: LlmStreamEvent[]): string[] {
  const state = createEncodeState({});
  const data: string[] = [];
  const out = { enqueue: (event: SseEvent) => void data.push(event.data) };
  for (const event of events) encodeStep(state, event, out);
  encodeEnd(state, out);
  return data;
}

const candidate = (part: Record<string, unknown>, index = 0) => ({ content: { parts: [part], role: 'model' }, index });

describe('text chunks written as text', () => {
  it('writes every chunk as the exact bytes JSON.stringify gives its object, with the exact payload', () => {
    const data = encode([
      { type: 'start', id: `resp-${TRICKY}`, model: `m${TRICKY}` },
      { type: 'block-start', index: 0, block: { kind: 'reasoning' } },
      { type: 'reasoning-delta', index: 0, text: TRICKY },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'text' }, choice: 1 },
      { type: 'text-delta', index: 1, text: TRICKY },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'stop', choice: 1 },
    ]);
    for (const text of data) expect(text).toBe(JSON.stringify(JSON.parse(text)));
    const tail = { modelVersion: `m${TRICKY}`, responseId: `resp-${TRICKY}` };
    expect(data.slice(0, 2).map((text) => JSON.parse(text))).toEqual([
      { candidates: [candidate({ text: TRICKY, thought: true })], ...tail },
      { candidates: [candidate({ text: TRICKY }, 1)], ...tail },
    ]);
  });

  it('without a start, a chunk has no model version or response id', () => {
    const data = encode([
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'a' },
    ]);
    expect(data[0]).toBe('{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"},"index":0}]}');
  });

  it('a later start changes what the next chunks carry', () => {
    const data = encode([
      { type: 'start', id: 'r1', model: 'm1' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'a' },
      { type: 'start', model: 'm2' },
      { type: 'text-delta', index: 0, text: 'b' },
    ]);
    expect(data.slice(0, 2)).toEqual([
      '{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"},"index":0}],"modelVersion":"m1","responseId":"r1"}',
      '{"candidates":[{"content":{"parts":[{"text":"b"}],"role":"model"},"index":0}],"modelVersion":"m2","responseId":"r1"}',
    ]);
  });

  it('the start fields of the Gemini bag still go on the first chunk', () => {
    const data = encode([
      { type: 'start', id: 'r1', model: 'm1', extensions: { gemini: { promptFeedback: { safetyRatings: [] } } } },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'a' },
      { type: 'text-delta', index: 0, text: 'b' },
    ]);
    expect(data.slice(0, 2)).toEqual([
      '{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"},"index":0}],"promptFeedback":{"safetyRatings":[]},"modelVersion":"m1","responseId":"r1"}',
      '{"candidates":[{"content":{"parts":[{"text":"b"}],"role":"model"},"index":0}],"modelVersion":"m1","responseId":"r1"}',
    ]);
  });
});
