// The synchronous stream steps every codec exposes under the same names and argument order
// (state, input, out): what a bridge runs per chunk, and what the codec bench drives directly.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { collect, streamOf } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { claude } from '../src/index.js';
import { createDecodeState, decodeEnd, decodeStep } from '../src/stream-decode.js';
import { createEncodeState, encodeEnd, encodeStep } from '../src/stream-encode.js';

const sse = (data: Record<string, unknown>): SseEvent => ({ event: data.type as string, data: JSON.stringify(data), id: undefined });

const wire: SseEvent[] = [
  sse({
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 0 },
    },
  }),
  { event: 'ping', data: '{"type":"ping"}', id: undefined },
  sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
  sse({ type: 'content_block_stop', index: 0 }),
  sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
  sse({ type: 'message_stop' }),
];

/** A step's `out`: collects what it enqueues. */
const into = <T>(list: T[]) => ({ enqueue: (item?: T) => void (item !== undefined && list.push(item)) });

describe('stream steps', () => {
  it('decodeStep / decodeEnd and encodeStep / encodeEnd give what the stream transforms give', async () => {
    const decoded: LlmStreamEvent[] = [];
    const decodeState = createDecodeState({});
    for (const event of wire) decodeStep(decodeState, event, into(decoded));
    decodeEnd(decodeState, into(decoded));
    expect(decoded).toEqual(await collect(streamOf(wire).pipeThrough(claude.stream.decode())));
    expect(decoded.map((event) => event.type)).toEqual(['start', 'usage', 'block-start', 'text-delta', 'block-end', 'finish']);

    const encoded: SseEvent[] = [];
    const encodeState = createEncodeState({ id: 'msg_1' });
    for (const event of decoded) encodeStep(encodeState, event, into(encoded));
    encodeEnd(encodeState, into(encoded));
    expect(encoded).toEqual(await collect(streamOf(decoded).pipeThrough(claude.stream.encode({ id: 'msg_1' }))));
    expect(encoded.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });
});
