// Delta events are written as JSON text built around one JSON.stringify of their strings (the
// encoder's hot path): the bytes must be exactly what JSON.stringify writes for the event object,
// whatever the strings hold.
import type { LlmStreamEvent, SseEvent } from '@llm/core';
import { describe, expect, it } from 'vitest';
import { createEncodeState, encodeEnd, encodeStep } from '../src/stream-encode.js';

/** Strings JSON must escape. */
const TRICKY = 'say "hi"\\ \n\t\u2028 \u{1F600} \uD800 </script>';

describe('delta events written as text', () => {
  const state = createEncodeState({});
  const sent: SseEvent[] = [];
  const out = { enqueue: (event: SseEvent) => void sent.push(event) };
  const events: LlmStreamEvent[] = [
    { type: 'start', id: 'resp_1', model: 'm' },
    { type: 'block-start', index: 0, block: { kind: 'reasoning', format: 'summary' } },
    { type: 'reasoning-delta', index: 0, text: TRICKY },
    { type: 'block-end', index: 0 },
    { type: 'block-start', index: 1, block: { kind: 'reasoning', format: 'full' } },
    { type: 'reasoning-delta', index: 1, text: TRICKY },
    { type: 'block-end', index: 1 },
    { type: 'block-start', index: 2, block: { kind: 'text' } },
    { type: 'text-delta', index: 2, text: TRICKY },
    { type: 'block-end', index: 2 },
    { type: 'block-start', index: 3, block: { kind: 'refusal' } },
    { type: 'text-delta', index: 3, text: TRICKY },
    { type: 'block-end', index: 3 },
    { type: 'block-start', index: 4, block: { kind: 'tool_call', id: 'call_1', name: 'bash' } },
    { type: 'tool-args-delta', index: 4, json: `{"command":${JSON.stringify(TRICKY)}}` },
    { type: 'block-end', index: 4 },
    { type: 'block-start', index: 5, block: { kind: 'tool_call', id: 'call_2', name: 'patch', freeform: true } },
    { type: 'tool-args-delta', index: 5, json: TRICKY },
    { type: 'block-end', index: 5 },
    { type: 'finish', reason: 'tool_calls' },
  ];
  for (const event of events) encodeStep(state, event, out);
  encodeEnd(state, out);
  const deltas = sent.filter((event) => event.event?.endsWith('.delta')).map((event) => JSON.parse(event.data));

  it('writes every event as the exact bytes JSON.stringify gives its object', () => {
    for (const event of sent) expect(event.data).toBe(JSON.stringify(JSON.parse(event.data)));
  });

  it('writes each finished item once: the terminal event holds the output_item.done items, in order', () => {
    const items = sent.filter((event) => event.event === 'response.output_item.done').map((event) => JSON.stringify(JSON.parse(event.data).item));
    const terminal = JSON.parse(sent.at(-1)?.data ?? '{}');
    expect(terminal.type).toBe('response.completed');
    expect(terminal.response.output.map((item: unknown) => JSON.stringify(item))).toEqual(items);
    // The text and the refusal after it share one message item.
    expect(items).toHaveLength(5);
    // The done events carry the whole text, as JSON.stringify writes it.
    const textDone = JSON.parse(sent.find((event) => event.event === 'response.output_text.done')?.data ?? '{}');
    expect(textDone.text).toBe(TRICKY);
  });

  it('writes the deltas with their exact payloads, in sequence', () => {
    const ids = deltas.map((delta) => delta.item_id as string);
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true);
    const at = (type: string) => sent.findIndex((event) => event.event === type);
    expect(deltas).toEqual([
      {
        type: 'response.reasoning_summary_text.delta',
        item_id: ids[0],
        output_index: 0,
        summary_index: 0,
        delta: TRICKY,
        sequence_number: at('response.reasoning_summary_text.delta'),
      },
      {
        type: 'response.reasoning_text.delta',
        item_id: ids[1],
        output_index: 1,
        content_index: 0,
        delta: TRICKY,
        sequence_number: at('response.reasoning_text.delta'),
      },
      {
        type: 'response.output_text.delta',
        item_id: ids[2],
        output_index: 2,
        content_index: 0,
        delta: TRICKY,
        logprobs: [],
        sequence_number: at('response.output_text.delta'),
      },
      { type: 'response.refusal.delta', item_id: ids[2], output_index: 2, content_index: 1, delta: TRICKY, sequence_number: at('response.refusal.delta') },
      {
        type: 'response.function_call_arguments.delta',
        item_id: ids[4],
        output_index: 3,
        delta: `{"command":${JSON.stringify(TRICKY)}}`,
        sequence_number: at('response.function_call_arguments.delta'),
      },
      {
        type: 'response.custom_tool_call_input.delta',
        item_id: ids[5],
        output_index: 4,
        delta: TRICKY,
        sequence_number: at('response.custom_tool_call_input.delta'),
      },
    ]);
    expect(sent.map((event) => JSON.parse(event.data).sequence_number)).toEqual(sent.map((_, index) => index));
  });

  it('writes every delta of an item with its own head, reasoning summary and full text apart', () => {
    const again = createEncodeState({});
    const data: SseEvent[] = [];
    const sink = { enqueue: (event: SseEvent) => void data.push(event) };
    for (const event of [
      { type: 'start', id: 'resp_2', model: 'm' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'a' },
      { type: 'text-delta', index: 0, text: 'b' },
      { type: 'block-end', index: 0 },
      { type: 'block-start', index: 1, block: { kind: 'reasoning', id: 'rs_1', format: 'summary' } },
      { type: 'reasoning-delta', index: 1, text: 'c' },
      { type: 'reasoning-delta', index: 1, text: 'd' },
    ] satisfies LlmStreamEvent[])
      encodeStep(again, event, sink);
    const deltas = data.filter((event) => event.event?.endsWith('.delta'));
    const first = JSON.parse(deltas[0]!.data) as { item_id: string; sequence_number: number };
    const third = JSON.parse(deltas[2]!.data) as { sequence_number: number };
    expect(deltas.map((event) => event.data)).toEqual([
      `{"type":"response.output_text.delta","item_id":"${first.item_id}","output_index":0,"content_index":0,"delta":"a","logprobs":[],"sequence_number":${first.sequence_number}}`,
      `{"type":"response.output_text.delta","item_id":"${first.item_id}","output_index":0,"content_index":0,"delta":"b","logprobs":[],"sequence_number":${first.sequence_number + 1}}`,
      `{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":1,"summary_index":0,"delta":"c","sequence_number":${third.sequence_number}}`,
      `{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":1,"summary_index":0,"delta":"d","sequence_number":${third.sequence_number + 1}}`,
    ]);
  });
});
